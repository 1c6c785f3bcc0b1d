from __future__ import annotations

from random import Random

import pytest

from companion.engine.game import Game
from companion.errors import IllegalAction, MalformedAction, NothingToUndo, StaleAction


def play_random(game: Game, n: int, seed: int = 1) -> None:
    rng = Random(seed)
    for _ in range(n):
        action = game.rules.random_action(game.state, rng)
        if action is None:
            return
        game.propose(action)


def test_a_legal_action_becomes_an_event_and_changes_the_state(stones):
    game = Game.start(stones, ["Ada", "Bo"], {"heap": 10}, seed=3)
    event = game.propose({"type": "take", "player": "Ada", "count": 2})
    assert event.seq == 1 and event.kind == "action"
    assert game.state.heap == 8 and game.version == 1


def test_an_illegal_action_names_every_problem_and_changes_nothing(stones):
    game = Game.start(stones, ["Ada", "Bo"], {"heap": 10}, seed=3)
    before = game.view()
    with pytest.raises(IllegalAction) as err:
        game.propose({"type": "take", "player": "Bo", "count": 7})
    rules = {p.rule for p in err.value.problems}
    assert rules == {"turn-order", "take-count"}
    assert "Bo" in str(err.value) and "7" in str(err.value)
    assert game.view() == before and len(game.log.events()) == 1


@pytest.mark.parametrize("bad", [None, [], {"count": 1}, {"type": 3}])
def test_a_malformed_action_is_refused(stones, bad):
    game = Game.start(stones, ["Ada", "Bo"], seed=3)
    with pytest.raises(MalformedAction):
        game.propose(bad)


def test_setup_refuses_a_wrong_player_count_and_duplicate_names(stones):
    with pytest.raises(MalformedAction, match="1"):
        Game.start(stones, ["Solo"])
    with pytest.raises(MalformedAction, match="Ada"):
        Game.start(stones, ["Ada", "Ada"])


def test_undo_and_redo_are_events_and_nothing_leaves_the_log(stones):
    game = Game.start(stones, ["Ada", "Bo"], {"heap": 12}, seed=5)
    play_random(game, 3)
    after_three = game.view()
    game.undo()
    assert game.state.heap > after_three["heap"]
    game.redo()
    assert {k: v for k, v in game.view().items() if k != "version"} == \
        {k: v for k, v in after_three.items() if k != "version"}
    kinds = [e.kind for e in game.log.events()]
    assert kinds == ["setup", "action", "action", "action", "undo", "redo"]


def test_undo_to_any_entry_and_redo_one_at_a_time(stones):
    game = Game.start(stones, ["Ada", "Bo", "Cy"], {"heap": 20}, seed=9)
    play_random(game, 5, seed=2)
    heaps = [game.state.heap]
    history = game.history()
    second = history[2]["seq"]
    game.undo_to(second)
    assert [h["in_effect"] for h in game.history() if h["kind"] == "action"] == [True, True, False, False, False]
    game.redo()
    game.redo()
    game.redo()
    assert game.state.heap == heaps[0]
    with pytest.raises(NothingToUndo):
        game.redo()


def test_undo_to_the_start_and_nothing_more_to_undo(stones):
    game = Game.start(stones, ["Ada", "Bo"], {"heap": 10}, seed=1)
    with pytest.raises(NothingToUndo):
        game.undo()
    play_random(game, 2)
    game.undo_to(0)
    assert game.state.heap == 10
    with pytest.raises(NothingToUndo):
        game.undo()


def test_a_new_action_after_undo_ends_the_redo_branch(stones):
    game = Game.start(stones, ["Ada", "Bo"], {"heap": 10}, seed=1)
    game.propose({"type": "take", "player": "Ada", "count": 1})
    game.undo()
    game.propose({"type": "take", "player": "Ada", "count": 3})
    assert game.state.heap == 7
    with pytest.raises(NothingToUndo):
        game.redo()


def test_a_retried_action_id_applies_once(stones):
    game = Game.start(stones, ["Ada", "Bo"], {"heap": 10}, seed=1)
    first = game.propose({"type": "take", "player": "Ada", "count": 1}, action_id="tap-1")
    again = game.propose({"type": "take", "player": "Ada", "count": 1}, action_id="tap-1")
    assert again == first and game.state.heap == 9


def test_a_stale_action_is_refused(stones):
    game = Game.start(stones, ["Ada", "Bo"], {"heap": 10}, seed=1)
    seen = game.version
    game.propose({"type": "take", "player": "Ada", "count": 1})
    with pytest.raises(StaleAction):
        game.propose({"type": "take", "player": "Bo", "count": 1}, base=seen)
    assert game.state.heap == 9


def test_seeded_randomness_replays_exactly_and_survives_undo_redo(stones):
    game = Game.start(stones, ["Ada", "Bo"], {"heap": 30}, seed=77)
    play_random(game, 8, seed=4)
    points = game.state.points
    game.undo_to(game.history()[2]["seq"])
    for _ in range(6):
        game.redo()
    assert not game.view()["can_redo"]
    assert game.state.points == points
    replayed = Game(stones, game.log)
    assert replayed.state == game.state


def test_deep_undo_beyond_many_checkpoints(stones):
    game = Game.start(stones, ["Ada", "Bo"], {"heap": 200}, seed=7)
    play_random(game, 60, seed=8)
    states = []
    replay = Game(stones, game.log)
    assert replay.state == game.state
    for _ in range(40):
        states.append(game.state)
        game.undo()
    for expected in reversed(states):
        game.redo()
        assert game.state == expected


def test_listeners_hear_each_accepted_event_once(stones):
    game = Game.start(stones, ["Ada", "Bo"], {"heap": 10}, seed=1)
    heard = []
    unsubscribe = game.subscribe(lambda g, e: heard.append(e.seq))
    game.propose({"type": "take", "player": "Ada", "count": 1})
    with pytest.raises(IllegalAction):
        game.propose({"type": "take", "player": "Ada", "count": 1})
    game.undo()
    unsubscribe()
    game.redo()
    assert heard == [1, 2]


def test_a_blocked_listener_does_not_stop_another_threads_proposal(stones):
    """Listeners are told after the commit and outside the game's lock: while one listener call blocks,
    another thread's proposal commits and returns; every entry is still heard once, in seq order, and the
    listener sees the game as it stood right after the entry it hears of."""
    import threading

    game = Game.start(stones, ["Ada", "Bo"], {"heap": 20}, seed=3)
    heard: list[int] = []
    seen: list[tuple[int, int, int, int]] = []
    release, listening = threading.Event(), threading.Event()

    def slow(game, event):
        if event.seq == 1:
            listening.set()
            release.wait()
        heard.append(event.seq)
        seen.append((game.version, game.view()["heap"], game.state.heap, len(game.history())))

    game.subscribe(slow)
    first = threading.Thread(target=game.propose, args=({"type": "take", "player": "Ada", "count": 1},))
    first.start()
    assert listening.wait(30)
    second_done = threading.Event()

    def second():
        game.propose({"type": "take", "player": "Bo", "count": 2})
        second_done.set()

    threading.Thread(target=second, daemon=True).start()
    committed = second_done.wait(30)  # without the fix the second proposal waits on the lock for ever
    release.set()
    first.join(30)
    assert committed and game.version == 2 and len(game.log.events()) == 3
    assert heard == [1, 2] and seen == [(1, 19, 19, 2), (2, 17, 17, 3)]


def test_a_listener_that_proposes_is_heard_in_order_and_a_failing_listener_hides_nothing(stones):
    game = Game.start(stones, ["Ada", "Bo"], {"heap": 20}, seed=3)
    heard: list[int] = []

    def answer(_game, event):
        heard.append(event.seq)
        if event.seq == 1:
            game.propose({"type": "take", "player": "Bo", "count": 1})

    def broken(_game, event):
        raise RuntimeError("tablet gone")

    game.subscribe(broken)
    game.subscribe(answer)
    event = game.propose({"type": "take", "player": "Ada", "count": 1})
    assert event.seq == 1 and heard == [1, 2] and game.version == 2


def test_a_game_starts_from_a_position_stored_in_its_setup_entry(stones, tmp_path, with_stones):
    from companion.night import Night
    from companion.store import Store

    with Store(tmp_path / "night.sqlite") as store:
        game = Night.resume_or_start(store).start_game("stones", ["Ada", "Bo"], {}, 3, {"heap": 2, "turn": "Bo"})
        assert game.state.heap == 2 and game.rules.legal_actions(game.state)["player"] == "Bo"
        game.propose({"type": "take", "player": "Bo", "count": 2})
    with Store(tmp_path / "night.sqlite") as store:
        again = Night.resume_or_start(store).current
        assert again.setup_event.payload == {"game": "stones", "players": ["Ada", "Bo"], "options": {}, "seed": 3,
                                             "position": {"heap": 2, "turn": "Bo"}}
        assert again.view() == game.view() and again.state.winner == "Bo"


@pytest.mark.parametrize("position, error, named", [
    ("heap of 3", MalformedAction, "position"), ({"heap": 3, "colour": "red"}, MalformedAction, "colour"),
    ({"heap": 0, "turn": "Cy"}, IllegalAction, "position-turn"), ({"heap": [[[[[[[1]]]]]]]}, MalformedAction, "heap"),
])
def test_a_refused_position_is_named_and_nothing_is_written(stones, position, error, named):
    from companion.engine.log import MemoryLog

    log = MemoryLog()
    with pytest.raises(error, match=named) as refused:
        Game.start(stones, ["Ada", "Bo"], {}, 3, log=log, position=position)
    assert log.events() == []
    if error is IllegalAction:
        assert {p.rule for p in refused.value.problems} == {"position-heap", "position-turn"}


@pytest.mark.parametrize("command, key", [({"type": "undo", "junk": 1}, "junk"), ({"type": "redo", "to": 3}, "to"),
                                          ({"type": "undo_to", "seq": 0, "q" * 15_000: 1}, "qqq")])
def test_the_engines_own_commands_refuse_keys_they_do_not_take(stones, command, key):
    game = Game.start(stones, ["Ada", "Bo"], {"heap": 10}, seed=3)
    game.propose({"type": "take", "player": "Ada", "count": 1})
    with pytest.raises(MalformedAction, match=key) as refused:
        game.propose(command)
    assert len(str(refused.value)) < 200 and game.version == 1 and game.view()["can_undo"]


def test_a_game_that_cannot_start_from_a_position_says_so(stones):
    class WithoutPositions:  # a game module written before positions existed
        def __getattr__(self, name):
            if name == "from_position":
                raise AttributeError(name)
            return getattr(stones, name)

    with pytest.raises(MalformedAction, match="cannot start from a position"):
        Game.start(WithoutPositions(), ["Ada", "Bo"], {}, 3, position={"heap": 2})
    assert Game.start(WithoutPositions(), ["Ada", "Bo"], {"heap": 4}, 3).state.heap == 4

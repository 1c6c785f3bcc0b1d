"""Bots play random legal games to the end; the table's invariants hold after every action."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from itertools import islice
from random import Random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.game import Game
from companion.games.incantibus.state import State
from companion.night import Night
from companion.store import Store
from incantibus_helpers import RULES, bot_states, start
from incantibus_invariants import check_invariants

NAMES = ["Lera", "Kirill", "Katya", "Rosa"]


def check_view_hides_secrets(state: State, view: dict[str, Any]) -> None:
    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("token") in state.secret:
                assert node.get("kind") is None, node
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(view)
    assert json.loads(json.dumps(view)) == view


games = st.tuples(st.integers(0, 10_000), st.sampled_from([2, 3, 4]), st.booleans(), st.sampled_from(["companion", "table"]))


@settings(max_examples=300, deadline=None)
@given(games)
def test_invariants_hold_after_every_action_of_a_random_game(game: tuple[int, int, bool, str]) -> None:
    seed, n, expert, draws = game
    state = RULES.setup(NAMES[:n], {"expert": expert, "draws": draws}, Random(seed))
    check_invariants(state)
    for _, after in bot_states(state, seed):
        check_invariants(after)
        check_view_hides_secrets(after, RULES.public_view(after))
        state = after
        json.dumps(RULES.legal_actions(state))
    assert RULES.is_over(state) and RULES.random_action(state, Random(0)) is None
    ranking = RULES.ranking(state)
    assert sorted(ranking) == sorted(NAMES[:n])
    assert [RULES.score(state)[p] for p in ranking] == sorted(RULES.score(state).values(), reverse=True)


@settings(max_examples=100, deadline=None)
@given(games)
def test_undo_then_redo_gives_the_same_view_after_every_action(game: tuple[int, int, bool, str]) -> None:
    seed, n, expert, draws = game
    live = Game.start(RULES, NAMES[:n], {"expert": expert, "draws": draws}, seed=seed)
    rng = Random(seed)
    while (action := RULES.random_action(live.state, rng)) is not None:
        live.propose(action)
        after = _stable(live.view())
        live.undo()
        live.redo()
        assert _stable(live.view()) == after


@settings(max_examples=20, deadline=None)
@given(games)
def test_replaying_the_stored_log_gives_the_live_state(game: tuple[int, int, bool, str]) -> None:
    seed, n, expert, draws = game
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "night.sqlite") as store:
        night = Night(store, store.new_night("test"))
        live = night.start_game("incantibus", NAMES[:n], {"expert": expert, "draws": draws}, seed=seed)
        ((game_id, _),) = night.played()
        rng = Random(seed)
        while (action := RULES.random_action(live.state, rng)) is not None:
            live.propose(action)
            if rng.random() < 0.1:
                live.undo()
        with Store(Path(folder) / "night.sqlite") as again:
            assert Game(RULES, again.log(game_id)).view() == live.view()


def _stable(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("version", "can_undo", "can_redo")}


def test_apply_never_changes_the_state_it_is_given() -> None:
    state = start(NAMES, expert=True)
    for action, after in bot_states(state, 3):
        before = json.dumps(RULES.public_view(state), sort_keys=True), repr(state)
        RULES.apply(state, action, Random(0))
        assert (json.dumps(RULES.public_view(state), sort_keys=True), repr(state)) == before
        state = after


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=4) |
                           st.sampled_from(["r0", "p0", "s0", "c0", "Lera", "Rosa", "LOCUS", "vampire", "J1"]),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
                               ["Lera", "Rosa", "r0", "p0", "token", "from", "discard"]), inner, max_size=3),
                           max_leaves=8)
actions = st.fixed_dictionaries({"type": st.sampled_from(["cast", "spell", "satchel", "wand_down", "room_entered",
                                                          "reveal"])},
                                optional={k: json_values for k in ("targets", "pay", "player", "card", "choice",
                                                                   "visible", "secret", "room", "kinds", "token_id",
                                                                   "kind")})


@settings(max_examples=300, deadline=None)
@given(actions, st.integers(0, 40), st.sampled_from(["companion", "table"]))
def test_any_json_action_is_checked_without_crashing(action: dict[str, Any], steps: int, draws: str) -> None:
    state = RULES.setup(NAMES[:2], {"draws": draws}, Random(steps))
    for _, reached in islice(bot_states(state, steps), steps):
        state = reached
    problems = RULES.check(state, action)
    if not problems:  # a random action that happens to be legal must apply cleanly
        check_invariants(RULES.apply(state, action, Random(0)))

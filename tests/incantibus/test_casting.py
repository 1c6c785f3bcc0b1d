"""Casting: legal targets, contests and swaps, and every illegal action refused with nothing changed."""
from __future__ import annotations

from random import Random
from typing import Any

import pytest

from companion.engine.game import Game
from companion.errors import IllegalAction
from companion.games.incantibus.steps import AwaitCast, AwaitReveal, AwaitRoom
from incantibus_helpers import RULES, act, cast, give, kinds_of, moat_kinds, table

ROOF = ["flying_stake", "pumpkin", "mistletoe", "mushroom", "trap", "wand_net", "crystal_ball"]
FOUR = {"Lera": 4, "Kirill": 2, "Katya": 1, "Rosa": 3}


def test_the_camera_gets_every_target_with_its_place_and_each_players_legal_targets() -> None:
    state = give(table(FOUR, ROOF), "Katya", "mistletoe", "mushroom")
    legal = RULES.legal_actions(state)
    assert legal["kind"] == "cast" and legal["players"] == list(FOUR)
    assert legal["tokens"]["r0"] == {"place": "room", "slot": 0, "visible": True, "kind": "flying_stake"}
    assert legal["tokens"]["p0"]["place"] == "potion"
    assert "p0" in legal["targets"]["Katya"] and "p0" not in legal["targets"]["Lera"]  # green: mistletoe + mushroom
    assert legal["targets"]["Lera"] == [f"r{i}" for i in range(7)]


def test_a_contest_of_two_swaps_the_winner_with_the_loser_and_others_take_their_own() -> None:
    state = act(table(FOUR, ROOF), cast(Lera="r2", Kirill="r1", Katya="r1", Rosa=None))
    assert kinds_of(state, "Kirill") == ["pumpkin"] and kinds_of(state, "Katya") == []
    assert kinds_of(state, "Lera") == ["mistletoe"] and kinds_of(state, "Rosa") == []
    assert state.wands == {"Lera": 4, "Kirill": 1, "Katya": 2, "Rosa": 3}


def test_two_contests_in_one_casting_swap_from_the_wands_held_when_pointing() -> None:
    state = act(table(FOUR, ROOF), cast(Lera="r0", Katya="r0", Kirill="r1", Rosa="r1"))
    assert kinds_of(state, "Lera") == ["flying_stake"] and kinds_of(state, "Rosa") == ["pumpkin"]
    assert state.wands == {"Lera": 1, "Kirill": 3, "Katya": 4, "Rosa": 2}


def test_the_casting_repeats_while_two_tokens_remain_then_the_next_room_opens() -> None:
    state = act(table({"Lera": 4, "Rosa": 1}, ROOF), cast(Lera="r0", Rosa="r1"), cast(Lera="r2", Rosa="r3"))
    assert state.pending == AwaitCast() and sum(t is not None for t in state.slots) == 3
    state = act(state, cast(Lera="r4", Rosa="r5"))
    assert moat_kinds(state) == ["crystal_ball"]  # the last token goes to the moat
    assert state.pending == AwaitRoom() and RULES.public_view(state)["rooms_left"] == 2
    state = act(state, {"type": "room_entered", "room": "bedroom", "visible": ["gold_2", "spell", "trap", "ghost"],
                        "secret": 3})
    assert state.pending == AwaitReveal(("s1",))  # the next sorcerer is turned face up
    state = act(state, {"type": "reveal", "token_id": "s1", "kind": "archmage"})
    view = RULES.public_view(state)
    assert view["sorcerers"][1] == {**view["sorcerers"][1], "face_up": True, "kind": "archmage"}
    assert [t["visible"] for t in view["room"]["tokens"]] == [True] * 4 + [False] * 3
    assert all(t["kind"] is None for t in view["room"]["tokens"][4:])


def test_the_potion_spaces_are_refilled_when_the_next_room_opens() -> None:
    state = give(table({"Lera": 4, "Rosa": 1}, ROOF), "Lera", "mistletoe", "mushroom")
    state = act(state, cast(Lera="p0", Rosa="r0"), cast(Lera="r1", Rosa="r2"), cast(Lera="r3", Rosa="r4"))
    assert state.potions[0] is None
    state = act(state, cast(Lera="r5", Rosa=None))
    state = act(state, {"type": "room_entered", "visible": ["gold_2", "spell", "trap", "ghost"], "secret": 3})
    assert state.pending == AwaitReveal(("p0", "s1"))
    state = act(state, {"type": "reveal", "kinds": {"p0": "red_2", "s1": "archmage"}})
    assert RULES.public_view(state)["potions"][0]["kind"] == "red_2" and state.room == "bedroom"


@pytest.mark.parametrize("targets, rule, player, target", [
    ({"Lera": "p0", "Kirill": "r0", "Katya": None, "Rosa": None}, "potion-ingredients", "Lera", "p0"),
    ({"Lera": "r9", "Kirill": "r0", "Katya": None, "Rosa": None}, "cast-target", "Lera", "r9"),
    ({"Lera": "s0", "Kirill": "r0", "Katya": None, "Rosa": None}, "cast-target", "Lera", "s0"),
    ({"Lera": "r0", "Kirill": "r0", "Katya": None}, "cast-everyone", "Rosa", None),
    ({"Lera": "r0", "Kirill": "r0", "Katya": None, "Rosa": None, "Igor": "r1"}, "cast-player", "Igor", None),
])
def test_an_illegal_cast_names_player_target_and_rule_and_changes_nothing(targets: dict[str, str | None], rule: str,
                                                                          player: str, target: str | None) -> None:
    game = Game.start(RULES, list(FOUR), {"deal": FOUR}, seed=3)
    before = game.view()
    with pytest.raises(IllegalAction) as caught:
        game.propose({"type": "cast", "targets": targets})
    (problem,) = caught.value.problems
    assert (problem.rule, problem.player, problem.target) == (rule, player, target)
    assert player in str(caught.value) and isinstance(caught.value, ValueError)
    assert game.view() == before and game.version == 0


def test_every_problem_of_a_cast_is_reported_at_once() -> None:
    state = table(FOUR, ROOF)
    problems = RULES.check(state, cast(Lera="p0", Kirill="p1", Katya="r99", Rosa="r0"))
    assert [(p.rule, p.player) for p in problems] == [("potion-ingredients", "Lera"), ("potion-ingredients", "Kirill"),
                                                       ("cast-target", "Katya")]
    assert "mistletoe" in problems[0].message and "green potion at 'p0'" in problems[0].message


@pytest.mark.parametrize("action, rule", [
    ({"type": "spell", "player": "Lera", "card": "RETIRO"}, "pending"),
    ({"type": "satchel", "player": "Lera", "choice": "discard_new"}, "pending"),
    ({"type": "wand_down", "player": "Lera"}, "wand-down"),
    ({"type": "reveal", "kinds": {"r0": "vampire"}}, "pending"),
    ({"type": "room_entered", "visible": [], "secret": 7}, "pending"),
    ({"type": "fly"}, "action-type"),
    ({"type": "cast", "targets": ["r0"]}, "cast-shape"),
])
def test_actions_that_are_not_awaited_are_refused(action: dict[str, object], rule: str) -> None:
    state = table(FOUR, ROOF)
    problems = RULES.check(state, action)
    assert [p.rule for p in problems] == [rule] and problems[0].message


def test_no_target_is_a_legal_choice_and_takes_nothing() -> None:
    state = act(table(FOUR, ROOF), cast(Lera=None, Kirill=None, Katya=None, Rosa="r3"))
    assert kinds_of(state, "Rosa") == ["mushroom"] and state.wands == FOUR


@pytest.mark.parametrize("action", [
    {"type": "cast"}, {"type": "cast", "targets": {"Lera": ["r0"], "Kirill": 3, "Katya": None, "Rosa": {"a": 1}}},
    {"type": "cast", "targets": {"Lera": "r0", "Kirill": None, "Katya": None, "Rosa": None}, "pay": [1]},
    {"type": "cast", "targets": {"Lera": "p0", "Kirill": None, "Katya": None, "Rosa": None}, "pay": {"Lera": [[1]]}},
    {"type": "spell", "player": ["Lera"], "card": {}}, {"type": "satchel", "player": None, "choice": [1]},
    {"type": "wand_down", "player": {"x": 1}}, {"type": "reveal", "token_id": ["r0"], "kind": 3},
    {"type": "reveal", "kinds": {"r0": ["vampire"]}}, {"type": "room_entered", "visible": [["x"]], "secret": True},
    {"type": None}])
def test_malformed_actions_are_problems_not_crashes(action: dict[str, object]) -> None:
    problems = RULES.check(table(FOUR, ROOF), action)
    assert problems and all(p.rule and p.message for p in problems)


def test_malformed_table_entries_are_problems_not_crashes() -> None:
    state = RULES.setup(["Lera", "Rosa"], {"draws": "table"}, Random(0))
    action: dict[str, Any]
    for action in ({"type": "room_entered", "visible": [["x"]], "secret": 0},
                   {"type": "room_entered", "room": ["roof"], "visible": ROOF, "secret": 0}):
        assert RULES.check(state, action)
    state = act(state, {"type": "room_entered", "room": "roof", "visible": ROOF, "secret": 0})
    for action in ({"type": "reveal", "token_id": ["p0"], "kind": "green_1"}, {"type": "reveal", "kinds": {"p0": 5}},
                   {"type": "reveal", "kinds": []}):
        assert [p.rule for p in RULES.check(state, action)] == ["reveal-shape"]

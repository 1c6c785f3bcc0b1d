"""Towers, wizards, imprisoning, freeing, the six-wizard limit and Ravenskeep moving on.

Shields (data file, gaps): spaces 2, 5, 8, 11, 14 and the tops of towers T1, T4, T7."""
from __future__ import annotations

import pytest

from ravenskeep_helpers import RULES, board, play, stack

LERA = {"player": "Lera"}


def card(moves: str, steps: int) -> dict[str, object]:
    return {"moves": moves, "steps": steps}


def test_a_tower_covering_wizards_imprisons_them_and_fills_one_bottle() -> None:
    state = board({"0": ["R"], "2": ["T1"], "4": ["Lera", "Kirill", "Kirill"]})
    state = play(state, {"type": "play", **LERA, "card": card("tower", 2), "tower": "T1"})
    assert stack(state, 4) == ["@Lera", "@Kirill", "@Kirill", "T1"]
    assert (state.players[0].full, state.players[0].empty) == (1, 4)  # one bottle, however many were caught
    view = RULES.public_view(state)
    assert [i.get("wizard", "-") for i in view["spaces"][4]["stack"]] == [None, None, None, "-"]  # nobody may peek


def test_filling_a_bottle_may_be_declined() -> None:
    # "When you imprison one or more wizards (even if only your own), you may fill one of your empty potion
    # bottles": may, so the player can decline and the wizards are imprisoned all the same.
    state = board({"0": ["R"], "2": ["T1"], "4": ["Lera", "Kirill"]})
    state = play(state, {"type": "play", **LERA, "card": card("tower", 2), "tower": "T1", "fill": False})
    assert stack(state, 4) == ["@Lera", "@Kirill", "T1"]
    assert (state.players[0].full, state.players[0].empty) == (0, 5)
    assert state.notes[-1] == {"event": "fill_declined", "player": "Lera"}
    assert RULES.public_view(state)["notes"][-1] == {"event": "fill_declined", "player": "Lera"}
    wizard = board({"0": ["R"], "4": ["Lera"]})
    problems = RULES.check(wizard, {"type": "play", **LERA, "card": card("wizard", 1), "wizard": 4, "fill": False})
    assert [(p.rule, p.target) for p in problems] == [("fill", "fill")]


def test_lifting_an_upper_part_of_a_tower_takes_everything_on_it_and_frees_the_wizards_under_it() -> None:
    state = board({"0": ["T1", "Lera", "T2", "Kirill"], "3": ["T3"], "6": ["R"]})
    problems = RULES.check(state, {"type": "play", **LERA, "card": card("tower", 3), "tower": "T3"})
    assert [(p.rule, p.target) for p in problems] == [("tower", "T3")] and "Ravenskeep" in problems[0].message
    state = play(state, {"type": "play", **LERA, "card": card("tower", 3), "tower": "T2"})
    assert stack(state, 0) == ["T1", "@Lera"] and stack(state, 3) == ["T3", "T2", "@Kirill"]
    assert state.notes[-1]["freed"] == ["Lera"] and state.players[0].full == 0


def test_ravenskeep_on_top_of_a_stack_goes_along_with_its_tower() -> None:
    state = board({"0": ["T1", "T2", "R"], "4": ["Kirill"]})
    state = play(state, {"type": "play", **LERA, "card": card("tower", 4), "tower": "T2"})
    assert stack(state, 4) == ["@Kirill", "T2", "R"] and state.where("R") == 4 and state.players[0].full == 1


def test_a_wizard_landing_on_a_tower_goes_atop_it_and_six_is_the_limit() -> None:
    state = board({"0": ["R"], "3": ["T1", "Kirill", "Kirill", "Kirill", "Lera", "Katya"], "1": ["Lera"], "2": ["Lera"]},
                  players=["Lera", "Kirill", "Katya"])
    state = play(state, {"type": "play", **LERA, "card": card("wizard", 2), "wizard": 1})
    assert stack(state, 3)[-1] == "@Lera" and len(RULES.public_view(state)["spaces"][3]["stack"]) == 7
    problems = RULES.check(state, {"type": "play", **LERA, "card": card("either", 1), "wizard": 2})
    assert [(p.rule, p.player, p.target) for p in problems] == [("wizard", "Lera", "2")]
    assert "6 wizards" in problems[0].message


def test_a_wizard_dropping_into_ravenskeep_stays_there_ravenskeep_moves_on_and_the_turn_ends() -> None:
    # Space 2 (a shield) has a wizard on it, so Ravenskeep goes on to T4's shield top on space 3.
    state = board({"1": ["R"], "0": ["Lera"], "2": ["Kirill"], "3": ["T4"]})
    state = play(state, {"type": "play", **LERA, "card": card("wizard", 1), "wizard": 0})
    assert state.players[0].keep == 3 and state.where("R") == 3 and stack(state, 3) == ["T4", "R"]
    assert state.current.name == "Kirill" and state.cards_played == 0  # Lera's turn ended at once


def test_ravenskeep_stays_when_no_shield_is_free() -> None:
    spaces = {"1": ["R"], "0": ["Lera"], "2": ["Kirill"], "5": ["Kirill"], "8": ["T1", "Lera"], "11": ["T4", "Lera"],
              "14": ["T7", "Kirill"]}
    state = board(spaces)
    state = play(state, {"type": "play", **LERA, "card": card("wizard", 1), "wizard": 0})
    assert state.where("R") == 1 and state.notes[-1] == {"event": "ravenskeep", "space": 1, "stays": True}


def test_a_card_must_move_if_at_all_possible_else_it_is_played_for_nothing() -> None:
    state = board({"0": ["R"], "4": ["Lera"]})
    problems = RULES.check(state, {"type": "play", **LERA, "card": card("wizard", 2)})
    assert [p.rule for p in problems] == ["move-possible"]
    state = board({"0": ["R"]})  # Lera has no wizard on the board
    state = play(state, {"type": "play", **LERA, "card": card("wizard", 2)})
    assert state.notes[-1] == {"event": "no_move", "player": "Lera"}


@pytest.mark.parametrize("action, rule", [
    ({"card": card("wizard", 2), "tower": "T1"}, "tower"),
    ({"card": card("tower", 2), "wizard": 4}, "wizard"),
    ({"card": card("either", 2), "wizard": 4, "tower": "T1"}, "piece"),
])
def test_a_card_moves_only_what_it_depicts(action: dict[str, object], rule: str) -> None:
    state = board({"0": ["R"], "4": ["Lera"], "6": ["T1"]})
    assert [p.rule for p in RULES.check(state, {"type": "play", **LERA, **action})] == [rule]

"""Witchcraft's rules one by one: the witches' benefits, the actions, the crystal rule, familiars,
the limits, jokers, the end; refusals that name the player, the target and the rule."""
from __future__ import annotations

from typing import Any

import pytest

from companion.errors import MalformedAction
from companion.games.witchcraft.cards import card
from companion.games.witchcraft.state import State
from tests import game_helpers
from tests.game_helpers import Found
from witchcraft_helpers import RULES, act, position, start

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"]


def refused(state: State, action: dict[str, Any]) -> Found:
    return game_helpers.refused(RULES, state, action)


def buy(witch: str, cards: list[int], pay: list[int] | None = None, **more: Any) -> dict[str, Any]:
    return {"type": "buy", "witch": witch, "cards": cards, "pay": pay or [], **more}


# -- setup -------------------------------------------------------------------------------------------

def test_every_witch_gets_her_spells_crystals_and_benefit() -> None:
    witches = dict(zip(NAMES, ["curious", "kind", "honest", "brave", "unyielding", "resilient"]))
    state = start(NAMES, witches=witches)
    assert state.witch == "Dee"  # the Brave starts
    assert state.crystals == {"Ann": 4, "Ben": 4, "Cid": 8, "Dee": 4, "Eve": 4, "Fay": 4}
    assert state.supply == 28 - 28  # 6 witches take every crystal, the Honest 4 more
    assert len(state.familiars["Ben"]) == 1 and RULES.score(state)["Dee"] == 1
    assert RULES.score(state)["Eve"] >= 1 and RULES.score(state)["Ben"] == 1 + (2 if state.familiars["Ben"] == ("owl",) else 0)
    assert ingredients_held(state, "Eve") == 1 and ingredients_held(state, "Fay") == 2
    assert len(state.spells["Ann"]) + len(state.cast["Ann"]) == 3  # two starting spells and one drawn
    assert len([c for c in state.market if c]) == 9


def ingredients_held(state: State, witch: str) -> int:
    """Ingredients in the inventory, on spells, or set aside with a spell she cast."""
    cast = sum(len(card(s).recipe) for s in state.cast[witch])
    return len(state.inventory[witch]) + sum(len(state.assigned[s]) for s in state.spells[witch]) + cast


def test_without_the_brave_the_last_to_cast_a_spell_starts() -> None:
    state = start(["Ann", "Ben", "Cid"], witches={"Ann": "kind", "Ben": "honest", "Cid": "curious"}, first="Cid")
    assert state.pending == ("turn", "Cid")


# -- buying ------------------------------------------------------------------------------------------

def test_cards_bought_are_adjacent_in_a_row_or_a_column() -> None:
    state = position()
    assert refused(state, buy("Ann", [0, 4], [1, 2])) == [("adjacent", "Ann", "0,4")]
    assert refused(state, buy("Ann", [0, 1, 2, 3], [5])) == [("buy", "Ann", "0,1,2,3")]
    act(state, buy("Ann", [0, 3, 6], [1, 2, 5]))  # a column


def test_a_buy_refused_names_every_crystal_problem_at_once() -> None:
    state = position(ann={"crystals": 1})
    found = refused(state, buy("Ann", [0, 1], [1]))
    assert ("crystals", "Ann", "1") in found  # one crystal too few, and one on a card she buys
    assert [p for p in found if p[0] == "crystals" and p[2] == "1"]
    assert ("crystals", "Ann", "1") in refused(state, buy("Ann", [0, 1], [1, 2]))
    assert refused(state, buy("Ben", [0])) == [("turn", "Ben", None)]


def test_the_bat_buys_cards_apart_and_the_squirrel_four_together() -> None:
    bat = position(ann={"familiars": ["bat"]})
    act(bat, buy("Ann", [0, 8], [4, 5]))
    squirrel = position(ann={"familiars": ["squirrel"], "crystals": 4})
    assert ("familiar", "Ann", "squirrel") in refused(position(), buy("Ann", [0, 1, 3, 4], [5, 6, 7, 8], familiar="squirrel"))
    after = act(squirrel, buy("Ann", [0, 1, 3, 4], [5, 6, 7, 8], familiar="squirrel"))
    assert after.crystals["Ann"] == 0 and after.on_market[5:] == (1, 1, 1, 1)


def test_the_raccoon_buys_exactly_three_for_one_crystal_less() -> None:
    state = position(ann={"familiars": ["raccoon"]})
    after = act(state, buy("Ann", [0, 1, 2], [4, 5], familiar="raccoon"))
    assert after.crystals["Ann"] == 2
    assert refused(state, buy("Ann", [0, 1], [4], familiar="raccoon")) == [("raccoon", "Ann", "0,1")]


def test_the_raven_sends_a_row_under_the_deck_then_its_owner_may_buy() -> None:
    state = position(ann={"familiars": ["raven"]}, on_market=[0, 0, 0, 0, 0, 0, 1, 0, 0])
    state = act(state, {"type": "familiar_action", "witch": "Ann", "familiar": "raven", "row": 2})
    assert state.pending == ("raven_buy", "Ann") and state.market[6:] == ("I11", "I12", "I13")
    assert state.on_market[6] == 1 and state.deck[-3:] == ("I51", "I52", "I53")
    state = act(state, buy("Ann", [6]))  # the crystal on it pays for it
    assert state.crystals["Ann"] == 5 and state.pending == ("turn", "Ben")


def test_the_goat_gives_one_more_action_once() -> None:
    state = position(ann={"familiars": ["goat"]})
    state = act(state, {"type": "familiar_action", "witch": "Ann", "familiar": "goat"},
                {"type": "take_crystals", "witch": "Ann"})
    assert state.pending == ("turn", "Ann")
    state = act(state, {"type": "take_crystals", "witch": "Ann"})
    assert state.pending == ("turn", "Ben") and state.crystals["Ann"] == 8
    state = act(state, {"type": "take_crystals", "witch": "Ben"})
    assert refused(state, {"type": "familiar_action", "witch": "Ann", "familiar": "goat"}) == [("goat", "Ann", "goat")]


def test_crystals_come_from_the_richest_witch_when_the_supply_is_empty() -> None:
    state = position(ann={"crystals": 9, "familiars": ["magpie"]}, ben={"crystals": 12})  # 7 in the supply
    state = act(state, {"type": "familiar_action", "witch": "Ann", "familiar": "magpie"})
    assert state.crystals["Ann"] == 15 and state.supply == 1
    state = act(state, {"type": "take_crystals", "witch": "Ben"}, {"type": "take_crystals", "witch": "Ann"})
    assert state.supply == 0 and state.crystals == {"Ann": 16, "Ben": 12}
    assert sum(state.crystals.values()) + sum(state.on_market) + state.supply == 28


# -- familiars and spells ------------------------------------------------------------------------------

def test_a_third_familiar_means_discarding_one_and_its_magic() -> None:
    state = position(ann={"familiars": ["owl", "bat"]}, familiar_stack=["goat", "cat"])
    state = act(state, {"type": "take_familiar", "witch": "Ann"})
    assert state.pending == ("discard_familiar", "Ann") and RULES.score(state)["Ann"] == 1 + 3 + 1 + 1
    assert refused(state, {"type": "discard", "witch": "Ann", "familiar": "cat"}) == [("familiars", "Ann", "cat")]
    state = act(state, {"type": "discard", "witch": "Ann", "familiar": "owl"})
    assert state.familiars["Ann"] == ("bat", "goat") and RULES.score(state)["Ann"] == 3
    assert state.pending == ("turn", "Ben") and state.crystals["Ann"] == 5


def test_a_fourth_spell_is_discarded_at_the_end_of_the_turn_with_its_ingredients() -> None:
    state = position(ann={"spells": {"W01": ["I72"], "W02": [], "B02": []}}, basic=["B03", "B04"])
    state = act(state, {"type": "take_basic_spell", "witch": "Ann"})
    assert state.pending == ("discard_spell", "Ann") and len(state.spells["Ann"]) == 4
    state = act(state, {"type": "discard", "witch": "Ann", "spell": "W01"})
    assert "I72" in state.discard and "W01" in state.discard and state.pending == ("turn", "Ben")


def test_a_new_spell_takes_matching_ingredients_from_the_inventory_and_may_be_cast() -> None:
    state = position(ann={"inventory": ["I21", "I31"], "spells": {"W01": []}}, basic=["B03"])  # B03: mandrake + raven feather
    state = act(state, {"type": "take_basic_spell", "witch": "Ann"})
    assert state.cast["Ann"] == ("B03",) and state.inventory["Ann"] == () and RULES.score(state)["Ann"] == 2


def test_the_cat_buys_one_more_ingredient_with_a_take() -> None:
    state = position(ann={"familiars": ["cat"]})
    after = act(state, {"type": "take_crystals", "witch": "Ann", "cat": {"card": 3, "pay": 0}})
    assert after.crystals["Ann"] == 4 + 2 - 1 and after.on_market[0] == 1 and "I71" in after.assigned["W01"]
    assert refused(position(), {"type": "take_crystals", "witch": "Ann", "cat": {"card": 3, "pay": 0}}) == \
        [("cat", "Ann", "3")]


def test_the_hare_is_cast_at_any_time_for_3_magic() -> None:
    state = position(ann={"familiars": ["hare"], "inventory": ["I02", "I54", "J2"], "spells": {}})  # moonflower frog + joker
    state = act(state, {"type": "take_crystals", "witch": "Ann"})
    assert state.pending == ("turn", "Ben")
    state = act(state, {"type": "hare", "witch": "Ann"})  # on Ben's turn
    assert state.hare_casts["Ann"] == 1 and RULES.score(state)["Ann"] == 1 + 1 + 3 and state.pending == ("turn", "Ben")
    assert refused(state, {"type": "hare", "witch": "Ann"}) == [("hare", "Ann", "hare")]


def test_the_snake_makes_one_ingredient_a_joker() -> None:
    state = position(ann={"familiars": ["bat"], "inventory": ["I44"]}, familiar_stack=["snake"])
    state = act(state, {"type": "take_familiar", "witch": "Ann"})
    assert state.pending == ("snake", "Ann")
    assert refused(state, {"type": "snake", "witch": "Ann", "ingredient": "gold"}) == [("snake", "Ann", "gold")]
    state = act(state, {"type": "snake", "witch": "Ann", "ingredient": "bat_wing"})
    assert state.inventory["Ann"] == () and "I44" in state.assigned["W01"]  # the bat wing stands in for any


def test_malformed_actions_name_the_key() -> None:
    for raw, key in (({"type": "buy", "witch": "Ann", "cards": [9]}, "cards.0"),
                     ({"type": "buy", "witch": "Ann", "cards": [0], "colour": 1}, "colour"),
                     ({"type": "familiar_action", "witch": "Ann", "familiar": "dragon"}, "familiar"),
                     ({"type": "buy", "witch": "Ann", "cards": [0, 1, 2, 3, 4]}, "cards")):
        with pytest.raises(MalformedAction, match=key):
            RULES.parse_action(raw)


def test_a_witch_may_choose_the_spell_an_ingredient_goes_on() -> None:
    state = position(on_market=[0, 0, 0, 0, 1, 0, 0, 0, 0])
    assert act(state, buy("Ann", [4])).assigned["W01"] == ("J1",)  # the companion's choice: closest to cast
    chosen = act(state, buy("Ann", [4], assign={"4": "W02"}))
    assert chosen.assigned == {"W02": ("J1",), "W01": (), "W09": (), "W10": ()}
    assert refused(state, buy("Ann", [3, 4, 5], [0, 8], assign={"5": "W02"})) == [("assign", "Ann", "W02")]
    assert refused(state, buy("Ann", [4], assign={"6": "W02"})) == [("assign", "Ann", "6")]


def test_the_familiar_just_taken_is_kept_and_one_already_in_front_is_discarded() -> None:
    # "If you take a third familiar, you must discard one of the familiars you already have in front of you."
    state = position(ann={"familiars": ["owl", "bat"]}, familiar_stack=["goat", "cat"])
    state = act(state, {"type": "take_familiar", "witch": "Ann"})
    assert RULES.legal_actions(state)["familiars"] == ["owl", "bat"]
    assert refused(state, {"type": "discard", "witch": "Ann", "familiar": "goat"}) == [("familiars", "Ann", "goat")]
    problem = RULES.check(state, {"type": "discard", "witch": "Ann", "familiar": "goat"})[0]
    assert "one of the familiars you already have in front of you" in problem.message
    state = act(state, {"type": "discard", "witch": "Ann", "familiar": "bat"})
    assert state.familiars["Ann"] == ("owl", "goat") and state.familiar_discard[-1] == "bat"

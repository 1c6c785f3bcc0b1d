"""Via Magica's rules one by one: the bag and the Catcher, the deal, crystals, openings and their
effects, rewards, the end, and refusals that name the player, the target and the rule."""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from companion.engine.game import Game, rng_for
from companion.errors import MalformedAction
from companion.games.via_magica.state import State
from tests import game_helpers
from tests.game_helpers import Found
from companion.games.via_magica.steps import AwaitDeal, AwaitDraw, AwaitKeep, ChooseEffect, ClaimReward, SelectPortal
from via_magica_helpers import RULES, act, position, start


def crystal(player: str, portal: str, space: int, **more: Any) -> dict[str, Any]:
    return {"type": "crystal", "player": player, "to": {"portal": portal, "space": space}, **more}


def refused(state: State, action: dict[str, Any]) -> Found:
    return game_helpers.refused(RULES, state, action)


# -- the bag and the Catcher -------------------------------------------------------------------

def test_the_bag_holds_the_23_animus_of_the_rulebook() -> None:
    state = start(["Tom", "Paola"], deal="random")
    assert Counter(state.bag) == {"Air": 6, "Water": 5, "Earth": 4, "Life": 3, "Fire": 2, "Shadow": 1, "Wildcard": 2}


def test_a_wildcard_returns_every_token_to_the_bag_and_passes_it_left() -> None:
    state = position({"Tom": {"stockpile": 7, "area": {"P34a": []}}, "Paola": {"stockpile": 7, "area": {"P36a": []}},
                      "Lera": {"stockpile": 7, "area": {"P37a": []}}}, catcher="Paola")
    state = act(state, {"type": "draw", "animus": "Air"}, {"type": "draw", "animus": "Fire"})
    assert state.catcher_name == "Paola" and state.out == ("Air", "Fire") and len(state.bag) == 21
    state = act(state, {"type": "draw", "animus": "Wildcard"}, crystal("Tom", "P34a", 2))  # Earth, on a Wildcard
    assert state.catcher_name == "Paola"  # the Catcher of this turn decides a tie
    state = act(state, {"type": "draw", "animus": "Water"})
    assert state.catcher_name == "Lera" and state.out == ("Water",) and len(state.bag) == 22


def test_the_companion_bag_draws_only_what_is_in_it_and_fairly() -> None:
    state = start(["Tom", "Paola"], deal="random")
    for turn in range(60):  # tokens drawn stay out until a Wildcard sends them back
        state = RULES.apply(state, {"type": "draw"}, rng_for(3, turn))
        assert Counter(state.out) + Counter(state.bag) == RULES_BAG
        assert state.token in state.out or (state.token == "Wildcard" and state.out[-1] == "Wildcard")
    # The first draw of 2,300 games: each Animus about as often as its share of the 23 tokens.
    firsts = Counter(RULES.apply(start(["Tom", "Paola"], deal="random"), {"type": "draw"}, rng_for(seed, 1)).token
                     for seed in range(2300))
    for kind, n in RULES_BAG.items():
        expected = 2300 * n / 23
        assert abs(firsts[kind] - expected) < 4 * (expected * (1 - n / 23)) ** 0.5, (kind, firsts)


RULES_BAG = Counter({"Air": 6, "Water": 5, "Earth": 4, "Life": 3, "Fire": 2, "Shadow": 1, "Wildcard": 2})


def test_a_draw_of_a_token_not_in_the_bag_is_refused() -> None:
    state = position({"Tom": {"stockpile": 7}, "Paola": {"stockpile": 7}}, catcher="Tom", out=["Shadow"])
    assert refused(state, {"type": "draw", "animus": "Shadow"}) == [("bag", "Tom", "Shadow")]
    companion = position({"Tom": {"stockpile": 7}, "Paola": {"stockpile": 7}}, draws="companion")
    assert refused(companion, {"type": "draw", "animus": "Air"}) == [("companion-bag", "Tom", "Air")]


# -- the deal ------------------------------------------------------------------------------------

def test_each_player_keeps_three_of_six_and_only_one_copy_of_a_portal() -> None:
    state = start(["Tom", "Paola"])
    assert state.pending == AwaitKeep(("Tom", "Paola")) and all(len(h) == 6 for h in state.hands.values())
    hand = state.hands["Tom"]
    kept = list({p[:3]: p for p in reversed(hand)}.values())[:3]
    state = act(state, {"type": "keep", "player": "Tom", "portals": kept})
    assert state.areas["Tom"] == tuple(kept) and state.pending == AwaitKeep(("Paola",))
    assert set(hand) - set(kept) <= set(state.discard)
    twin = {"type": "keep", "player": "Paola", "portals": [state.hands["Paola"][0], "P01a", "P01b"]}
    problems = refused(state, twin)
    assert ("two-copies", "Paola", None) in problems and ("keep", "Paola", "P01a") in problems


def test_a_player_dealt_both_copies_may_swap_one_with_the_central_row() -> None:
    state = start(["Tom", "Paola"])
    state = state.copy()
    state.hands["Tom"] = ("P01a", "P01b", "P02a", "P03a", "P04a", "P05a")
    state.deck = tuple(p for p in state.deck if p not in state.hands["Tom"])
    take = state.row[0]
    after = act(state, {"type": "keep", "player": "Tom", "portals": ["P01a", take, "P02a"],
                        "swap": {"give": "P01b", "take": take}})
    assert "P01b" in after.row and after.areas["Tom"] == ("P01a", take, "P02a")
    bad = {"type": "keep", "player": "Tom", "portals": ["P01a", "P02a", "P03a"], "swap": {"give": "P02a", "take": take}}
    assert refused(state, bad) == [("two-copies", "Tom", "P02a"), ("keep", "Tom", "P02a")]


# -- crystals ----------------------------------------------------------------------------------

def test_one_crystal_per_token_and_every_problem_at_once() -> None:
    # P36a: Water Water Fire; P34a: Air Water Earth
    state = position({"Tom": {"stockpile": 4, "area": {"P36a": [0, 1], "P34a": [0]}}, "Paola": {"stockpile": 7}})
    state = act(state, {"type": "draw", "animus": "Water"},
                crystal("Tom", "P34a", 1, moved_from={"portal": "P36a", "space": 0}))
    assert state.crystals == {"P36a": {1}, "P34a": {0, 1}} and state.stockpiles["Tom"] == 4
    assert refused(state, crystal("Tom", "P36a", 0)) == [("one-crystal", "Tom", "P36a.0")]
    state = act(state, {"type": "draw", "animus": "Fire"})
    wrong = crystal("Tom", "P34a", 2, moved_from={"portal": "P36a", "space": 0})
    assert refused(state, wrong) == [("animus", "Tom", "P34a.2"), ("move", "Tom", "P36a.0")]
    assert refused(state, crystal("Rosa", "P34a", 0)) == [("player", "Rosa", None)]
    assert refused(state, crystal("Tom", "P99a", 0)) == [("crystallize", "Tom", "P99a.0")]


def test_an_empty_stockpile_means_moving_a_crystal() -> None:
    state = position({"Tom": {"stockpile": 0, "area": {"P32a": [0, 1, 2, 3], "P34a": [0, 1], "P36a": [0]}},
                      "Paola": {"stockpile": 7}})
    state = act(state, {"type": "draw", "animus": "Fire"})
    assert refused(state, crystal("Tom", "P36a", 2)) == [("stockpile", "Tom", "P36a.2")]
    state = act(state, crystal("Tom", "P36a", 2, moved_from={"portal": "P32a", "space": 0}))
    assert state.crystals["P36a"] == {0, 2} and state.stockpiles["Tom"] == 0


# -- openings, effects, rewards -------------------------------------------------------------------

def opened(state: State, player: str, portal: str, animus: str) -> State:
    """Draw ``animus``, fill ``portal``'s missing space and call INCANTATUM!"""
    from companion.games.via_magica.portals import load
    space = next(i for i, a in enumerate(load().portals[portal].spaces) if a == animus and i not in state.crystals[portal])
    return act(state, {"type": "draw", "animus": animus}, crystal(player, portal, space),
               {"type": "incantatum", "first": player})


def test_an_opening_returns_the_crystals_takes_a_new_portal_and_refills_the_row() -> None:
    state = position({"Tom": {"stockpile": 5, "area": {"P36a": [0, 1]}}, "Paola": {"stockpile": 7}})
    state = opened(state, "Tom", "P36a", "Fire")
    assert state.stockpiles["Tom"] == 7 and state.achieved["Tom"] == ("P36a",)
    assert state.pending == SelectPortal("Tom", 1)
    deck_top = state.deck[0]
    assert refused(state, {"type": "portal", "player": "Paola", "take": "P20a"}) == [("turn", "Paola", None)]
    state = act(state, {"type": "portal", "player": "Tom", "take": "P21a"})
    assert state.areas["Tom"] == ("P21a",) and state.row[-1] == deck_top and len(state.row) == 5
    assert state.pending == AwaitDraw()


def test_the_two_copies_rule_refuses_a_second_copy_from_the_row() -> None:
    state = position({"Tom": {"stockpile": 5, "area": {"P36a": [0, 1], "P34a": []}}, "Paola": {"stockpile": 7}},
                     row=["P34b", "P21a", "P22a", "P23a", "P24a"])
    state = opened(state, "Tom", "P36a", "Fire")
    assert refused(state, {"type": "portal", "player": "Tom", "take": "P34b"}) == [("select", "Tom", "P34b")]
    assert RULES.legal_actions(state)["selectable"] == ["P21a", "P22a", "P23a", "P24a"]


def test_a_number_reward_is_claimed_only_at_the_exact_moment() -> None:
    state = position({"Tom": {"stockpile": 3, "achieved": ["P37a"], "area": {"P36a": [0, 1], "P34a": [0, 1]}},
                      "Paola": {"stockpile": 7}})
    state = opened(state, "Tom", "P36a", "Fire")
    state = act(state, {"type": "portal", "player": "Tom", "take": "P21a"})
    legal = RULES.legal_actions(state)
    assert {k: v for k, v in legal.items() if k != "late"} == {"kind": "reward", "player": "Tom", "reward": "two_portals",
                                                               "points": 2, "portals_open": 2}
    assert legal["late"]["waiting"] == ["Paola"]  # Paola may still place for this Fire
    state = act(state, {"type": "reward", "player": "Tom", "claim": False})
    state = opened(state, "Tom", "P34a", "Earth")
    state = act(state, {"type": "portal", "player": "Tom", "take": "P22a"})
    assert isinstance(state.pending, ClaimReward) and RULES.legal_actions(state)["reward"] == "three_portals"
    state = act(state, {"type": "reward", "player": "Tom", "claim": True})
    assert state.rewards == {"three_purple": "Tom", "three_portals": "Tom"}  # three purple portals, too
    assert RULES.score(state)["Tom"] == 5 + 4 + 9 + 8 + 7


def test_three_portals_of_a_colour_and_one_of_each_are_awarded_automatically() -> None:
    state = position({"Tom": {"stockpile": 5, "achieved": ["P37a", "P38a"], "area": {"P36a": [0, 1]},
                              "rewards": ["two_portals"]}, "Paola": {"stockpile": 7}})
    state = opened(state, "Tom", "P36a", "Fire")
    state = act(state, {"type": "portal", "player": "Tom", "take": "P21a"})
    assert state.rewards == {"two_portals": "Tom", "three_purple": "Tom"} and state.pending == AwaitDraw()


def test_a_yellow_effect_places_crystals_and_opens_what_it_fills_first() -> None:
    # P12 (place 3 anywhere) opens; its crystals fill P36a (Water Water Fire) which opens before P12 is done.
    state = position({"Tom": {"stockpile": 4, "area": {"P12a": [0, 1], "P36a": [0]}}, "Paola": {"stockpile": 7}})
    state = opened(state, "Tom", "P12a", "Life")
    assert state.pending == ChooseEffect("Tom", "P12a")
    too_many = {"type": "effect", "player": "Tom", "spaces": [{"portal": "P36a", "space": i} for i in range(3)]}
    assert ("effect", "Tom", "P36a.0") in refused(state, too_many)
    state = act(state, {"type": "effect", "player": "Tom", "spaces": [{"portal": "P36a", "space": 1},
                                                                     {"portal": "P36a", "space": 2}]})
    assert state.pending == SelectPortal("Tom", 1) and state.opening["Tom"] == ("P12a",)
    assert state.achieved["Tom"] == ("P36a",)
    state = act(state, {"type": "portal", "player": "Tom", "take": "P21a"})
    state = act(state, {"type": "reward", "player": "Tom", "claim": False}) if isinstance(state.pending, ClaimReward) else state
    state = act(state, {"type": "portal", "player": "Tom", "take": "P22a"})
    assert state.achieved["Tom"] == ("P36a", "P12a") and state.stockpiles["Tom"] == 7


def test_open_another_rearrange_two_portals_and_stockpile_effects() -> None:
    state = position({"Tom": {"stockpile": 4, "area": {"P17a": [0, 1, 2], "P34a": []}}, "Paola": {"stockpile": 7}})
    state = opened(state, "Tom", "P17a", "Fire")
    assert refused(state, {"type": "effect", "player": "Tom", "open": "P99a"}) == [("effect", "Tom", "P99a")]
    state = act(state, {"type": "effect", "player": "Tom", "open": "P34a"})
    assert state.achieved["Tom"] == ("P34a",) and state.pending == SelectPortal("Tom", 1)
    two = position({"Tom": {"stockpile": 3, "area": {"P15a": [0, 1, 3], "P34a": [0]}}, "Paola": {"stockpile": 7}})
    two = opened(two, "Tom", "P15a", "Water")
    two = act(two, {"type": "portal", "player": "Tom", "take": "P21a"}, {"type": "portal", "player": "Tom", "take": "P22a"})
    assert two.areas["Tom"] == ("P34a", "P21a", "P22a")
    rearrange = position({"Tom": {"stockpile": 3, "area": {"P13a": [0], "P34a": [0], "P36a": [0, 1]}},
                          "Paola": {"stockpile": 7}})
    rearrange = opened(rearrange, "Tom", "P13a", "Earth")
    assert ("effect", "Tom", "P13a") in refused(rearrange, {"type": "effect", "player": "Tom", "layout": {"P34a": [0]}})
    rearrange = act(rearrange, {"type": "effect", "player": "Tom", "layout": {"P34a": [0, 1, 2]}})
    assert rearrange.achieved["Tom"] == ("P34a",) and rearrange.opening["Tom"] == ("P13a",)
    assert rearrange.crystals == {"P36a": frozenset()} and rearrange.stockpiles["Tom"] == 7
    stock = position({"Tom": {"stockpile": 6, "area": {"P06a": [0]}}, "Paola": {"stockpile": 7}})
    stock = opened(stock, "Tom", "P06a", "Life")
    assert stock.stockpiles["Tom"] == 9 and stock.gained["Tom"] == 2


# -- the end ---------------------------------------------------------------------------------------

def test_the_game_ends_when_a_player_has_seven_portals_at_the_end_of_the_turn() -> None:
    six = ["P06b", "P11b", "P13b", "P34b", "P36b", "P37b"]
    state = position({"Tom": {"stockpile": 5, "achieved": six, "area": {"P40b": [0, 1, 2, 3]},
                              "rewards": ["three_yellow", "three_purple"]},
                      "Paola": {"stockpile": 5, "area": {"P38a": [0, 1]}}})
    state = act(state, {"type": "draw", "animus": "Fire"}, crystal("Tom", "P40b", 4), {"type": "incantatum", "first": "Tom"},
                {"type": "portal", "player": "Tom", "take": "P21a"})
    assert state.phase == "over" and RULES.random_action(state, rng_for(1, 1)) is None
    assert refused(state, {"type": "draw", "animus": "Air"}) == [("pending", "Tom", "draw")]


def test_a_tie_goes_to_the_player_with_the_most_portals() -> None:
    state = position({"Tom": {"stockpile": 7, "achieved": ["P34a"]}, "Paola": {"stockpile": 7, "achieved": ["P11a", "P13a", "P12a"]}})
    assert RULES.score(state) == {"Tom": 7, "Paola": 7} and RULES.ranking(state) == ["Paola", "Tom"]


# -- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, key", [
    ({"type": "crystal", "player": "Tom", "to": {"portal": "P01a", "space": 0}, "colour": "red"}, "colour"),
    ({"type": "crystal", "player": "Tom", "to": {"portal": "P01a", "space": 9}}, "to.space"),
    ({"type": "crystal", "player": "Tom", "to": {"portal": "P01a", "space": "0"}}, "to.space"),
    ({"type": "incantatum", "first": "Tom", "tie": ["x"] * 7}, "tie"),
    ({"type": "keep", "player": "T" * 41, "portals": []}, "player"),
    ({"type": "summon"}, "summon"),
])
def test_malformed_actions_name_the_key(raw: dict[str, Any], key: str) -> None:
    with pytest.raises(MalformedAction, match=key):
        RULES.parse_action(raw)


def test_the_engine_refuses_a_bad_crystal_and_logs_nothing() -> None:
    game = Game.start(RULES, ["Tom", "Paola"], {"deal": "random", "draws": "table"}, seed=4)
    game.propose({"type": "draw", "animus": "Shadow"})
    version = game.version
    with pytest.raises(Exception) as refused_:
        game.propose({"type": "crystal", "player": "Tom", "to": {"portal": "P99z", "space": 0}})
    assert "Tom" in str(refused_.value) and "P99z" in str(refused_.value) and "crystallize" in str(refused_.value)
    assert game.version == version


def test_a_chain_of_openings_runs_inner_portals_first_and_opens_each_portal_once() -> None:
    # P11a (place 2 anywhere) fills P17a and P36a; P17a (open another) then opens P36a, already queued.
    state = position({"Tom": {"stockpile": 1, "area": {"P11a": [0], "P17a": [0, 1, 2], "P36a": [0, 1]}},
                      "Paola": {"stockpile": 7}})
    state = opened(state, "Tom", "P11a", "Water")
    state = act(state, {"type": "effect", "player": "Tom", "spaces": [{"portal": "P17a", "space": 3},
                                                                     {"portal": "P36a", "space": 2}]})
    assert state.pending == ChooseEffect("Tom", "P17a")
    state = act(state, {"type": "effect", "player": "Tom", "open": "P36a"},
                {"type": "portal", "player": "Tom", "take": "P20a"},
                {"type": "portal", "player": "Tom", "take": "P21a"},
                {"type": "reward", "player": "Tom", "claim": False},
                {"type": "portal", "player": "Tom", "take": "P22a"},
                {"type": "reward", "player": "Tom", "claim": True})
    assert state.achieved["Tom"] == ("P36a", "P17a", "P11a") and state.rewards == {"three_portals": "Tom"}
    assert state.areas["Tom"] == ("P20a", "P21a", "P22a") and state.pending == AwaitDraw()


# -- the table's own portal cards ------------------------------------------------------------------

def test_with_the_tables_cards_the_deal_and_each_card_turned_up_are_entered() -> None:
    state = start(["Tom", "Paola"], portals="table", draws="table")
    assert state.pending == AwaitDeal() and len(state.deck) == 80
    bad = {"type": "dealt", "row": ["P20", "P20", "P20", "P21"],
           "kept": {"Tom": ["P36", "P36", "P37"], "Rosa": ["P99", "P01", "P02"]}}
    found = refused(state, bad)
    assert ("dealt", None, "kept") in found and ("dealt", None, "row") in found
    assert ("two-copies", "Tom", "kept") in found and ("dealt", None, "P99") in found
    assert ("conservation", None, "P20") in found
    state = act(state, {"type": "dealt", "row": ["P20", "P20", "P21", "P22", "P23"],
                        "kept": {"Tom": ["P36", "P34", "P37"], "Paola": ["P36", "P38", "P40"]}})
    assert state.row == ("P20a", "P20b", "P21a", "P22a", "P23a") and state.areas["Paola"][0] == "P36b"
    state = act(state, {"type": "draw", "animus": "Water"}, crystal("Tom", "P36a", 0),
                {"type": "draw", "animus": "Water"}, crystal("Tom", "P36a", 1),
                {"type": "draw", "animus": "Fire"}, crystal("Tom", "P36a", 2), {"type": "incantatum", "first": "Tom"})
    assert refused(state, {"type": "portal", "player": "Tom", "take": "P21a", "revealed": "P20"}) == \
        [("revealed", "Tom", "P20")]  # both copies are in the row already
    state = act(state, {"type": "portal", "player": "Tom", "take": "P21a", "revealed": "P05"})
    assert state.row[-1] == "P05a" and "P05a" not in state.deck


def test_after_a_wildcard_the_new_catcher_draws_from_the_refilled_bag() -> None:
    # "After drawing a Wildcard from the bag, the Catcher replaces all the tokens in the bag, shakes it and
    # passes it to the player on their left, who becomes the new Catcher."
    state = position({"Tom": {"stockpile": 7, "area": {"P34a": []}}, "Paola": {"stockpile": 7, "area": {"P36a": []}},
                      "Lera": {"stockpile": 7, "area": {"P37a": []}}}, catcher="Paola")
    state = act(state, {"type": "draw", "animus": "Shadow"}, {"type": "draw", "animus": "Wildcard"})
    assert "Shadow" not in state.bag  # the only Shadow is out, in front of Paola
    wildcard = state
    state = act(state, {"type": "draw", "animus": "Shadow"})  # back in the bag: Lera may draw it
    assert state.catcher_name == "Lera" and state.token == "Shadow" and state.out == ("Shadow",)
    assert refused(state, {"type": "draw", "animus": "Shadow"}) == [("bag", "Lera", "Shadow")]
    assert RULES.legal_actions(wildcard)["bag_passed"] == {"catcher": "Lera", "draws": "table", "bag": [
        "Air", "Water", "Earth", "Life", "Fire", "Shadow", "Wildcard"]}

"""The satchel's cells, the full-satchel choice, catching monsters and brewing potions."""
from __future__ import annotations

from companion.games.incantibus.state import State
from companion.games.incantibus.steps import AwaitCast, AwaitSatchel
from incantibus_helpers import RULES, act, cast, give, kinds_of, moat_kinds, table

ROOF = ["goblin", "werewolf", "mistletoe", "mushroom", "trap", "wand_net", "crystal_ball"]
TWO = {"Lera": 4, "Rosa": 1}


def test_a_monster_is_caught_with_its_weapon_which_stays_in_the_satchel() -> None:
    state = act(give(table(TWO, ROOF), "Lera", "wand_net"), cast(Lera="r0", Rosa=None))
    assert kinds_of(state, "Lera") == ["goblin", "wand_net"]
    assert state.notes[0]["event"] == "caught" and state.notes[0]["by"] == "wand_net"


def test_without_its_weapon_a_monster_escapes_to_the_moat() -> None:
    state = act(give(table(TWO, ROOF), "Lera", "trap"), cast(Lera="r0", Rosa=None))
    assert kinds_of(state, "Lera") == ["trap"] and moat_kinds(state) == ["goblin"]
    assert "wand net" in state.notes[0]["why"]


def test_ultimus_catches_any_monster_and_is_then_used_up() -> None:
    state = act(give(table(TWO, ROOF), "Lera", "ultimus"), cast(Lera="r1", Rosa=None))
    assert kinds_of(state, "Lera") == ["werewolf"] and moat_kinds(state) == ["ultimus"]


def test_ultimus_is_kept_when_the_matching_weapon_is_there() -> None:
    state = act(give(table(TWO, ROOF), "Lera", "ultimus", "trap"), cast(Lera="r1", Rosa=None))
    assert kinds_of(state, "Lera") == ["trap", "ultimus", "werewolf"] and moat_kinds(state) == []


def test_the_philosophers_stone_replaces_a_missing_ingredient_and_goes_to_the_moat() -> None:
    state = give(table(TWO, ROOF), "Lera", "mistletoe", "philosophers_stone")
    assert "p0" in RULES.legal_actions(state)["targets"]["Lera"]
    state = act(state, cast(Lera="p0", Rosa=None))
    assert kinds_of(state, "Lera") == ["green_1"] and sorted(moat_kinds(state)) == ["mistletoe", "philosophers_stone"]


def test_the_stone_is_kept_when_the_real_ingredients_are_there() -> None:
    state = act(give(table(TWO, ROOF), "Lera", "mistletoe", "mushroom", "philosophers_stone"), cast(Lera="p0", Rosa=None))
    assert kinds_of(state, "Lera") == ["green_1", "philosophers_stone"]


def full_of_monsters() -> State:
    """Lera's three monster cells and her purse are full; she points at a goblin with her wand net."""
    state = give(table(TWO, ROOF), "Lera", "wand_net", "ghost", "ghost", "vampire", "vampire")
    return act(state, cast(Lera="r0", Rosa=None))


def test_a_token_that_does_not_fit_asks_its_owner_and_waits() -> None:
    state = full_of_monsters()
    assert isinstance(state.pending, AwaitSatchel) and state.pending.player == "Lera"
    legal = RULES.legal_actions(state)
    assert legal["kind"] == "satchel" and legal["token_kind"] == "goblin"
    discards = sorted(state.kinds[o["discard"]] or "?" for o in legal["options"][1:])
    assert legal["options"][0] == "discard_new" and discards == ["ghost", "ghost", "vampire", "vampire"]
    assert RULES.public_view(state)["pending"] == {"kind": "satchel", "player": "Lera", "token": state.held[0]}


def test_discarding_the_new_token_sends_it_to_the_moat() -> None:
    state = act(full_of_monsters(), {"type": "satchel", "player": "Lera", "choice": "discard_new"})
    assert moat_kinds(state) == ["goblin"] and state.held == () and state.pending == AwaitCast()


def test_discarding_a_satchel_token_makes_room_for_the_new_one() -> None:
    state = full_of_monsters()
    ghost = next(t for t in state.satchels["Lera"] if state.kinds[t] == "ghost")
    state = act(state, {"type": "satchel", "player": "Lera", "choice": {"discard": ghost}})
    assert kinds_of(state, "Lera").count("goblin") == 1 and moat_kinds(state) == ["ghost"]


def test_discarding_a_token_that_frees_no_room_is_refused() -> None:
    state = full_of_monsters()
    net = next(t for t in state.satchels["Lera"] if state.kinds[t] == "wand_net")
    problems = RULES.check(state, {"type": "satchel", "player": "Lera", "choice": {"discard": net}})
    assert [(p.rule, p.player, p.target) for p in problems] == [("satchel-full", "Lera", net)]
    assert "goblin" in problems[0].message


def test_tokens_spill_into_the_purse_and_spells_stack() -> None:
    state = give(table(TWO, ROOF), "Lera", "gold_1", "gold_2", "gold_3", "spell", "spell", "spell")
    satchel = next(p for p in RULES.public_view(state)["players"] if p["name"] == "Lera")["satchel"]
    assert [t["kind"] for t in satchel["gold"]] == ["gold_1", "gold_2"]
    assert [t["kind"] for t in satchel["purse"]] == ["gold_3"] and len(satchel["spell"]) == 3


def test_a_player_may_choose_what_to_pay_with() -> None:
    state = give(table(TWO, ROOF), "Lera", "mistletoe", "mushroom", "philosophers_stone")
    stone, mushroom = (next(t for t in state.satchels["Lera"] if state.kinds[t] == k)
                       for k in ("philosophers_stone", "mushroom"))
    state = act(state, {**cast(Lera="p0", Rosa=None), "pay": {"Lera": [stone, mushroom]}})
    assert kinds_of(state, "Lera") == ["green_1", "mistletoe"]
    assert sorted(moat_kinds(state)) == ["mushroom", "philosophers_stone"]


def test_a_chosen_payment_that_does_not_fit_the_recipe_is_refused() -> None:
    state = give(table(TWO, ROOF), "Lera", "mistletoe", "mushroom", "pumpkin")
    mistletoe, pumpkin = (next(t for t in state.satchels["Lera"] if state.kinds[t] == k) for k in ("mistletoe", "pumpkin"))
    for pay, target in (([mistletoe, pumpkin], "p0"), ([mistletoe], "r2"), (["J999"], "p0")):
        problems = RULES.check(state, {**cast(Lera=target, Rosa=None), "pay": {"Lera": pay}})
        assert [(p.rule, p.player) for p in problems] == [("pay", "Lera")], pay

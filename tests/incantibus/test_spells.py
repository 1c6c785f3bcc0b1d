"""Spell tokens and the eight spell cards, chains included, and spells that cannot work."""
from __future__ import annotations

from typing import Any

from companion.games.incantibus.state import State
from companion.games.incantibus.steps import AwaitCast, AwaitReveal, AwaitSpell
from incantibus_helpers import RULES, act, cast, give, kinds_of, moat_kinds, table

ROOF = ["spell", "spell", "mistletoe", "goblin", "trap", "wand_net", "crystal_ball"]
TWO = {"Lera": 4, "Rosa": 1}


def spell(player: str, card: str, **choice: Any) -> dict[str, Any]:
    return {"type": "spell", "player": player, "card": card, **({"choice": choice} if choice else {})}


def card(slot: str, name: str) -> dict[str, Any]:
    """The table turns a new spell card over and enters it."""
    return {"type": "reveal", "kinds": {slot: name}}


def after_spell_token(cards: tuple[str, ...], state: State | None = None) -> State:
    state = state or table(TWO, ROOF, cards=cards)
    return act(state, cast(Lera="r0", Rosa="r2"))


def test_spells_are_cast_after_every_token_is_taken_strongest_wand_first() -> None:
    state = act(table({"Lera": 1, "Rosa": 4}, ROOF, cards=("FORTUNA", "LOCUS", "PHILOSOPHIA")),
                cast(Lera="r0", Rosa="r1"))
    assert state.pending == AwaitSpell("Rosa")
    assert kinds_of(state, "Lera") == ["spell"] and kinds_of(state, "Rosa") == ["spell"]
    state = act(state, spell("Rosa", "FORTUNA"), {"type": "reveal", "kinds": {"c0": "RETIRO"}})
    assert state.pending == AwaitSpell("Lera") and state.cards == ("RETIRO", "LOCUS", "PHILOSOPHIA")
    state = act(state, spell("Lera", "LOCUS"))
    assert kinds_of(state, "Rosa") == ["gold_coins_3", "spell"] and kinds_of(state, "Lera") == ["satchel", "spell"]
    assert state.cards_used == ("FORTUNA", "LOCUS") and RULES.score(state) == {"Lera": 1, "Rosa": 4}


def test_the_legal_spell_prompt_lists_cards_with_their_choices_and_why_one_cannot_work() -> None:
    state = after_spell_token(("RETIRO", "IMPERIUM", "ALKIMIA"))
    legal = RULES.legal_actions(state)
    assert legal["kind"] == "spell" and legal["player"] == "Lera"
    cards = {c["card"]: c for c in legal["cards"]}
    assert cards["RETIRO"]["works"] is False and cards["RETIRO"]["why"] == "the moat is empty"
    assert [c["token"] for c in cards["IMPERIUM"]["choices"]] == ["r1", "r3", "r4", "r5", "r6"]
    assert cards["ALKIMIA"]["choices"] == [{"from": "Rosa", "token": state.satchels["Rosa"][0]}]


def test_a_spell_that_cannot_work_is_used_up_and_says_why() -> None:
    state = act(after_spell_token(("RETIRO", "IMPERIUM", "ALKIMIA")), spell("Lera", "RETIRO"))
    failed = next(n for n in state.notes if n["event"] == "spell_failed")
    assert failed["why"] == "the moat is empty" and "RETIRO" in state.cards_used


def test_alkimia_steals_an_ingredient_weapon_or_gold() -> None:
    state = after_spell_token(("ALKIMIA", "LOCUS", "FORTUNA"))
    mistletoe = state.satchels["Rosa"][0]
    state = act(state, spell("Lera", "ALKIMIA", **{"from": "Rosa", "token": mistletoe}))
    assert kinds_of(state, "Lera") == ["mistletoe", "spell"] and kinds_of(state, "Rosa") == []


def test_alkimia_cannot_steal_a_monster() -> None:
    state = after_spell_token(("ALKIMIA", "LOCUS", "FORTUNA"), give(table(TWO, ROOF, cards=("ALKIMIA", "LOCUS", "FORTUNA")),
                                                                  "Rosa", "goblin"))
    goblin = next(t for t in state.satchels["Rosa"] if state.kinds[t] == "goblin")
    problems = RULES.check(state, spell("Lera", "ALKIMIA", **{"from": "Rosa", "token": goblin}))
    assert [(p.rule, p.player) for p in problems] == [("spell-alkimia", "Lera")]


def test_retiro_takes_a_monster_from_the_moat_even_without_its_weapon() -> None:
    state = act(table(TWO, ROOF, cards=("RETIRO", "LOCUS", "FORTUNA")), cast(Lera="r3", Rosa="r2"))
    assert moat_kinds(state) == ["goblin"]
    state = act(state, cast(Lera="r0", Rosa=None))
    state = act(state, spell("Lera", "RETIRO", token=state.moat[0]))
    assert kinds_of(state, "Lera") == ["goblin", "spell"] and state.moat == ()


def test_retiro_finding_a_spell_token_casts_one_more_spell() -> None:
    state = act(table(TWO, ROOF, cards=("RETIRO", "FORTUNA", "LOCUS")), cast(Lera="r0", Rosa=None))
    state = act(state, spell("Lera", "FORTUNA"), card("c1", "IMPERIUM"))
    spell_token = state.satchels["Lera"][0]
    state = state.copy()  # Lera discarded her spell token earlier: put it in the moat
    state.satchels["Lera"] = tuple(t for t in state.satchels["Lera"] if t != spell_token)
    state.moat = (spell_token,)
    state = act(state, cast(Lera="r1", Rosa=None), spell("Lera", "RETIRO", token=spell_token), card("c0", "LOCUS"))
    assert state.pending == AwaitSpell("Lera")  # the chain: one more spell
    assert kinds_of(state, "Lera").count("spell") == 2


def test_imperium_takes_a_visible_token_from_the_room() -> None:
    state = act(after_spell_token(("IMPERIUM", "LOCUS", "FORTUNA")), spell("Lera", "IMPERIUM", token="r4"))
    assert kinds_of(state, "Lera") == ["spell", "trap"] and state.slots[4] is None


def test_oculus_takes_a_secret_token_or_puts_back_a_monster_it_cannot_catch() -> None:
    state = act(table(TWO, ROOF, cards=("OCULUS", "LOCUS", "FORTUNA")), cast(Lera="r0", Rosa="r1"),
                spell("Lera", "LOCUS"), card("c1", "IMPERIUM"), spell("Rosa", "FORTUNA"), card("c2", "ALKIMIA"))
    state = act(state, cast(Lera="r2", Rosa="r3"), cast(Lera="r4", Rosa="r5"))
    state = act(state, {"type": "room_entered", "room": "bedroom", "visible": ["spell", "gold_1", "trap", "ghost"], "secret": 3},
                {"type": "reveal", "kinds": {"s1": "archmage"}})
    state = act(state, cast(Lera="r0", Rosa="r1"), spell("Lera", "OCULUS", token="r5"))
    assert state.pending == AwaitReveal(("r5",))
    state = act(state, {"type": "reveal", "token_id": "r5", "kind": "vampire"})
    assert state.slots[5] is not None and state.slots[5] in state.secret  # put back face down
    assert next(t for t in RULES.public_view(state)["room"]["tokens"] if t["id"] == "r5")["kind"] is None
    assert any(n["event"] == "looked" for n in state.notes)


def test_gifts_say_why_when_their_special_tokens_are_gone() -> None:
    state = table(TWO, ROOF, cards=("PHILOSOPHIA", "LOCUS", "FORTUNA"))
    state = give(state, "Rosa", "philosophers_stone")
    state = act(state, cast(Lera="r0", Rosa=None))
    cards = {c["card"]: c for c in RULES.legal_actions(state)["cards"]}
    assert cards["PHILOSOPHIA"]["works"] is False and "philosophers stone" in cards["PHILOSOPHIA"]["why"]
    assert cards["LOCUS"]["works"] is True


def test_locus_adds_a_purse_cell() -> None:
    state = give(table(TWO, ROOF, cards=("LOCUS", "FORTUNA", "RETIRO")), "Lera", "gold_1", "gold_2", "gold_3")
    state = act(state, cast(Lera="r0", Rosa=None), spell("Lera", "LOCUS"), card("c0", "IMPERIUM"))
    satchel = next(p for p in RULES.public_view(state)["players"] if p["name"] == "Lera")["satchel"]
    assert [t["kind"] for t in satchel["extra_purse"]] == ["satchel"]
    state = act(state, cast(Lera="r1", Rosa=None), spell("Lera", "FORTUNA"), card("c1", "RETIRO"))
    assert state.pending == AwaitCast() and kinds_of(state, "Lera").count("gold_coins_3") == 1  # fits in the new cell

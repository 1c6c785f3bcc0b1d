"""The final battle, magic books (expert), the end of the game and the ranking."""
from __future__ import annotations

from typing import Any

import pytest

from companion.games.incantibus.casting import targets_for
from companion.games.incantibus.state import State
from companion.games.incantibus.steps import AwaitWandDown
from incantibus_helpers import RULES, act, cast, give, kinds_of, moat_kinds, play, script, table


def dungeon(s4: str = "dark_knight") -> State:
    """Lera (wand 4) and Rosa (wand 1) reach the dungeon of the White Lady script; ``s4`` is the
    sorcerer turned face up on the way in; s5 is still face down."""
    lines = script("white_lady")[:-1]
    for line in lines:
        if line["type"] == "reveal" and "s4" in line["kinds"]:
            line["kinds"]["s4"] = s4
    state: State = play(lines).state
    return state


def sorcerer_at(view: dict[str, Any], slot: int) -> dict[str, Any]:
    found: dict[str, Any] = view["sorcerers"][slot]
    return found


def test_the_dungeon_shows_the_sorcerers_as_they_lie() -> None:
    view = RULES.public_view(dungeon())
    assert view["phase"] == "dungeon" and view["room"] == {"name": None, "tokens": []}
    assert [s["face_up"] for s in view["sorcerers"]] == [True] * 5 + [False]
    assert sorcerer_at(view, 5)["kind"] is None and sorcerer_at(view, 0)["kind"] == "white_lady"


def test_a_face_up_sorcerer_needs_its_weakness_to_be_pointed_at() -> None:
    problems = RULES.check(dungeon(), cast(Lera="s1", Rosa=None))
    assert [(p.rule, p.player, p.target) for p in problems] == [("sorcerer-weakness", "Lera", "s1")]
    assert "a red potion" in problems[0].message and "Baroness Fuchsia" in problems[0].message


def test_magister_ramus_is_defeated_only_with_a_wand_of_strength_1_or_2() -> None:
    state = dungeon("magister_ramus")
    problems = RULES.check(state, cast(Lera="s4", Rosa=None))
    assert [(p.rule, p.player, p.target) for p in problems] == [("ramus-wand", "Lera", "s4")]
    assert "holds wand 4" in problems[0].message
    state = act(state, cast(Lera=None, Rosa="s4"))
    assert "magister_ramus" in kinds_of(state, "Rosa") and state.sorcerers[4] is None


def test_the_dark_knight_takes_four_weapon_tokens() -> None:
    state = give(dungeon(), "Rosa", "crystal_ball", "flying_stake")
    assert "s4" in targets_for(state, "Rosa")  # Rosa's trap and wand net, plus these two
    state = act(state, cast(Lera=None, Rosa="s4"))
    assert sorted(moat_kinds(state)[-4:]) == ["crystal_ball", "flying_stake", "trap", "wand_net"]
    assert RULES.score(state)["Rosa"] == 13 + 10


def test_who_can_do_nothing_useful_puts_the_wand_down_and_the_game_ends() -> None:
    state = dungeon().copy()
    state.moat += state.satchels["Lera"] + state.satchels["Rosa"]  # both satchels emptied: nothing to pay with
    state.satchels = {"Lera": (), "Rosa": ()}
    state = act(give(state, "Rosa", "ghost"), cast(Lera="s5", Rosa="s0"), {"type": "reveal", "kinds": {"s5": "rima_wulf"}})
    assert moat_kinds(state)[-2:] == ["rima_wulf", "ghost"] and "white_lady" in kinds_of(state, "Rosa")
    stuck = ["Lera", "Rosa"]
    assert state.pending == AwaitWandDown(tuple(stuck)) and not any(targets_for(state, p) for p in stuck)
    assert RULES.legal_actions(state) == {"kind": "wand_down", "players": stuck}
    for player in stuck:
        state = act(state, {"type": "wand_down", "player": player})
    view = RULES.public_view(state)
    assert view["phase"] == "over" and RULES.is_over(state) and view["winner"] == RULES.ranking(state)[0]
    assert all(p["wand_down"] == (p["name"] in stuck) for p in view["players"])


def test_a_player_who_can_still_act_may_not_put_the_wand_down() -> None:
    problems = RULES.check(dungeon(), {"type": "wand_down", "player": "Lera"})
    assert [(p.rule, p.player) for p in problems] == [("wand-down", "Lera")]


def test_the_game_ends_when_no_sorcerer_is_left() -> None:
    state = dungeon()
    state = state.copy()
    state.sorcerers = (state.sorcerers[0],) + (None,) * 5  # the others were defeated or escaped
    state = act(give(state, "Rosa", "ghost"), cast(Lera=None, Rosa="s0"))
    assert state.phase == "over" and state.notes[-1]["why"] == "no sorcerers are left in the dungeon"


def test_a_tie_goes_to_the_stronger_wand() -> None:
    state = give(give(table({"Lera": 1, "Rosa": 4}, ["trap"] * 3 + ["pumpkin"] * 3 + ["mushroom"]), "Lera", "gold_3"),
                 "Rosa", "gold_1", "gold_2")
    assert RULES.score(state) == {"Lera": 3, "Rosa": 3} and RULES.ranking(state) == ["Rosa", "Lera"]


BOOKS = ("book_gold_2", "book_weapons_identical_2", "book_any_2")
ROOF = ["trap", "trap", "pumpkin", "mushroom", "wand_net", "mistletoe", "goblin"]


def expert() -> State:
    return table({"Lera": 4, "Rosa": 1}, ROOF, books=BOOKS)


def test_expert_mode_scores_the_wand_and_shows_the_books() -> None:
    state = expert()
    view = RULES.public_view(state)
    assert [b["kind"] for b in view["books"]] == list(BOOKS) and view["books"][0]["condition"] == {"coins": 2}
    assert RULES.score(state) == {"Lera": 4, "Rosa": 1}


def test_a_book_is_obtained_by_discarding_its_condition_to_the_moat() -> None:
    state = give(expert(), "Lera", "gold_3")
    assert "b0" in RULES.legal_actions(state)["targets"]["Lera"]
    state = act(state, cast(Lera="b0", Rosa="r0"))
    assert kinds_of(state, "Lera") == ["book_gold_2"] and moat_kinds(state) == ["gold_3"]
    satchel = next(p for p in RULES.public_view(state)["players"] if p["name"] == "Lera")["satchel"]
    assert [t["kind"] for t in satchel["book"]] == ["book_gold_2"] and RULES.score(state)["Lera"] == 4 + 4


@pytest.mark.parametrize("given, book, ok", [
    (("trap", "trap"), "b1", True), (("trap", "wand_net"), "b1", False),
    (("pumpkin", "mushroom"), "b2", True), (("pumpkin",), "b2", False), (("gold_1",), "b0", False),
    (("gold_1", "gold_1"), "b0", True)])
def test_book_conditions(given: tuple[str, ...], book: str, ok: bool) -> None:
    state = give(expert(), "Rosa", *given)
    problems = RULES.check(state, cast(Lera=None, Rosa=book))
    assert (problems == []) == ok
    if not ok:
        assert [(p.rule, p.player, p.target) for p in problems] == [("book-condition", "Rosa", book)]


def test_weapons_kept_for_last_one_of_each_kind() -> None:
    state = act(give(expert(), "Rosa", "crystal_ball", "crystal_ball", "crystal_ball", "wand_net"),
                cast(Lera=None, Rosa="b1"))
    assert kinds_of(state, "Rosa") == ["book_weapons_identical_2", "crystal_ball", "wand_net"]

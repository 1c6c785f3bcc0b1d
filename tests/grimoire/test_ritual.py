"""The ritual circle: the marker each monster phase, curses on 2-5, and what happens at ↺."""
from __future__ import annotations

from companion.games.grimoire.catalogue import load
from random import Random

from grimoire_helpers import BOOK, RULES, banish_all, end_turn, position, start

CAT = load()


def test_the_first_monster_phase_opens_page_one_with_the_first_rows_curses() -> None:
    game = start()
    state = game.state
    assert state.marker == 1 and state.page == 0 and state.round == 0
    pages_curses = sum(CAT.pages[BOOK[0]].curses.values())
    assert len(state.curses_out) == CAT.difficulty["normal"][0] + pages_curses
    view = game.view()
    assert view["monster"]["id"] == "a" and view["book"][1] == {"number": 2, "id": None, "status": "closed"}
    assert [n["event"] for n in view["notes"]][:3] == ["turn", "page", "curse"]


def test_the_marker_moves_one_field_a_turn_and_curses_on_its_field_strike_the_active_player() -> None:
    game = start()
    on_two = len(game.state.fields[2])
    assert on_two >= 1
    end_turn(game)  # Kirill's turn: the marker goes to field 2
    state = game.state
    assert state.marker == 2 and state.current.name == "Kirill"
    assert state.current.madness_hand == on_two  # one madness per curse lying there (gap value)
    assert state.player("Lera").madness_hand == 0


def test_curses_left_at_the_start_field_mean_damage_escape_and_the_curses_go_under_their_piles() -> None:
    game = start()
    left = game.state.curses_out
    for _ in range(5):  # fields 2, 3, 4, 5, then ↺
        end_turn(game)
    state = game.state
    assert state.escaped == ("a",) and state.banished == ()
    for curse in left:
        assert state.piles[CAT.pile_of(curse)][-1:] == (curse,) or curse in state.piles[CAT.pile_of(curse)][-3:]
    # Then at once: field 1, page 2 opens, the round marker moves on and lays that many 4-element curses.
    assert state.marker == 1 and state.page == 1 and state.round == 1
    laid = [n["curse"] for n in state.notes if n["event"] == "curse"]
    assert len(laid) == CAT.difficulty["normal"][1] + sum(CAT.pages["b"].curses.values())
    assert [CAT.pile_of(c) for c in laid[:2]] == ["vier", "vier"]
    damage = CAT.pages["a"].damage["madness"].n
    escaped_at = [n for n in state.notes if n["event"] == "madness" and "escapes" in n["why"]]
    assert {n["player"] for n in escaped_at} == {"Lera", "Kirill"} and all(n["n"] == damage for n in escaped_at)


def test_no_curse_left_at_the_start_field_banishes_the_monster_and_each_player_is_rewarded() -> None:
    game = start()
    banish_all(game)
    for _ in range(4):
        end_turn(game)
    state = game.state
    assert state.marker == 5
    madness_before = {p.name: p.madness_hand for p in state.players}
    banish_all(game)
    end_turn(game)
    state = game.state
    assert state.banished == ("a",)
    cured = {n["player"]: n["n"] for n in state.notes if n["event"] == "cured"}
    assert all(cured.get(p, 0) == min(1, m) for p, m in madness_before.items())
    assert game.view()["scores"] == {"Lera": 1, "Kirill": 1}


def test_banishing_the_last_monster_wins_though_others_escaped() -> None:
    state = position({"page": 6, "marker": 5, "fields": {"3": ["feuer-2"]}, "banished": ["b"]})
    assert state.escaped == ("a", "c", "d", "e")
    lera = {"player": "Lera"}
    for action in ({"type": "banish", **lera, "curse": "feuer-2", "reward": "luft"}, {"type": "end_turn", **lera}):
        assert RULES.check(state, action) == []
        state = RULES.apply(state, action, Random(0))
    assert state.outcome == "won" and state.banished == ("b", "last")
    assert RULES.legal_actions(state) == {"kind": "over", "outcome": "won", "why": None}
    assert RULES.places(state) == [["Lera", "Kirill"]]
    assert RULES.score(state) == {"Lera": 2, "Kirill": 2}


def test_the_book_shows_the_last_page_decided_once_the_game_is_over() -> None:
    # The last page's monster is banished (or escapes) like every other: the book says which, not "open".
    state = position({"page": 6, "marker": 5, "fields": {"3": ["feuer-2"]}, "banished": ["b"]})
    lera = {"player": "Lera"}
    for action in ({"type": "banish", **lera, "curse": "feuer-2", "reward": "luft"}, {"type": "end_turn", **lera}):
        state = RULES.apply(state, action, Random(0))
    book = RULES.public_view(state)["book"]
    assert [page["status"] for page in book] == ["escaped", "banished", "escaped", "escaped", "escaped", "banished"]
    escaped = start(["Lera"], difficulty="leicht")
    while escaped.state.outcome is None:
        end_turn(escaped)
    view = escaped.view()
    decided = {pid: "banished" for pid in view["banished"]} | {pid: "escaped" for pid in view["escaped"]}
    assert all(page["status"] == decided[page["id"]] for page in view["book"] if page["id"] in decided)
    assert "open" not in [page["status"] for page in view["book"]] or escaped.state.why != "the final monster was not banished"


def test_the_final_monster_escaping_loses() -> None:
    game = start(["Lera"], difficulty="leicht")
    while game.state.outcome is None:
        end_turn(game)
    assert game.state.outcome == "lost"
    assert game.state.why in ("the final monster was not banished", "Lera must take a madness card but the madness pile is empty") \
        or "fallen" in (game.state.why or "")
    assert RULES.places(game.state) == [[], ["Lera"]]

"""Spells, learning, buying, banishing, curing and madness; bad input names player, target and rule."""
from __future__ import annotations

from random import Random

import pytest

from companion.errors import IllegalAction, MalformedAction
from grimoire_helpers import RULES, end_turn, position, start


def propose(game: object, **action: object) -> None:
    game.propose(action)  # type: ignore[attr-defined]


def test_a_spell_is_exhausted_once_cast_and_refreshed_in_its_casters_next_concentration_phase() -> None:
    game = start()
    propose(game, type="cast", player="Lera", spell="feuer_basis", times=2)
    assert game.state.notes[-1]["paid"] == {"feuer": 2}
    with pytest.raises(IllegalAction) as refused:
        propose(game, type="cast", player="Lera", spell="feuer_basis")
    assert [(p.rule, p.player, p.target) for p in refused.value.problems] == [("cast-exhausted", "Lera", "feuer_basis")]
    end_turn(game)
    assert "feuer_basis" in game.state.player("Lera").exhausted  # still exhausted on Kirill's turn
    end_turn(game)
    assert game.state.player("Lera").exhausted == frozenset()


def test_learning_takes_the_face_up_library_spell_and_a_sixth_spell_drops_one() -> None:
    game = start()
    propose(game, type="learn", player="Lera", spell="luft_1")
    assert game.state.library["luft"][0] == "luft_2" and "luft_1" in game.state.player("Lera").spells
    propose(game, type="cast", player="Lera", spell="luft_1")  # castable at once
    with pytest.raises(IllegalAction) as refused:
        propose(game, type="learn", player="Lera", spell="luft_3")
    assert {p.rule for p in refused.value.problems} == {"learn-face-up", "learn-five"}
    propose(game, type="learn", player="Lera", spell="luft_2", drop="erde_basis")
    assert game.state.player("Lera").spells == ("feuer_basis", "wasser_basis", "luft_basis", "luft_1", "luft_2")


def test_banishing_a_curse_takes_it_off_the_circle_and_gives_a_two_element_card() -> None:
    game = start()
    curse = game.state.curses_out[0]
    before = game.state.supply["erde"][2]
    propose(game, type="banish", player="Lera", curse=curse, reward="erde", helpers=["Kirill"])
    assert curse not in game.state.curses_out and game.state.supply["erde"][2] == before - 1
    assert game.state.notes[-1]["helpers"] == ["Kirill"] and len(game.state.notes[-1]["elements"]) == 4


def test_buying_takes_a_card_from_its_pile_until_it_is_empty() -> None:
    game = start()
    for _ in range(game.state.supply["wasser"][3]):
        propose(game, type="buy", player="Lera", element="wasser", value=3)
    with pytest.raises(IllegalAction, match="buy-supply"):
        propose(game, type="buy", player="Lera", element="wasser", value=3)


def test_six_madness_cards_at_the_end_of_a_turn_put_a_player_out_and_their_turns_are_skipped() -> None:
    state = position({"page": 2, "marker": 2, "madness": {"Lera": {"hand": 6}}}, players=["Lera", "Kirill", "Katya"])
    state = RULES.apply(state, {"type": "end_turn", "player": "Lera"}, Random(0))
    assert state.player("Lera").out and state.current.name == "Kirill"
    state = RULES.apply(state, {"type": "end_turn", "player": "Kirill"}, Random(0))
    state = RULES.apply(state, {"type": "end_turn", "player": "Katya"}, Random(0))
    assert state.current.name == "Kirill"


def test_curing_puts_a_madness_card_back_on_the_pile_from_hand_or_any_support_zone() -> None:
    state = position({"page": 1, "madness": {"Lera": {"hand": 2}, "Kirill": {"support": 1}}})
    pile = state.madness_pile
    for action in ({"type": "cure", "player": "Lera"}, {"type": "cure", "player": "Lera", "owner": "Kirill", "zone": "support"}):
        state = RULES.apply(state, RULES.parse_action(action), Random(0))
    assert (state.player("Lera").madness_hand, state.player("Kirill").madness_support, state.madness_pile) == (1, 0, pile + 2)
    problems = RULES.check(state, {"type": "cure", "player": "Lera", "owner": "Kirill", "zone": "hand"})
    assert [(p.rule, p.player, p.target) for p in problems] == [("cure-owner", "Lera", "Kirill")]


def test_an_empty_madness_pile_loses_when_a_card_must_be_taken() -> None:
    state = position({"page": 2, "marker": 1, "fields": {"2": ["vier-1"]}, "madness": {"Lera": {"hand": 5}},
                      "madness_pile": 9})
    state = RULES.apply(state, {"type": "end_turn", "player": "Lera"}, Random(0))  # Kirill: field 2, one curse
    assert state.player("Kirill").madness_hand == 1 and state.madness_pile == 8
    state = position({"page": 2, "marker": 1, "fields": {"2": ["vier-1"]}, "madness": {"Lera": {"hand": 5, "support": 9}}})
    assert state.madness_pile == 0
    state = RULES.apply(state, {"type": "end_turn", "player": "Lera"}, Random(0))
    assert state.outcome == "lost" and "madness pile is empty" in (state.why or "")


def test_everyone_fallen_to_madness_loses() -> None:
    state = position({"page": 2, "madness": {"Lera": {"hand": 6}}}, players=["Lera"])
    state = RULES.apply(state, {"type": "end_turn", "player": "Lera"}, Random(0))
    assert state.outcome == "lost" and state.why == "every player has fallen to madness"


def test_an_impossible_action_names_every_problem_and_changes_nothing() -> None:
    game = start()
    before = game.view()
    with pytest.raises(IllegalAction) as refused:
        propose(game, type="banish", player="Lera", curse="feuer-99", reward="gold", helpers=["Nobody"])
    assert [(p.rule, p.player, p.target) for p in refused.value.problems] == [
        ("banish-curse", "Lera", "feuer-99"), ("banish-reward", "Lera", "gold"), ("banish-support", "Lera", "Nobody")]
    with pytest.raises(IllegalAction, match=r"it is Lera's turn, not Kirill's \(target|rule: turn"):
        propose(game, type="end_turn", player="Kirill")
    assert game.view() == before


@pytest.mark.parametrize("raw, word", [
    ({"type": "cast", "player": "Lera", "spell": "feuer_basis", "mana": 3}, "'mana' is unknown"),
    ({"type": "cast", "player": "Lera", "spell": "feuer_basis", "times": 99}, "'times'"),
    ({"type": "buy", "player": "Lera", "element": "feuer", "value": 4}, "'value'"),
    ({"type": "banish", "player": "Lera", "curse": "x", "helpers": ["a", "b", "c", "d", "e"]}, "'helpers'"),
    ({"type": "fly", "player": "Lera"}, "'fly' is unknown"),
    ({"type": "cast", "player": "L" * 41, "spell": "feuer_basis"}, "'player'"),
])
def test_malformed_actions_are_refused_naming_the_key(raw: dict[str, object], word: str) -> None:
    game = start()
    with pytest.raises(MalformedAction, match=word):
        game.propose(raw)
    assert game.version == 0

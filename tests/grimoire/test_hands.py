"""Tracked hands ("hands": "tracked"): each cost and limit the rulebook states, worded from it.

The table draws here (its own curses and cards, entered), so every hand is known: Lera holds four
fire and two water 1-element cards, Kirill four water, one earth and one air. On the circle lie the
4-element curse vier-10 (fire, water, earth, air) and feuer-1 (fire, fire, fire, water).
"""
from __future__ import annotations

import pytest

from companion.engine.game import Game
from companion.errors import IllegalAction, MalformedAction
from grimoire_helpers import start

FOUR = ["feuer", "wasser", "erde", "luft"]
LERA = ["feuer1"] * 4 + ["wasser1"] * 2
KIRILL = ["wasser1"] * 4 + ["erde1", "luft1"]


def dealt(**options: object) -> Game:
    game = start(draws="table", hands="tracked", **options)
    game.propose({"type": "curses_drawn", "curses": [FOUR, ["feuer", "feuer", "feuer", "wasser"]]})
    game.propose({"type": "cards_drawn", "player": "Lera", "cards": LERA})
    game.propose({"type": "cards_drawn", "player": "Kirill", "cards": KIRILL})
    return game


def refused(game: Game, action: dict[str, object]) -> IllegalAction:
    version, view = game.version, game.view()
    with pytest.raises(IllegalAction) as caught:
        game.propose(action)
    assert game.version == version and game.view() == view  # nothing stored
    return caught.value


def hand(game: Game, name: str) -> list[str]:
    cards = game.state.player(name).cards
    assert cards is not None
    return list(cards.hand)


def test_um_einen_fluch_zu_bannen_muss_ein_spieler_die_vier_elemente_ablegen() -> None:
    # "Um einen Fluch zu bannen, muss ein Spieler die vier auf dem Fluch dargestellten Elemente aus der Hand ... ablegen."
    game = dealt()
    problem = refused(game, {"type": "banish", "player": "Lera", "curse": "vier-10", "reward": "luft"}).problems[0]
    assert problem.rule == "banish-pay" and "die vier auf dem Fluch dargestellten Elemente" in problem.message
    assert "vier-10" not in game.view()["legal"]["banish"]
    game.propose({"type": "banish", "player": "Lera", "curse": "feuer-1", "reward": "luft"})
    assert hand(game, "Lera") == ["feuer1", "wasser1"]
    # "... und der aktive Spieler erhält eine 2er-Elementkarte seiner Wahl als Belohnung": onto the discard pile.
    cards = game.state.player("Lera").cards
    assert cards is not None and sorted(cards.discard) == ["feuer1", "feuer1", "feuer1", "luft2", "wasser1"]


def test_cards_named_must_be_in_the_hand_and_pay_the_curse() -> None:
    game = dealt()
    assert refused(game, {"type": "banish", "player": "Lera", "curse": "feuer-1", "reward": "luft",
                          "pay": ["feuer1", "feuer1", "feuer1", "luft1"]}).problems[0].rule == "pay-cards"
    assert refused(game, {"type": "banish", "player": "Lera", "curse": "feuer-1", "reward": "luft",
                          "pay": ["feuer1", "feuer1", "wasser1"]}).problems[0].rule == "banish-pay"


def test_einen_neuen_zauber_lernen_kostet_zwei_elemente_vom_typ_des_zaubers() -> None:
    # "Um ihn zu erhalten, muss der Spieler zwei Elemente vom Typ des Zaubers ablegen."
    game = dealt()
    problem = refused(game, {"type": "learn", "player": "Lera", "spell": "luft_1"}).problems[0]
    assert problem.rule == "learn-pay" and "zwei Elemente vom Typ des Zaubers" in problem.message
    game.propose({"type": "learn", "player": "Lera", "spell": "wasser_1"})
    assert hand(game, "Lera") == ["feuer1"] * 4


def test_ein_verstaerkter_zauber_kostet_die_elemente_mehrfach() -> None:
    # "Der Effekt des Zaubers kann verstärkt werden, indem die Elementkosten mehrfach bezahlt ... werden."
    game = dealt()
    problem = refused(game, {"type": "cast", "player": "Lera", "spell": "feuer_basis", "times": 5}).problems[0]
    assert problem.rule == "cast-pay" and "alle Kosten in Form von Elementkarten" in problem.message
    game.propose({"type": "cast", "player": "Lera", "spell": "feuer_basis", "times": 4})
    assert hand(game, "Lera") == ["wasser1"] * 2


def test_eine_3er_elementkarte_kostet_drei_elemente_und_die_bezahlten_verlassen_das_spiel() -> None:
    # "Eine 2er-Elementkarte kostet dabei zwei, eine 3er-Elementkarte drei Elemente des entsprechenden Typs. Die
    # eingesetzten Elementkarten werden aus dem Spiel genommen, die neu erworbenen Karten auf den Ablagestapel gelegt."
    game = dealt()
    assert refused(game, {"type": "buy", "player": "Lera", "element": "wasser", "value": 3}).problems[0].rule == "buy-pay"
    game.propose({"type": "buy", "player": "Lera", "element": "feuer", "value": 3})
    cards = game.state.player("Lera").cards
    assert cards is not None and cards.hand == ("feuer1", "wasser1", "wasser1") and cards.discard == ("feuer3",)


def madness_for_kirill() -> Game:
    """Lera ends her turn; the marker reaches field 2 with its curse and Kirill takes a madness card."""
    game = dealt()
    game.propose({"type": "end_turn", "player": "Lera"})  # her hand is full: nothing drawn
    assert game.state.player("Kirill").madness_hand == 1
    return game


def test_wahnsinn_kurieren_kostet_zwei_beliebige_elementkarten() -> None:
    # "Um den eigenen Wahnsinn zu kurieren, muss der Spieler zwei beliebige Elementkarten einsetzen."
    game = madness_for_kirill()
    game.propose({"type": "learn", "player": "Kirill", "spell": "wasser_1"})
    game.propose({"type": "cast", "player": "Kirill", "spell": "wasser_basis", "times": 2})
    game.propose({"type": "cast", "player": "Kirill", "spell": "erde_basis"})
    assert hand(game, "Kirill") == ["luft1"]
    problem = refused(game, {"type": "cure", "player": "Kirill"}).problems[0]
    assert problem.rule == "cure-pay" and "zwei beliebige Elementkarten" in problem.message


def test_beim_reduzieren_darf_ein_spieler_keine_wahnsinnskarten_ablegen() -> None:
    # "... seine Handkarten auf sechs Karten durch Ablegen reduzieren ... Beim Reduzieren darf ein Spieler keine
    # Wahnsinnskarten ablegen."
    game = madness_for_kirill()  # six element cards and one madness card: seven
    problem = refused(game, {"type": "end_turn", "player": "Kirill", "discard": ["wahnsinn"]}).problems[0]
    assert problem.rule == "reduce-madness" and "keine Wahnsinnskarten ablegen" in problem.message
    assert refused(game, {"type": "end_turn", "player": "Kirill"}).problems[0].rule == "reduce-count"
    assert refused(game, {"type": "end_turn", "player": "Kirill", "discard": ["feuer1"]}).problems[0].rule == "reduce-cards"
    game.propose({"type": "end_turn", "player": "Kirill", "discard": ["luft1"]})
    kirill = game.state.player("Kirill")
    assert kirill.cards is not None and len(kirill.cards.hand) + kirill.madness_hand == 6


def test_durch_nachziehen_erhoehen_the_hand_comes_back_to_six() -> None:
    game = dealt()
    game.propose({"type": "cast", "player": "Lera", "spell": "feuer_basis", "times": 3})
    game.propose({"type": "end_turn", "player": "Lera"})
    assert game.state.drawing == (("Lera", 3),)
    legal = game.view()["legal"]
    assert legal["kind"] == "cards" and legal["left"] == {"erde1": 2, "luft1": 2}  # what her deck still holds
    problem = refused(game, {"type": "cards_drawn", "player": "Lera", "cards": ["feuer1", "erde1", "erde1"]}).problems[0]
    assert problem.rule == "card-drawn" and "'feuer1'" in problem.message
    assert refused(game, {"type": "end_turn", "player": "Kirill"}).problems[0].rule == "pending"
    game.propose({"type": "cards_drawn", "player": "Lera", "cards": ["luft1", "erde1", "erde1"]})
    assert hand(game, "Lera") == ["erde1", "erde1", "feuer1", "luft1", "wasser1", "wasser1"]


def test_with_incantos_draws_the_hand_is_dealt_and_the_tablet_says_what_to_take() -> None:
    game = start(hands="tracked")
    view = game.view()
    assert view["hands"] == "tracked" and all(len(p["hand"]) == 6 and p["deck"] == 4 for p in view["players"])
    drew = [n for n in view["notes"] if n.get("event") == "drew"]
    assert [n["player"] for n in drew] == ["Lera", "Kirill"]


def test_without_tracked_hands_nobody_names_cards() -> None:
    game = start()
    curse = game.state.curses_out[0]
    problem = refused(game, {"type": "banish", "player": "Lera", "curse": curse, "reward": "luft",
                             "pay": ["feuer1"]}).problems[0]
    assert problem.rule == "hands-untracked"
    assert "hands" not in game.view()


def test_options_and_sheets_are_checked_at_the_start() -> None:
    with pytest.raises(MalformedAction, match="option 'hands'"):
        start(hands="open")
    with pytest.raises(MalformedAction, match="option 'characters'"):
        start(hands="tracked", characters={"Lera": "a", "Kirill": "a"})
    game = start(hands="tracked", characters={"Lera": "d"})
    assert [p["sheet"] for p in game.view()["players"]] == ["d", "a"]


def test_a_curse_paid_partly_from_a_support_zone_names_the_hands_part() -> None:
    # "... die vier auf dem Fluch dargestellten Elemente aus der Hand oder den Unterstützungszonen ablegen."
    game = dealt()
    banish = {"type": "banish", "player": "Lera", "curse": "vier-10", "reward": "luft", "helpers": ["Kirill"]}
    assert refused(game, banish).problems[0].rule == "pay-cards"
    game.propose({**banish, "pay": ["feuer1", "wasser1"]})
    assert hand(game, "Lera") == ["feuer1"] * 3 + ["wasser1"]

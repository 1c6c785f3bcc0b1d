"""The Grimoire's controls in Debian's Chromium: with the table's draws and tracked hands the tablet
asks for the cards each player drew (a picker of what their deck still holds) and the page turned;
with hands kept secret a payment is confirmed by the payer, the rulebook's sentence shown."""
from __future__ import annotations

from typing import Any

import pytest

from companion.web.settings import Settings

from .conftest import IN_CHROMIUM, opened

pytestmark = IN_CHROMIUM
LANDSCAPE = {"width": 1024, "height": 768}


@pytest.fixture
def game_name() -> str:
    return "grimoire"


def at_version(page: Any, version: int) -> None:
    page.wait_for_function("v => window.incanto.model.game.version === v", arg=version)


def test_the_table_enters_the_page_and_the_cards_drawn_by_tapping_them(chromium: Any, server: str, settings: Settings,
                                                                      night: Any, tmp_path: Any) -> None:
    errors: list[str] = []
    night.start_game("grimoire", ["Lera", "Kirill"], {"draws": "table", "hands": "tracked", "first": "Lera"}, seed=3)
    controls = opened(chromium, server, f"/join?code={settings.join_code}", LANDSCAPE, errors)
    board = opened(chromium, server, "/", LANDSCAPE, errors)
    board.wait_for_selector('[data-part="page-wanted"]')
    controls.goto(server + "/controls")
    controls.click('[data-do="page_opened"][data-page="c"]')
    at_version(board, 1)
    assert board.evaluate("window.incanto.model.game.book[0].id") == "c"
    controls.wait_for_selector('[data-do="curses_drawn"]')
    for pile in board.evaluate("window.incanto.model.game.awaiting"):
        controls.click(f'[data-do="curse-face"][data-pile="{pile}"] >> nth=0')
    controls.click('[data-do="curses_drawn"]')
    at_version(board, 2)
    # Lera's opening hand: the picker offers only what her deck holds, as often as it holds it.
    controls.wait_for_selector('[data-do="pick-card"][data-card="feuer1"]')
    assert controls.is_disabled('[data-do="cards_drawn"]')
    for _ in range(5):  # her sheet has four fire cards: the fifth tap is not taken
        controls.click('[data-do="pick-card"][data-card="feuer1"]')
    for card in ("wasser1", "luft1"):
        controls.click(f'[data-do="pick-card"][data-card="{card}"]')
    controls.screenshot(path=str(tmp_path / "grimoire-cards-picker.png"))
    controls.click('[data-do="cards_drawn"]')
    at_version(board, 3)
    lera = board.evaluate("window.incanto.model.game.players[0]")
    assert lera["hand"] == ["feuer1", "feuer1", "feuer1", "feuer1", "luft1", "wasser1"] and lera["deck"] == 4
    board.wait_for_selector('[data-player="Lera"] .hand [data-card="luft1"]')
    board.screenshot(path=str(tmp_path / "grimoire-hands-board.png"), full_page=True)
    for card in ["wasser1"] * 4 + ["erde1", "luft1"]:  # Kirill's opening hand
        controls.click(f'[data-do="pick-card"][data-card="{card}"]')
    controls.click('[data-do="cards_drawn"]')
    at_version(board, 4)
    # The page's arrival gave Lera a madness card: seven in hand. Ending her turn, the tablet asks which
    # element card she lays down, and offers no madness card ("Beim Reduzieren darf ein Spieler keine
    # Wahnsinnskarten ablegen").
    controls.click('[data-do="end_turn"]')
    picker = '[data-part="discard"] [data-do="pick-card"]'
    controls.wait_for_selector(picker)
    assert sorted(controls.eval_on_selector_all(picker, "bs => bs.map(b => b.dataset.card)")) == [
        "feuer1", "luft1", "wasser1"]
    controls.click(f'{picker}[data-card="luft1"]')
    controls.click('[data-do="end_turn-discard"]')
    at_version(board, 5)
    lera = board.evaluate("window.incanto.model.game.players[0]")
    assert lera["hand"] == ["feuer1", "feuer1", "feuer1", "feuer1", "wasser1"] and lera["discard"] == 1
    assert errors == []


def test_with_hands_kept_secret_the_payer_confirms_and_sees_the_rule(chromium: Any, server: str, settings: Settings,
                                                                     night: Any) -> None:
    errors: list[str] = []
    night.start_game("grimoire", ["Lera", "Kirill"], {"book": ["a", "b", "c", "d", "e"], "first": "Lera"}, seed=3)
    controls = opened(chromium, server, f"/join?code={settings.join_code}", LANDSCAPE, errors)
    controls.goto(server + "/controls")
    controls.click('[data-do="buy"][data-card="erde-2"]')
    assert "zwei, eine 3er-Elementkarte drei Elemente" in controls.inner_text('[data-part="rule"]')
    controls.click('[data-do="not-paid"]')
    assert controls.evaluate("window.incanto.model.game.version") == 0
    controls.click('[data-do="buy"][data-card="erde-2"]')
    controls.click('[data-do="paid"]')
    at_version(controls, 1)
    assert controls.evaluate("window.incanto.model.game.supply.erde['2']") == 5
    assert errors == []

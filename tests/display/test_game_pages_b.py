"""The Grimoire's ritual track page in Debian's Chromium: actions played through the API move the
marker and the curses on every tablet; screenshots at tablet size are not blank."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.web.settings import Settings

from .conftest import IN_CHROMIUM, opened

LANDSCAPE, PORTRAIT = {"width": 1024, "height": 768}, {"width": 768, "height": 1024}

pytestmark = IN_CHROMIUM


def propose(page: Any, server: str, action: dict[str, Any]) -> None:
    """Through the API, as a joined tablet does (the page's context holds the session cookie)."""
    answer = page.request.post(server + "/api/game/actions", data={"action": action})
    assert answer.ok, answer.text()


def shot(page: Any, path: Path) -> np.ndarray:
    page.screenshot(path=str(path), full_page=False)
    image = cv2.imread(str(path))
    assert image is not None and image.shape[0] > 500
    return image


def not_blank(image: np.ndarray) -> None:
    """Enough different colours and enough contrast to be a drawn page, not an empty one."""
    small = cv2.resize(image, (128, 96), interpolation=cv2.INTER_AREA)
    colours = len({tuple(int(c) // 16 for c in px) for row in small for px in row})
    assert colours > 40 and float(image.std()) > 20


@pytest.fixture
def game_name() -> str:
    return "grimoire"


def marker(page: Any) -> int:
    return int(page.get_attribute("svg.ritual-circle", "data-marker"))


def curses_on(page: Any) -> dict[int, int]:
    fields = page.query_selector_all("svg.ritual-circle g.field")
    return {int(f.get_attribute("data-field")): int(f.get_attribute("data-curses")) for f in fields}


def test_the_ritual_track_follows_the_table_on_two_tablets(chromium: Any, server: str, settings: Settings,
                                                           tmp_path: Path) -> None:
    errors: list[str] = []
    controls = opened(chromium, server, f"/join?code={settings.join_code}", LANDSCAPE, errors)
    boards = [opened(chromium, server, "/", LANDSCAPE, errors), opened(chromium, server, "/", PORTRAIT, errors)]
    for board in boards:
        board.wait_for_selector("svg.ritual-circle")
    view = controls.evaluate("window.incanto.model.game")
    assert marker(boards[0]) == 1 and sum(curses_on(boards[0]).values()) == len(view["legal"]["banish"]) > 0
    text = boards[0].inner_text('[data-part="ritual"]').lower()
    assert all(w.lower() in text for w in ("Ritualkreis", "ritual circle", "Rundenmarker", "Schaden", view["monster"]["de"]))
    not_blank(shot(boards[0], tmp_path / "grimoire-1024x768.png"))
    not_blank(shot(boards[1], tmp_path / "grimoire-768x1024.png"))

    # A curse banished: it leaves its field on both boards.
    curse = view["legal"]["banish"][0]
    propose(controls, server, {"type": "banish", "player": view["active"], "curse": curse, "reward": "luft"})
    for board in boards:
        board.wait_for_function("v => window.incanto.model.game.version === v", arg=1)
        assert board.query_selector(f'g.curse[data-curse="{curse}"]') is None
    # The turn ends: the next player's monster phase moves the marker to field 2.
    propose(controls, server, {"type": "end_turn", "player": view["active"]})
    for board in boards:
        board.wait_for_function("v => window.incanto.model.game.version === v", arg=2)
        assert marker(board) == 2
        assert board.get_attribute('g.marker', "data-field") == "2"
        assert board.inner_text('[data-part="active"]') != view["active"]
    not_blank(shot(boards[1], tmp_path / "grimoire-768x1024-after.png"))

    # The controls offer the turn's choices: a card bought, then a tap on "end turn" moves the marker everywhere.
    controls.goto(server + "/controls")
    controls.wait_for_selector('[data-do="end_turn"]')
    not_blank(shot(controls, tmp_path / "grimoire-controls-1024x768.png"))
    controls.click('[data-do="buy"][data-card="erde-3"]')
    controls.click('[data-do="paid"]')  # hands kept secret (the default): the payer confirms they can pay
    for board in boards:
        board.wait_for_function("v => window.incanto.model.game.version === v", arg=3)
    assert controls.evaluate("window.incanto.model.game.supply.erde['3']") == 5
    controls.click('[data-do="end_turn"]')
    for board in boards:
        board.wait_for_function("v => window.incanto.model.game.version === v", arg=4)
        assert marker(board) == 3
    assert errors == []


@pytest.mark.parametrize("game_name", ["ravenskeep"])
def test_the_ravenskeep_board_shows_the_die_the_towers_and_the_bottles(chromium: Any, server: str, settings: Settings,
                                                                        tmp_path: Path, game_name: str) -> None:
    errors: list[str] = []
    controls = opened(chromium, server, f"/join?code={settings.join_code}", LANDSCAPE, errors)
    boards = [opened(chromium, server, "/", LANDSCAPE, errors), opened(chromium, server, "/", PORTRAIT, errors)]
    for board in boards:
        board.wait_for_selector("svg.raven-ring")
    view = controls.evaluate("window.incanto.model.game")
    me = view["active"]
    # A die card: Incanto rolls on the button press; every board shows the roll.
    controls.goto(server + "/controls")
    controls.wait_for_selector('[data-do="roll"]')
    not_blank(shot(controls, tmp_path / "ravenskeep-controls-1024x768.png"))
    controls.click('[data-do="roll"][data-card="tower-dice-2"]')
    for board in boards:
        board.wait_for_function("v => window.incanto.model.game.version === v", arg=1)
    value = controls.evaluate("window.incanto.model.game.roll.values[0]")
    assert boards[0].get_attribute('[data-part="die"]', "data-value") == str(value)
    not_blank(shot(boards[0], tmp_path / "ravenskeep-1024x768.png"))
    # The rolled tower is played from the controls: the tower lands where the roll says on both boards.
    controls.wait_for_selector('[data-part="pieces"] button')
    piece = controls.get_attribute('[data-part="pieces"] button', "data-piece")
    before = view["spaces"]
    start = next(s["space"] for s in before if any(i.get("tower") == piece for i in s["stack"]))
    controls.click(f'[data-part="pieces"] button[data-piece="{piece}"]')
    for board in boards:
        board.wait_for_function("v => window.incanto.model.game.version === v", arg=2)
        target = (start + value) % len(before)
        assert board.query_selector(f'g.space[data-space="{target}"] [data-piece="{piece}"]') is not None
    full = controls.evaluate(f"window.incanto.model.game.players.find(p => p.name === {me!r}).full")
    assert boards[1].get_attribute(f'[data-player="{me}"] .bottles', "data-full") == str(full)
    not_blank(shot(boards[1], tmp_path / "ravenskeep-768x1024.png"))
    # A numbered card in two taps: what it shows, then the tower; both cards played, the turn can end.
    controls.wait_for_selector('[data-do="card"][data-card="tower-1"]')
    controls.click('[data-do="card"][data-card="tower-1"]')
    controls.click('[data-part="pieces"] button >> nth=0')
    controls.wait_for_selector('[data-do="end_turn"]')
    controls.click('[data-do="end_turn"]')
    for board in boards:
        board.wait_for_function("v => window.incanto.model.game.version === v", arg=4)
        assert board.text_content("svg.raven-ring .centre-sub").split(" · ")[0] != me
    assert errors == []


def test_with_table_draws_the_controls_ask_for_the_curses(chromium: Any, server: str, settings: Settings, night: Any) -> None:
    errors: list[str] = []
    night.start_game("grimoire", ["Lera", "Kirill"], {"draws": "table", "book": ["a", "b", "c", "d", "e"], "first": "Lera"}, seed=3)
    controls = opened(chromium, server, f"/join?code={settings.join_code}", LANDSCAPE, errors)
    board = opened(chromium, server, "/", LANDSCAPE, errors)
    assert "four-element curses, fire" in board.inner_text('[data-part="awaiting"]')
    controls.goto(server + "/controls")
    controls.click('[data-do="curse-face"][data-pile="feuer"] >> nth=0')
    controls.click('[data-do="curses_drawn"]')
    board.wait_for_function("() => window.incanto.model.game.version === 1")
    assert sum(curses_on(board).values()) == 2 and board.query_selector('[data-part="awaiting"]') is None
    assert errors == []

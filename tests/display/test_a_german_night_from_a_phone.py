"""A night in German from a phone, in Debian's Chromium: the phone joins by the QR code on the Pi's own
screen (a non-loopback address), a whole Incantibus game is played from that phone alone (every
casting, spell, satchel and wand tapped on its controls, nothing proposed any other way), and every
page is photographed at phone, tablet and Pi-screen sizes in German, none scrolling sideways and none
showing an English word."""
from __future__ import annotations

import ipaddress
import random
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from companion.night import Night

from .conftest import IN_CHROMIUM
from .test_join_from_a_phone import listening, on_the_network, read_qr  # noqa: F401 (fixtures)
from .test_words_in_chromium import VISIBLE_TEXT, english_in

pytestmark = IN_CHROMIUM
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots" / "de"
SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1024, "height": 768},
         "pi-screen": {"width": 800, "height": 480}}
PAGES = {"board": "/", "controls": "/controls", "night": "/night", "status": "/status", "join": "/join"}
TAPS_AT_MOST = 400  # a whole game is some 30-60 actions; more means the page stopped moving it on


@pytest.fixture
def game_name() -> str:
    return "incantibus"


def version(page: Any) -> int:
    return int(page.evaluate("window.incanto.model.game.version"))


def tap_the_next_action(page: Any, rng: random.Random) -> None:
    """What a player at the table would tap for the prompt on the controls, chosen at random."""
    kind = page.evaluate("window.incanto.model.game.legal.kind")
    page.wait_for_selector(f'[data-do="{kind}"]')  # the controls drew the prompt the model holds
    if kind == "cast":
        for player in page.evaluate("window.incanto.model.game.legal.players"):
            rng.choice(page.query_selector_all(f'.picker-row button[data-player="{player}"]')).click()
        page.click('[data-do="cast"]')
    elif kind == "spell":
        rng.choice(page.query_selector_all('[data-do="spell"]:not(:disabled)')).click()
        choices = page.query_selector_all('[data-do="spell-choice"]')
        if choices:
            rng.choice(choices).click()
    elif kind in ("satchel", "wand_down"):
        rng.choice(page.query_selector_all(f'[data-do="{kind}"]')).click()
    else:
        raise AssertionError(f"the controls show a prompt this test does not know: {kind!r}")


def test_a_whole_game_in_german_from_a_phone_that_joined_by_the_qr_code(chromium: Any, listening: int,  # noqa: F811
                                                                       night: Night) -> None:
    pi = chromium.new_context(viewport={"width": 1280, "height": 720}, locale="de-DE")
    board = pi.new_page()
    board.goto(f"http://127.0.0.1:{listening}/")  # the kiosk on the Pi itself
    board.wait_for_selector('[data-part="join"] svg')
    board.wait_for_selector('[data-part="scores"] .player')  # the board drawn: the corner has stopped moving
    board.wait_for_timeout(300)
    url = read_qr(board)
    host = urlsplit(url).hostname
    assert host is not None and not ipaddress.ip_address(host).is_loopback, url
    pi.close()

    phone = chromium.new_context(viewport=SIZES["phone"], locale="de-DE")
    phone.set_default_timeout(10_000)
    errors: list[str] = []
    page = phone.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_url("**/controls")
    page.wait_for_selector('#connection[data-state="live"]')
    assert page.evaluate("document.documentElement.lang") == "de"

    rng = random.Random(7)
    for _ in range(TAPS_AT_MOST):
        if page.evaluate("window.incanto.model.game.over"):
            break
        before = version(page)
        tap_the_next_action(page, rng)
        page.wait_for_function("v => window.incanto.model.game.version > v", arg=before)
    game = night.current
    assert game is not None and game.view()["over"], "the game did not end from the phone's taps"
    assert all(e["kind"] != "action" or e["payload"]["type"] in ("cast", "spell", "satchel", "wand_down")
               for e in game.history())

    page.wait_for_selector('[data-part="ending"]')
    ending = page.inner_text('[data-part="ending"]')
    assert "gewinnt" in ending or "gewinnen" in ending, ending
    history = page.inner_text('[data-part="history"]')
    assert "Beschwörung:" in history and "Das Spiel beginnt mit" in history, history[:400]
    assert english_in(page.evaluate(VISIBLE_TEXT), set(game.players)) == []
    assert errors == []
    phone.close()

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for size_name, size in SIZES.items():
        context = chromium.new_context(viewport=size, locale="de-DE")
        context.add_cookies(page_cookies(chromium, url, size))
        for name, path in PAGES.items():
            shot = context.new_page()
            shot.goto(url.split("/join")[0] + path)
            shot.wait_for_selector("main section")
            if name == "night":
                shot.wait_for_selector('[data-part="next-game"] [data-do="start"]')  # the games' list arrives on its own
            shot.wait_for_timeout(300)  # the game's module and the join corner arrive on their own
            wide, inner = shot.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert wide <= inner, f"{path} at {size['width']} px scrolls sideways: {wide} px wide"
            assert english_in(shot.evaluate(VISIBLE_TEXT), set(game.players) | {"Test", "night"}) == [], f"{path} at {size_name}"
            shot.screenshot(path=str(SCREENSHOTS / f"{name}-{size_name}.png"), full_page=True)
            shot.close()
        context.close()


def page_cookies(chromium: Any, url: str, size: dict[str, int]) -> list[dict[str, Any]]:
    """A session for a tablet of another size: it joins by the same QR code's address."""
    context = chromium.new_context(viewport=size, locale="de-DE")
    page = context.new_page()
    page.goto(url)
    page.wait_for_url("**/controls")
    cookies: list[dict[str, Any]] = context.cookies()
    context.close()
    return cookies

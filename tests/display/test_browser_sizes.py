"""Every page at every size, in Debian's Chromium: a phone (390x844), a tablet (1024x768, 1280x800), the
Pi's own screen (800x480).
Nothing scrolls sideways, the header keeps to two lines, every tap target is a finger tall, four players
sit in one row on a tablet, a dropped connection says so and stops the taps, and the cue button is
there only when the table casts."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any
from collections.abc import Iterator
from urllib.parse import urlparse

import pytest

from companion.night import Night
from companion.web.settings import Settings

from .conftest import IN_CHROMIUM, PLAYERS

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
LANDSCAPE = {"width": 1280, "height": 800}
PI_SCREEN = {"width": 800, "height": 480}  # the Raspberry Pi's own 7-inch touch screen
PAGES = {"board": "/", "controls": "/controls", "night": "/night", "status": "/status",
         "calibration": "/calibration", "join": "/join"}
FINGER_PX = 44  # the smallest target a finger hits without looking (Apple's and WCAG's 44 px)

pytestmark = IN_CHROMIUM


@pytest.fixture
def game_name() -> str:
    return "incantibus"


class Tablet:
    """A browser of one size that has typed the join code; its pages' script errors are collected."""

    def __init__(self, chromium: Any, base: str, size: dict[str, int], code: str) -> None:
        self.context = chromium.new_context(viewport=size)
        self.context.set_default_timeout(10_000)
        self.base = base
        self.errors: list[str] = []
        page = self.open("/join?code=" + code)
        page.wait_for_url("**/controls")
        page.close()

    def open(self, path: str, base: str | None = None) -> Any:
        page = self.context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto((base or self.base) + path)
        return page


@pytest.fixture
def tablet_of(chromium: Any, server: str, settings: Settings) -> Iterator[Any]:
    made: list[Tablet] = []

    def make(size: dict[str, int]) -> Tablet:
        made.append(Tablet(chromium, server, size, settings.join_code))
        return made[-1]

    yield make
    for t in made:
        assert t.errors == [], f"errors in a page: {t.errors}"
        t.context.close()


def settle(page: Any, name: str) -> None:
    """The page drew what it will show: the stream's snapshot, or the page's own parts."""
    if name in ("join", "calibration"):
        page.wait_for_selector("main section")
    else:
        page.wait_for_selector('#connection[data-state="live"]')
        page.wait_for_selector("main > section")
    if name == "board":
        page.wait_for_selector('[data-part="scores"] .player')
        page.wait_for_selector('[data-part="join"]')  # the join corner arrives on its own
    if name == "night":
        page.wait_for_selector('[data-part="next-game"] [data-do="start"]')  # the chooser arrives on its own
    if name == "status":
        page.wait_for_selector("[data-device]")
    page.evaluate("document.fonts.ready")


TOO_WIDE = """() => [...document.querySelectorAll("main *, header *")]
  .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
  .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}px`).slice(-6)"""

HEADER_ROWS = """() => {
  // Every line box of the header's text and controls, grouped into rows that do not overlap.
  const boxes = [];
  for (const e of document.querySelectorAll("header h1, header nav a, header .connection")) {
    const range = document.createRange();
    range.selectNodeContents(e);
    for (const r of range.getClientRects()) if (r.height > 0) boxes.push([r.top, r.bottom]);
  }
  boxes.sort((a, b) => a[0] - b[0]);
  let rows = 0, bottom = -Infinity;
  for (const [top, end] of boxes) { if (top >= bottom - 1) { rows++; bottom = end; } else bottom = Math.max(bottom, end); }
  return rows;
}"""

SMALL_TARGETS = """(least) => [...document.querySelectorAll("header nav a, button, a.button-link, select, input:not([type=hidden])")]
  .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden")
  .map((e) => [e.textContent.trim().slice(0, 30) || e.id, Math.round(e.getBoundingClientRect().height * 10) / 10])
  .filter(([, h]) => h < least)"""


@pytest.mark.parametrize("size", [PHONE, TABLET, LANDSCAPE, PI_SCREEN], ids=lambda s: f"{s['width']}x{s['height']}")
def test_every_page_fits_its_screen_and_every_target_is_a_finger_tall(tablet_of: Any, night: Night,
                                                                      size: dict[str, int]) -> None:
    game = night.current
    assert game is not None
    rng = random.Random(3)
    while (action := game.rules.random_action(game.state, rng)) is not None:  # a game finished: the standings' table
        game.propose(action)
    night.start_game("incantibus", PLAYERS, seed=11)
    tablet = tablet_of(size)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, path in PAGES.items():
        page = tablet.open(path)
        settle(page, name)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{size['width']}x{size['height']}.png"), full_page=True)
        wide, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide <= inner, f"{path} at {size['width']} px scrolls sideways: {wide} px wide: {page.evaluate(TOO_WIDE)}"
        if name != "join":  # joining is one question: it has no navigation
            assert page.evaluate(HEADER_ROWS) <= 2, f"{path}'s header takes more than two lines at {size['width']} px"
        assert page.evaluate(SMALL_TARGETS, FINGER_PX) == [], f"{path}: targets under {FINGER_PX} px at {size['width']} px"
        page.close()


def test_every_page_links_every_other_page(tablet_of: Any) -> None:
    tablet = tablet_of(PHONE)
    for name, path in PAGES.items():
        if name == "join":
            continue
        page = tablet.open(path)
        settle(page, name)
        links = page.eval_on_selector_all("header nav a", "as => as.map(a => a.getAttribute('href'))")
        assert links == ["/", "/controls", "/night", "/status", "/calibration"], (path, links)
        assert page.get_attribute("header nav a.here", "href") == path
        page.close()


def test_four_players_sit_in_one_row_on_a_tablet(tablet_of: Any) -> None:
    board = tablet_of(TABLET).open("/")
    settle(board, "board")
    tops = board.eval_on_selector_all('[data-part="scores"] .player', "cs => cs.map(c => Math.round(c.getBoundingClientRect().top))")
    assert len(tops) == len(PLAYERS) and len(set(tops)) == 1, f"player cards in rows at {tops}"


def enabled_buttons(page: Any) -> list[str]:
    return page.eval_on_selector_all("main button", "bs => bs.filter(b => !b.disabled).map(b => b.textContent.trim())")


def test_a_dropped_connection_says_reconnecting_and_stops_the_taps(tablet_of: Any, server: str, wire: Any) -> None:
    wifi = wire(urlparse(server).port)
    tablet = tablet_of(TABLET)
    controls = tablet.open("/controls", base=f"http://127.0.0.1:{wifi.port}")
    settle(controls, "controls")
    offline = '[data-part="offline"]'
    assert not controls.is_visible(offline)
    live = enabled_buttons(controls)
    assert "Cast" in live

    wifi.cut()  # the tablet's Wi-Fi drops
    controls.wait_for_selector(offline, state="visible")
    assert "reconnecting…" in controls.inner_text(offline).lower()
    assert enabled_buttons(controls) == [], "buttons still look live while the table cannot hear them"
    assert controls.evaluate("document.querySelector('main').inert")  # a tap in flight lands nowhere
    controls.screenshot(path=str(SCREENSHOTS / "controls-reconnecting-1024x768.png"))

    wifi.mend()
    controls.wait_for_selector(offline, state="hidden")
    controls.wait_for_selector('#connection[data-state="live"]')
    assert enabled_buttons(controls) == live
    assert not controls.evaluate("document.querySelector('main').inert")


def play_on(game: Any, rng: random.Random) -> None:
    action = game.rules.random_action(game.state, rng)
    assert action is not None, "the game ended before the rules asked for what this test needs"
    game.propose(action)


def cue_shown(page: Any) -> bool:
    return bool(page.evaluate("!!document.querySelector('[data-do=\"cue\"]')"))


def test_the_cue_button_shows_only_while_a_casting_is_due(tableside: Any, tablet_of: Any, night: Night,
                                                          server: str) -> None:
    game = night.current
    assert game is not None and game.view()["legal"]["kind"] == "cast"
    tablet = tablet_of(TABLET)
    controls = tablet.open("/controls")
    settle(controls, "controls")
    controls.wait_for_selector('[data-do="cue"]')

    rng = random.Random(5)
    while game.view()["legal"]["kind"] == "cast":  # until the rules ask something else: a spell, a full satchel
        play_on(game, rng)
    kind = game.view()["legal"]["kind"]
    controls.wait_for_function("v => window.incanto.model.game.version === v", arg=game.version)
    controls.wait_for_selector('[data-do="cue"]', state="detached")
    assert not cue_shown(controls), f"cue button while the table is asked for {kind}"

    while game.view()["legal"]["kind"] != "cast":
        play_on(game, rng)
    controls.wait_for_selector('[data-do="cue"]')

    for other in ("via_magica", "witchcraft", "ravenskeep", "grimoire"):  # games whose turns are no casting
        started = night.start_game(other, PLAYERS, seed=7)
        assert started.view()["legal"]["kind"] != "cast"
        page = tablet.open("/controls")
        settle(page, "controls")
        page.wait_for_function("g => window.incanto.model.game.game === g", arg=other)
        assert not cue_shown(page), f"cue button in {other}"
        page.close()


@pytest.mark.parametrize("other", ["via_magica", "witchcraft", "ravenskeep", "grimoire"])
def test_every_games_board_and_controls_fit_a_phone(tablet_of: Any, night: Night, other: str) -> None:
    game = night.start_game(other, PLAYERS, seed=7)
    rng = random.Random(2)
    for _ in range(6):  # a few turns in: hands, crystals and cards on the table
        play_on(game, rng)
    tablet = tablet_of(PHONE)
    for name in ("board", "controls"):
        page = tablet.open(PAGES[name])
        page.wait_for_selector('#connection[data-state="live"]')
        page.wait_for_function("g => window.incanto.model.game && window.incanto.model.game.game === g", arg=other)
        page.wait_for_selector("main > section")
        page.evaluate("document.fonts.ready")
        page.screenshot(path=str(SCREENSHOTS / f"{other}-{name}-390x844.png"), full_page=True)
        wide, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide <= inner, f"{other}'s {name} scrolls sideways on a phone: {wide} px wide: {page.evaluate(TOO_WIDE)}"
        assert page.evaluate(SMALL_TARGETS, FINGER_PX) == [], f"{other}'s {name}: targets under {FINGER_PX} px"
        page.close()

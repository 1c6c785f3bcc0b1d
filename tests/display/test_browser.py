"""End to end in Debian's Chromium: real uvicorn, real WebSockets, real pages, two tablets."""
from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any
from collections.abc import Iterator
from urllib.parse import urlparse

import pytest
from fastapi import FastAPI

from companion.night import Night
from companion.status import StatusBoard
from companion.web.settings import Settings

from .conftest import IN_CHROMIUM, load_here, wait_version, without_page_errors

TABLET = {"width": 1280, "height": 800}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

pytestmark = IN_CHROMIUM


@pytest.fixture
def game_name() -> str:
    return "incantibus"




class Tablet:
    """One tablet: its own browser context (cookies), pages opened on it, and any page errors."""

    def __init__(self, chromium: Any, base: str) -> None:
        self.context = chromium.new_context(viewport=TABLET)
        self.context.set_default_timeout(10_000)
        self.base = base
        self.errors: list[str] = []

    def open(self, path: str, base: str | None = None) -> Any:
        page = self.context.new_page()
        self.watch(page)
        page.goto((base or self.base) + path)
        return page

    def watch(self, page: Any) -> None:
        """Collect script errors, and loads that found nothing or broke the server (refusals are expected)."""
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text)
                if m.type == "error" and re.search(r"status of (404|5\d\d)", m.text) else None)

    def join(self, code: str) -> Any:
        page = self.open(f"/join?code={code}")
        page.wait_for_url("**/controls")
        wait_live(page)
        return page


def wait_live(page: Any) -> None:
    """Connected, and the page drew what its snapshot says."""
    page.wait_for_selector('#connection[data-state="live"]')
    page.wait_for_selector("main > section")


def points(page: Any) -> dict[str, int]:
    cards = page.query_selector_all('[data-part="scores"] .player')
    return {c.get_attribute("data-player"): int(c.query_selector(".points").inner_text().split()[0]) for c in cards}


@pytest.fixture
def tablets(chromium: Any, server: str) -> Iterator[tuple[Tablet, Tablet]]:
    pair = (Tablet(chromium, server), Tablet(chromium, server))
    with without_page_errors(pair[0]), without_page_errors(pair[1]):
        yield pair


def play_contested_casting(page: Any) -> tuple[str, list[str]]:
    """Tap a casting on the controls: the first two players point at the same token, the rest at nothing."""
    legal = page.evaluate("window.incanto.model.game.legal")
    first, second = legal["players"][:2]
    token = next(t for t in legal["targets"][first] if t in legal["targets"][second])
    labels = page.eval_on_selector_all(".picker button[data-target]", "bs => bs.map(b => b.innerText)")
    assert labels and not any(re.search(r"\b[rpbs]\d+\b", label) for label in labels), labels  # the game's words
    for player in (first, second):
        page.click(f'.picker button[data-player="{player}"][data-target="{token}"]')
    page.click('[data-do="cast"]')
    return token, [first, second]


def test_two_tablets_follow_a_casting_and_an_undo(tablets: tuple[Tablet, Tablet], settings: Settings) -> None:
    one, two = tablets
    controls = one.join(settings.join_code)
    two.join(settings.join_code).close()
    board = two.open("/")
    wait_live(board)
    before = points(board)
    wands = board.evaluate("window.incanto.model.game.wands")

    token, claimants = play_contested_casting(controls)
    for page in (controls, board):
        wait_version(page, 1)
    winner = max(claimants, key=lambda p: wands[p])
    shown = board.inner_text('[data-part="last-casting"]')
    assert f"{winner} wins" in shown and "swap wands" in shown
    assert board.evaluate("window.incanto.model.game.wands") != wands
    assert controls.query_selector('.history li[data-seq="1"]') is not None
    assert controls.query_selector('[data-do="cue"]') is None  # no table side: no cue to give

    other_controls = two.open("/controls")
    wait_live(other_controls)
    other_controls.click('[data-do="undo"]')
    for page in (controls, board, other_controls):
        wait_version(page, 2)
    assert points(board) == before
    assert board.evaluate("window.incanto.model.game.wands") == wands
    assert "No casting yet" in board.inner_text('[data-part="last-casting"]')
    controls.wait_for_selector('.history li.undone[data-seq="1"]')


def test_a_tablet_that_lost_its_connection_catches_up(tablets: tuple[Tablet, Tablet], server: str,
                                                      night: Night, wire: Any) -> None:
    watcher, _ = tablets
    wifi = wire(urlparse(server).port)
    board = watcher.open("/", base=f"http://127.0.0.1:{wifi.port}")
    wait_live(board)
    board.wait_for_selector('[data-part="scores"] .player')
    wifi.cut()  # the tablet's Wi-Fi drops
    board.wait_for_selector('#connection[data-state="offline"]')

    game = night.current
    assert game is not None
    for n in range(3):
        action = game.rules.random_action(game.state, random.Random(n))
        game.propose(action, action_id=f"while-away-{n}")
    wifi.mend()
    wait_version(board, 3)  # reconnected by itself and took a snapshot
    wait_live(board)
    assert points(board) == game.view()["scores"]


def test_a_woken_tablet_reconnects_and_catches_up(tablets: tuple[Tablet, Tablet], night: Night) -> None:
    watcher, _ = tablets
    sockets: list[Any] = []

    def link(route: Any) -> None:
        sockets.append(route)
        server = route.connect_to_server()
        napping = len(sockets) == 1  # the socket from before the nap delivers no event any more

        server.on_message(lambda m: None if napping and '"type":"event"' in m else route.send(m))

    board = watcher.context.new_page()
    watcher.watch(board)
    board.route_web_socket("**/api/stream", link)
    board.goto(watcher.base + "/")
    wait_live(board)
    board.wait_for_timeout(2100)  # a socket younger than 2 s is trusted on waking
    game = night.current
    assert game is not None
    game.propose(game.rules.random_action(game.state, random.Random(1)), action_id="during-the-nap")
    board.wait_for_timeout(300)
    assert board.evaluate("window.incanto.model.game.version") == 0  # the old socket went quiet
    board.evaluate("""() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    wait_version(board, 1)
    wait_live(board)
    assert len(sockets) == 2


def test_a_stale_tap_is_refused_and_the_page_refreshes(tablets: tuple[Tablet, Tablet], settings: Settings,
                                                       night: Night) -> None:
    one, _ = tablets
    one.join(settings.join_code).close()
    held: list[Any] = []
    slow_link = {"holding": False}

    def link(route: Any) -> None:  # the stream's messages reach this tablet late while holding
        server = route.connect_to_server()
        server.on_message(lambda m: held.append((route, m)) if slow_link["holding"] else route.send(m))

    controls = one.context.new_page()
    one.watch(controls)
    controls.route_web_socket("**/api/stream", link)
    controls.goto(one.base + "/controls")
    wait_live(controls)
    controls.wait_for_selector('[data-do="cast"]')

    slow_link["holding"] = True
    game = night.current
    assert game is not None
    game.propose(game.rules.random_action(game.state, random.Random(4)), action_id="elsewhere")
    controls.click('[data-do="cast"]')  # made against version 0; the game is at version 1
    controls.wait_for_selector("#refusal:has-text('The table moved on')")
    assert game.version == 1
    slow_link["holding"] = False
    for route, message in held:
        route.send(message)
    wait_version(controls, 1)
    wait_live(controls)


def test_a_tablet_without_the_join_code_cannot_reach_the_controls(tablets: tuple[Tablet, Tablet],
                                                                  settings: Settings, night: Night) -> None:
    stranger, _ = tablets
    page = stranger.open("/controls")
    page.wait_for_url("**/join?next=%2Fcontrols")
    page.fill("#code", "000000")
    page.click("#join")
    page.wait_for_selector("#join-message:has-text(\"'000000' is not the one shown on the display\")")
    page.fill("#code", settings.join_code)
    page.click("#join")
    page.wait_for_url("**/controls")
    wait_live(page)
    assert night.current is not None and night.current.version == 0


def test_a_room_laid_out_at_the_table_is_entered_on_the_controls(tablets: tuple[Tablet, Tablet],
                                                                  settings: Settings, night: Night) -> None:
    one, _ = tablets
    game = night.start_game("incantibus", ["Lera", "Kirill", "Katya", "Rosa"], {"draws": "table"}, seed=5)
    controls = one.join(settings.join_code)
    controls.wait_for_selector('[data-do="room_entered"]')
    for i, menu in enumerate(controls.query_selector_all('select[name^="visible-"]')):
        menu.select_option(index=i + 1)  # seven different kinds, as laid out on the roof
    controls.click('[data-do="room_entered"]')
    wait_version(controls, 1)
    assert game.history()[-1]["payload"]["type"] == "room_entered"
    assert len(game.view()["room"]["tokens"]) == len(game.history()[-1]["payload"]["visible"])

    controls.wait_for_selector('[data-do="reveal"]')  # the potions, first sorcerer and spell cards turned up
    seen: dict[str, int] = {}
    for menu in controls.query_selector_all("select"):
        options = menu.eval_on_selector_all("option", "os => os.length")
        seen[str(options)] = seen.get(str(options), 0) + 1
        menu.select_option(index=seen[str(options)])  # a different kind for each token of the same pile
    controls.click('[data-do="reveal"]')
    wait_version(controls, 2)
    controls.wait_for_selector('[data-do="cast"]')


def play_until(night: Night, kind: str, rng: random.Random) -> Any:
    """Bots play (starting new games when one ends) until the rules ask for ``kind``."""
    game = night.current
    assert game is not None
    for _ in range(2000):
        if game.view()["legal"]["kind"] == kind:
            return game
        action = game.rules.random_action(game.state, rng)
        if action is None:
            game = night.start_game(game.rules.name, game.players, seed=rng.randrange(2**31))
        else:
            game.propose(action)
    raise AssertionError(f"no {kind!r} prompt in 2000 moves")


def test_spells_and_a_full_satchel_are_settled_on_the_controls(tablets: tuple[Tablet, Tablet], settings: Settings,
                                                               night: Night) -> None:
    one, _ = tablets
    rng = random.Random(8)
    game = play_until(night, "spell", rng)
    version = game.version
    controls = one.join(settings.join_code)
    card = next(c for c in game.view()["legal"]["cards"] if c["works"])
    controls.click(f'[data-do="spell"][data-card="{card["card"]}"]')
    if card["choices"]:
        controls.click('[data-do="spell-choice"] >> nth=0')
    wait_version(controls, version + 1)
    assert game.history()[-1]["payload"]["type"] == "spell"
    assert game.history()[-1]["payload"]["card"] == card["card"]

    game = play_until(night, "satchel", rng)
    controls.reload()
    wait_live(controls)
    version, player = game.version, game.view()["legal"]["player"]
    controls.click('[data-do="satchel"] >> nth=0')  # throw the new token in the moat
    wait_version(controls, version + 1)
    assert game.history()[-1]["payload"] == {"type": "satchel", "player": player, "choice": "discard_new"}


def test_undo_to_here_and_redo_from_the_history(tablets: tuple[Tablet, Tablet], settings: Settings,
                                                night: Night) -> None:
    one, _ = tablets
    game = night.current
    assert game is not None
    rng = random.Random(6)
    for _ in range(3):
        game.propose(game.rules.random_action(game.state, rng))
    controls = one.join(settings.join_code)
    controls.click('.history li[data-seq="1"] [data-do="undo_to"]')
    wait_version(controls, 4)
    controls.wait_for_selector('.history li.undone[data-seq="3"]')
    assert [e["in_effect"] for e in game.history() if e["kind"] == "action"] == [True, False, False]
    controls.click('[data-do="redo"]')
    wait_version(controls, 5)
    assert [e["in_effect"] for e in game.history() if e["kind"] == "action"] == [True, True, False]


def test_the_cue_button_and_the_tables_notices_reach_every_page(tableside: Any, tablets: tuple[Tablet, Tablet],
                                                               settings: Settings, status: StatusBoard) -> None:
    """The cue tapped on the controls goes through /api/cue to the table side, whose reading (no camera
    here) comes back as a notice on the board; a wand pressed on the GPIO pins and a forgotten swap
    arrive the same way, and the status page shows the table side's devices with what to do."""
    from gpiozero.pins.mock import MockFactory

    from companion.inputs.gpio import GpioWiring
    from companion.tableside.swap import SWAP_FIX

    one, two = tablets
    controls = one.join(settings.join_code)
    board = two.open("/")
    wait_live(board)
    controls.click('[data-do="cue"]')
    controls.wait_for_selector('[data-part="cue-result"][data-ok="yes"]')
    reading = tableside.notices.recent("reading")
    assert len(reading) == 1 and "cue heard from tablet" in reading[0]["message"]
    for page in (board, controls):
        page.wait_for_selector('.notice-banner[data-kind="reading"]:not([hidden])')
        assert page.inner_text(".notice-banner .notice-message") == reading[0]["message"]
    screenshot(controls, "controls-cue")

    assert isinstance(tableside.hub.gpio.factory, MockFactory)
    katya_wand = board.evaluate("window.incanto.model.game.wands")["Katya"]
    pin = tableside.hub.gpio.factory.pin(GpioWiring().wand_buttons[katya_wand - 1])
    pin.drive_low()
    pin.drive_high()
    board.wait_for_selector('[data-part="notices"] li[data-kind="press"]:has-text("Katya")')

    forgot = f"wand {katya_wand} is still at Lera's seat: Lera and Katya should swap"
    status.report("wands", "warning", forgot, SWAP_FIX, {"wands": [katya_wand]})
    tableside.notices.say("swap", forgot, wands=[katya_wand])
    board.wait_for_selector('.notice-banner[data-kind="swap"][data-tone="warn"]:not([hidden])')
    assert board.inner_text(".notice-banner .notice-message") == forgot
    assert [li.get_attribute("data-kind") for li in board.query_selector_all('[data-part="notices"] li')] == \
        ["swap", "press", "reading"]
    screenshot(board, "board-swap")

    status_page = two.open("/status")
    status_page.wait_for_selector('[data-device="wands"][data-level="warning"]')
    assert f"What to do: {SWAP_FIX}" in status_page.inner_text('[data-device="wands"]')
    assert "GPIO pins" in status_page.inner_text('[data-device="gpio"][data-level="ok"]')



def test_a_false_spoken_cue_is_one_tap_to_dismiss(tableside: Any, tablets: tuple[Tablet, Tablet], settings: Settings) -> None:
    """A cue the microphone heard is listed on the tablets with a Not a cue button (its reading
    follows on the banner); one tap on the joined tablet dismisses it."""
    from companion.cue import Cue

    one, _ = tablets
    page = one.join(settings.join_code)
    page.goto(page.url.split("/controls")[0] + "/")
    wait_live(page)
    tableside.cue.heard(Cue("microphone", 50.0, "Lera", 1.3))
    button = '[data-part="notices"] li[data-kind="cue"] [data-do="not-a-cue"]'
    page.click(button)
    page.wait_for_selector('.notice-banner[data-kind="cue_dismissed"]:not([hidden])')
    assert [c.player for c in tableside.cue.dismissed] == ["Lera"]

def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"incantibus-{name}.png"), animations="disabled")  # the viewport: the banner sits at its foot


def test_screenshots_of_every_page(chromium: Any, app: FastAPI, server: str, settings: Settings,
                                   status: StatusBoard, night: Night) -> None:
    status.report("camera", "ok", "camera sees the whole table", details={"fps": 30})
    status.report("hub", "error", "wand hub unplugged at 21:04", fix="plug the hub's USB cable back in")
    status.report("cue", "warning", "cue detector hears a noisy room", fix="speak the last syllable clearly")
    game = night.current
    assert game is not None
    rng = random.Random(3)
    while (action := game.rules.random_action(game.state, rng)) is not None:  # one game played to the end
        game.propose(action)
    game = night.start_game(game.rules.name, ["Lera", "Kirill", "Katya", "Rosa"], seed=11)
    while game.version < 4 or game.view()["legal"]["kind"] != "cast":  # a few castings in, casting again
        game.propose(game.rules.random_action(game.state, rng))
    wands = game.view()["wands"]
    legal = game.view()["legal"]
    token = legal["targets"][game.players[0]][0]
    app.state.table.ask(load_here("asking").question(game.view(), {2: [token, legal["targets"][game.players[0]][1]]},
                                                     seen={w: token for w in wands.values() if w != 2}, why={2: "lifted"}))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tablet = Tablet(chromium, server)
    tablet.join(settings.join_code).close()
    for name, path in (("board", "/"), ("controls", "/controls"), ("night", "/night"), ("status", "/status"),
                       ("join", "/join")):
        page = tablet.open(path)
        if name != "join":
            wait_live(page)
        page.wait_for_timeout(300)  # let the join corner's QR code arrive
        page.screenshot(path=str(SCREENSHOTS / f"{night.current.rules.name}-{name}.png"), full_page=True)  # type: ignore[union-attr]
    controls = tablet.open("/controls")
    controls.wait_for_selector("[data-question]")
    asked = {w: p for p, w in wands.items()}[2]
    assert controls.inner_text(f'[data-why="{asked}"]') == "the tip did not click on its token, and the wand leans to another"
    status_page = tablet.open("/status")
    status_page.wait_for_selector('[data-device="hub"][data-level="error"]')
    assert "plug the hub's USB cable back in" in status_page.inner_text("main")
    assert status_page.get_attribute('[data-device="calibration"]', "data-level") == "off"  # never reported
    night_page = tablet.open("/night")
    night_page.wait_for_selector('.standings tr[data-player]')
    choice = night_page.wait_for_selector('.game-choice button[data-game="witchcraft"]').evaluate(
        "b => [...b.parentElement.children].map(x => [x.dataset.game, x.textContent])")
    assert [c for c in choice if c[0] != "counting"] == [  # Counting is the display tests' own game
        ["incantibus", "Incantibus"], ["grimoire", "Das Grimoire des Wahnsinns"], ["ravenskeep", "Ravenskeep"],
        ["via_magica", "Via Magica"], ["witchcraft", "Witchcraft: Moonlight Magic"]]
    night_page.click('.game-choice button[data-game="ravenskeep"]')
    night_page.click('[data-part="next-game"] [data-do="start"]')
    night_page.click('[data-do="start-anyway"]')  # the Incantibus game is not finished: the page asks first
    night_page.wait_for_url("**/controls")
    night_page.goto(night_page.url.replace("/controls", "/night"))
    night_page.wait_for_function("document.querySelector('[data-part=games]')?.innerText.includes('Ravenskeep')")
    assert night.current is not None and night.current.rules.name == "ravenskeep"
    assert night.current.players == ["Lera", "Kirill", "Katya", "Rosa"]
    assert tablet.errors == []
    tablet.context.close()


def test_the_pis_own_status_page_shows_wrong_codes_and_gives_a_new_one(tablets: tuple[Tablet, Tablet], server: str,
                                                                       settings: Settings) -> None:
    import httpx

    pi, _ = tablets  # the browser on the Pi itself: it reaches the display from 127.0.0.1
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.9")) as guesser:
        for guess in ("000001", "000002", "000003"):
            assert guesser.post(f"{server}/api/session", json={"code": guess}).status_code == 403
    page = pi.open("/status")
    page.wait_for_selector('[data-part="joins"] [data-failed="3"]')
    assert "127.0.0.9" in page.inner_text('[data-part="joins"]')
    assert settings.join_code in page.inner_text('[data-part="joins"] h2')
    page.click("#new-code")
    page.wait_for_selector("#code-message:has-text('New join code')")
    new_code = page.inner_text("#code-message").split()[3].rstrip(";")
    assert new_code != settings.join_code
    page.wait_for_selector(f'[data-part="joins"] h2:has-text("{new_code}")')
    assert httpx.post(f"{server}/api/session", json={"code": settings.join_code}).status_code == 403
    assert httpx.post(f"{server}/api/session", json={"code": new_code}).status_code == 200

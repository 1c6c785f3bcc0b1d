"""Every page in German, in Debian's Chromium, for each of the five games: every visible text node is
from the German catalogue, a name, or a number. An English word shown (from the English catalogue and
not the German one, or one of English's commonest words) fails the test with the text it stood in."""
from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion import words
from companion.night import Night
from companion.web.settings import Settings
from tests.demo_process import demo_running

from .conftest import IN_CHROMIUM, PLAYERS

pytestmark = IN_CHROMIUM
TABLET = {"width": 1024, "height": 768}
PAGES = {"board": "/", "controls": "/controls", "night": "/night", "status": "/status", "join": "/join"}
GAMES = ["incantibus", "via_magica", "grimoire", "witchcraft", "ravenskeep"]
WORD = re.compile(r"[A-Za-zÄÖÜäöüß']+")
URL = re.compile(r"\bhttps?://\S+")
PLACEHOLDER = re.compile(r"\{\w+\}")  # a value filled in where shown (``{open}``): its name is no word of the page

# English's commonest words (function words and a game table's verbs): a sentence left in English
# holds one of these even where the catalogue never had it.
COMMON = set("""the a an and or of to in on at by for from with without is are was were be been has have had
not no yes it its this that these those there here what where when who which how why your you we they he she
his her them their our my me i do does did done can could will would should may must shall than then so if but
all any each every some none more most less next last first new old one two three four five six seven eight nine
ten only also just still yet again back up down out over into onto off game games player players wand wands
token tokens card cards turn turns take takes took give gives put puts tap press pressed start starts
started playing play plays played wins win won lost loses score scores points left right table tonight
nothing everyone nobody someone waiting ready choose chooses chosen enter entered join joined code
undo redo history controls board night status calibration camera hub cue speaker reading""".split())

# Words that are the same in both languages, or names: a German page may show them.
SHARED = {"Incanto", "Incantibus", "Via", "Magica", "Witchcraft", "Moonlight", "Magic", "Ravenskeep", "Das", "Grimoire",
          "des", "Wahnsinns", "In-can-to", "In", "can", "to", "Status", "Monster", "Joker", "Gold", "Animus", "Incantatum",
          "PIN", "Hub", "USB", "WLAN", "s", "P", "Deutsch", "English", "Lady", "Goblin", "Archmage", "OK", "ok"}

VISIBLE_TEXT = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const text = node.textContent.trim();
    const parent = node.parentElement;
    if (!text || !parent || parent.closest("script, style, svg, [hidden], option:not(:checked)")) continue;
    if (!parent.checkVisibility()) continue;
    out.push(text);
  }
  for (const node of document.querySelectorAll("[placeholder], [aria-label], [title], img[alt]")) {
    if (!node.checkVisibility()) continue;
    for (const a of ["placeholder", "aria-label", "title", "alt"]) if (node.getAttribute(a)) out.push(node.getAttribute(a));
  }
  out.push(document.title);
  return out;
}"""


def words_in(language: str) -> set[str]:
    """The words a catalogue's sentences say, not the names of the values filled into them."""
    return {w.lower() for text in words.catalogue(language).values() for w in WORD.findall(PLACEHOLDER.sub(" ", text))}


def german_words() -> set[str]:
    return words_in("de")


def english_only() -> set[str]:
    english = words_in("en")
    return (english | COMMON) - german_words()


def english_in(texts: list[str], names: set[str]) -> list[tuple[str, str]]:
    """(word, the text it stood in) for each English word shown that is not a name."""
    suspicious = english_only()
    allowed = {n.lower() for n in names | SHARED}
    found = []
    for text in texts:
        for word in WORD.findall(URL.sub("", text)):  # an address is no sentence
            w = word.lower().strip("'")
            if w in suspicious and w not in allowed:
                found.append((word, text))
    return found


@pytest.fixture
def german(chromium: Any, server: str, settings: Settings) -> Iterator[Any]:
    """A tablet whose browser speaks German (it never touched the language switch), joined."""
    context = chromium.new_context(viewport=TABLET, locale="de-DE")
    context.set_default_timeout(10_000)
    errors: list[str] = []
    context.on("page", lambda page: page.on("pageerror", lambda e: errors.append(str(e))))
    page = context.new_page()
    page.goto(f"{server}/join?code={settings.join_code}")
    page.wait_for_url("**/controls")
    page.close()
    yield context
    assert errors == [], errors
    context.close()


def play_a_while(night: Night, game_name: str, moves: int, seed: int) -> None:
    """Start ``game_name`` and let bots play ``moves`` actions, so its pages have something to say."""
    game = night.start_game(game_name, PLAYERS, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        action = game.rules.random_action(game.state, rng)
        if action is None:
            break
        game.propose(action)


def shown(context: Any, server: str, path: str) -> list[str]:
    page = context.new_page()
    page.goto(server + path)
    if path == "/join":
        page.wait_for_selector("main section")
    else:
        page.wait_for_selector('#connection[data-state="live"]')
        page.wait_for_selector("main > section")
        if path == "/night":
            page.wait_for_selector('[data-part="next-game"] [data-do="start"]')  # the games' list arrives on its own
        page.wait_for_timeout(400)  # the game's own module and the join corner arrive on their own
    texts: list[str] = page.evaluate(VISIBLE_TEXT)
    assert page.evaluate("document.documentElement.lang") == "de"
    page.close()
    return texts


@pytest.mark.parametrize("game_name", GAMES)
def test_every_page_reads_in_german(german: Any, server: str, night: Night, game_name: str) -> None:
    play_a_while(night, game_name, moves=12, seed=5)
    for name, path in PAGES.items():
        english = english_in(shown(german, server, path), set(PLAYERS) | {"Test", "night"})
        assert english == [], f"{game_name}: the {name} page shows English: {english[:8]}"


def test_the_check_finds_english() -> None:
    """The check itself: a sentence from the English catalogue, a stray common word, a name allowed."""
    assert english_in(["Keine Beschwörung."], set()) == []
    assert english_in([words.say("en", "parts.no_casting_yet")], set()) != []
    assert ("the", "Lera → the dungeon") in english_in(["Lera → the dungeon"], {"Lera"})
    # A German sentence's placeholder (``{open}``) names a value, not a German word: "open" shown is English.
    assert ("open", "Grimoire: open") in english_in(["Grimoire: open"], set())
    assert english_in(["Lera"], {"Lera"}) == []


def test_the_switch_turns_a_german_tablet_english(german: Any, server: str) -> None:
    page = german.new_page()
    page.goto(server + "/night")
    page.wait_for_selector('#connection[data-state="live"]')
    assert page.inner_text("nav") .split() == ["Spielbrett", "Steuerung", "Abend", "Status", "Einrichtung"]
    page.click("#language")
    page.wait_for_function("document.documentElement?.lang === 'en'")  # null while the page reloads
    page.wait_for_selector('#connection[data-state="live"]')
    assert page.inner_text("nav").split() == ["Board", "Controls", "Night", "Status", "Calibration"]
    other = german.new_page()  # remembered on this tablet
    other.goto(server + "/")
    other.wait_for_selector('#connection[data-state="live"]')
    assert other.evaluate("document.documentElement.lang") == "en"


def test_the_status_page_reads_in_german(german: Any, server: str, status: Any) -> None:
    """Devices that say their words are said in German; one that does not is said by its level, never
    in the server's English."""
    status.report("camera", "ok", "camera:0 sees the table", words=("status.camera.ok", {}))
    status.report("cue", "off", "microphone off: the cue comes from the buttons", "start with --mic",
                  words=("status.cue.off", {}), fix_words=("status.cue.off_fix", {}))
    status.report("hub", "error", "wand hub unplugged at 21:04", fix="plug the hub's USB cable back in")
    texts = shown(german, server, "/status")
    assert english_in(texts, set()) == []
    assert "Die Kamera sieht den Tisch." in texts and "funktioniert nicht" in texts


def test_the_cameras_question_reads_in_german(german: Any, server: str, night: Night, app: Any) -> None:
    from .conftest import load_here
    game = night.start_game("incantibus", PLAYERS, seed=11)
    rng = random.Random(3)
    while game.version < 3 or game.view()["legal"]["kind"] != "cast":
        game.propose(game.rules.random_action(game.state, rng))
    view = game.view()
    targets = view["legal"]["targets"][game.players[0]]
    app.state.table.ask(load_here("asking").question(view, {view["wands"][game.players[0]]: targets[:2]}, why={
        view["wands"][game.players[0]]: "lifted"}))
    page = german.new_page()
    page.goto(server + "/controls")
    page.wait_for_selector("[data-question] button.answer")
    assert page.inner_text(f'[data-why="{game.players[0]}"]') == words.say("de", "question.why.lifted")
    texts: list[str] = page.evaluate(VISIBLE_TEXT)
    assert english_in(texts, set(PLAYERS)) == []
    page.close()


def test_a_start_with_too_few_players_is_refused_in_german(german: Any, server: str) -> None:
    page = german.new_page()
    page.goto(server + "/night")
    page.wait_for_selector('[data-part="next-game"] [data-do="start"]')
    page.click('.game-choice button[data-game="ravenskeep"]')
    for name in PLAYERS:  # every seat emptied
        page.click(f'.seat-choice button[data-name="{name}"]')
    page.click('[data-part="next-game"] [data-do="start"]')
    page.click('[data-do="start-anyway"]')  # the night's game is not finished: the page asks first
    assert page.inner_text("#night-refusal") == words.say("de", "night.wrong_count", game="Ravenskeep", least=2, most=4,
                                                          seated=0)
    page.close()


def german_page(context: Any, server: str, path: str) -> Any:
    page = context.new_page()
    page.goto(server + path)
    page.wait_for_selector('#connection[data-state="live"]')
    page.wait_for_selector("main > section")
    return page


def no_english(page: Any, where: str, names: set[str]) -> None:
    """The page as it stands (a picker open) says nothing in English."""
    texts: list[str] = page.evaluate(VISIBLE_TEXT)
    english = english_in(texts, names | {"Test", "night"})
    assert english == [], f"{where} shows English: {english[:8]}"


def at_version(page: Any, version: int) -> None:
    page.wait_for_function("v => window.incanto?.model?.game?.version === v", arg=version)


def test_the_witchcraft_tables_cards_are_asked_for_in_german(german: Any, server: str, night: Night) -> None:
    """The table's own deck: the witch drawn, the cards turned up for the market, the familiar on top."""
    players = ["Lera", "Kirill"]
    game = night.start_game("witchcraft", players, {"draws": "table"}, seed=3)
    controls = german_page(german, server, "/controls")
    pickers = {"turn_up": '[data-part="pick-card"] button', "witch": '[data-part="pick-witch"] button'}
    rng = random.Random(3)
    seen = set()
    while (kind := game.view()["legal"]["kind"]) != "turn":  # the setup, as a table enters it
        if kind in pickers and kind not in seen:
            seen.add(kind)
            controls.wait_for_selector(pickers[kind])
            no_english(controls, f"the {kind} picker", set(players))
        game.propose(game.rules.random_action(game.state, rng) or {})
    assert seen == set(pickers)
    controls.wait_for_selector('[data-do="take_familiar"]:not([disabled])')
    controls.click('[data-do="take_familiar"]')
    controls.wait_for_selector('[data-part="pick-familiar"] button')
    no_english(controls, "the familiar picker", set(players))
    no_english(german_page(german, server, "/"), "the board after the table turned up cards", set(players))


def test_the_ravenskeep_tables_die_is_asked_for_in_german(german: Any, server: str, night: Night) -> None:
    players = ["Lera", "Kirill", "Katya"]
    night.start_game("ravenskeep", players, {"dice": "table", "first": "Lera"}, seed=3)
    controls = german_page(german, server, "/controls")
    controls.click('[data-do="roll"][data-card="wizard-dice-2"]')
    controls.wait_for_selector('[data-do="face"]')
    no_english(controls, "the die's face picker", set(players))
    controls.click('[data-do="face"][data-face="2"]')
    at_version(controls, 1)
    controls.click('[data-do="reroll"]')
    controls.wait_for_selector('[data-do="face"]')
    no_english(controls, "the reroll's face picker", set(players))


def test_the_grimoires_tracked_hands_are_asked_for_in_german(german: Any, server: str, night: Night) -> None:
    """The page turned up, the curses, the cards drawn into each hand and the cards laid down on
    reducing to six: the rulebook's German alone."""
    players = ["Lera", "Kirill"]
    night.start_game("grimoire", players, {"draws": "table", "hands": "tracked", "first": "Lera"}, seed=3)
    board = german_page(german, server, "/")
    board.wait_for_selector('[data-part="page-wanted"]')
    no_english(board, "the board waiting for a page", set(players))
    controls = german_page(german, server, "/controls")
    controls.wait_for_selector('[data-do="page_opened"]')
    no_english(controls, "the page picker", set(players))
    controls.click('[data-do="page_opened"][data-page="c"]')
    at_version(controls, 1)
    controls.wait_for_selector('[data-do="curses_drawn"]')
    for pile in controls.evaluate("window.incanto.model.game.awaiting"):
        controls.click(f'[data-do="curse-face"][data-pile="{pile}"] >> nth=0')
    controls.click('[data-do="curses_drawn"]')
    at_version(controls, 2)
    controls.wait_for_selector('[data-do="pick-card"][data-card="feuer1"]')
    for card in ["feuer1"] * 4 + ["wasser1", "luft1"]:
        controls.click(f'[data-do="pick-card"][data-card="{card}"]')
    no_english(controls, "the cards picker", set(players))
    controls.click('[data-do="cards_drawn"]')
    at_version(controls, 3)
    for card in ["wasser1"] * 4 + ["erde1", "luft1"]:
        controls.click(f'[data-do="pick-card"][data-card="{card}"]')
    controls.click('[data-do="cards_drawn"]')
    at_version(controls, 4)
    controls.click('[data-do="end_turn"]')
    controls.wait_for_selector('[data-part="discard"] [data-do="pick-card"]')
    no_english(controls, "the picker of cards laid down", set(players))
    no_english(german_page(german, server, "/"), "the board with the hands", set(players))


def test_the_grimoires_secret_hands_confirm_payment_in_german(german: Any, server: str, night: Night) -> None:
    players = ["Lera", "Kirill"]
    night.start_game("grimoire", players, {"book": ["a", "b", "c", "d", "e"], "first": "Lera"}, seed=3)
    controls = german_page(german, server, "/controls")
    controls.click('[data-do="buy"][data-card="erde-2"]')
    controls.wait_for_selector('[data-do="paid"]')
    no_english(controls, "the confirmation of a payment", set(players))
# The night's chart is SVG (left out of VISIBLE_TEXT): its words, each point's title and its name.
CHART_TEXT = """() => {
  const chart = document.querySelector('[data-part="night-chart"]');
  return { ticks: [...chart.querySelectorAll(":scope > text")].map((t) => t.textContent),
           titles: [...chart.querySelectorAll("title")].map((t) => t.textContent),
           label: chart.getAttribute("aria-label") };
}"""


def test_the_night_page_with_its_chart_reads_in_german(german: Any, server: str, night: Night) -> None:
    """After a finished game the night page draws its chart: every word of it, and of the page around
    it, in German; the ticks and titles are the German catalogue's own sentences."""
    game = night.start_game("incantibus", PLAYERS, seed=8)
    rng = random.Random(8)
    while (action := game.rules.random_action(game.state, rng)) is not None:
        game.propose(action)
    assert game.rules.is_over(game.state)
    page = german.new_page()
    page.goto(server + "/night")
    page.wait_for_selector('#connection[data-state="live"]')
    page.wait_for_selector('[data-part="night-chart"] .series')
    page.wait_for_selector('[data-part="next-game"] [data-do="start"]')
    chart = page.evaluate(CHART_TEXT)
    texts: list[str] = page.evaluate(VISIBLE_TEXT)
    page.close()
    ticks = [t for t in chart["ticks"] if not t.isdigit()]
    assert ticks == [words.say("de", "chart.start"), words.say("de", "chart.game", number=1)], chart["ticks"]
    assert chart["label"].startswith(words.say("de", "chart.label", points="")), chart["label"]
    assert words.say("de", "chart.point_at_start", player=PLAYERS[0], points=0) in chart["titles"], chart["titles"]
    assert any(t.startswith(f"{PLAYERS[0]} ") and words.say("de", "chart.game", number=1) in t for t in chart["titles"])
    english = english_in(texts + chart["ticks"] + chart["titles"] + [chart["label"]], set(PLAYERS) | {"Test", "night"})
    assert english == [], f"the night page with its chart shows English: {english[:8]}"
# -- the guided calibration in the demo, and the status page's device details ---------------------------
CALIBRATION_STEPS = ["camera", "table", "layout", "wands", "tips", "cue", "check"]


@pytest.fixture
def demo(tmp_path: Any) -> Iterator[tuple[str, str]]:
    """``python -m companion demo`` as a person starts it (its rendered camera, a table set up):
    (address, join code)."""
    from pathlib import Path

    with demo_running(Path(tmp_path) / "demo.sqlite") as running:
        yield running


def calibration_english(page: Any) -> list[tuple[str, str]]:
    texts: list[str] = page.evaluate(VISIBLE_TEXT)
    assert page.evaluate("document.documentElement.lang") == "de"
    return english_in(texts, {"Test"})


def test_the_guided_calibration_reads_in_german(chromium: Any, demo: tuple[str, str]) -> None:
    """Every step of the calibration page in the demo, on a German tablet, with what each button answers
    (a step done, a refusal, the tip check, the summary): German words only."""
    address, code = demo
    context = chromium.new_context(viewport=TABLET, locale="de-DE")
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{address}/join?code={code}&next=/calibration")
    page.wait_for_selector("#page[data-step='layout']")  # the demo's camera and table are set up already
    page.wait_for_function("document.getElementById('live')?.naturalWidth > 0")
    assert page.inner_text("#progress-words") == "Schritt 3 von 7: Felder"
    assert page.inner_text("#tap-prompt").startswith("Tippe auf r0: Raumfeld 0: vordere Reihe")
    for step in CALIBRATION_STEPS:
        page.click(f"#steps li[data-step='{step}'] button")
        page.wait_for_selector(f"#page[data-step='{step}']")
        assert calibration_english(page) == [], f"the {step} step shows English: {calibration_english(page)[:8]}"
    # What the buttons answer: a step done, a refusal, the tip check with no switches, each in German.
    page.click("#steps li[data-step='table'] button")
    page.click("#find-table")
    page.wait_for_selector("#message:has-text('Tisch anhand der Marker')")
    assert calibration_english(page) == []
    page.click("#steps li[data-step='wands'] button")
    page.click("#learn-wands")  # before the empty table: refused, in German
    page.wait_for_selector("#error:has-text('Merk dir zuerst den leeren Tisch')")
    page.click("#empty-table")
    page.wait_for_selector("#message:has-text('Der leere Tisch ist gemerkt')")
    assert calibration_english(page) == []
    page.click("#steps li[data-step='tips'] button")
    page.click("#start-tips")
    page.wait_for_selector("#tip-summary:not(:empty)")
    assert calibration_english(page) == [], page.inner_text("#tip-summary")
    page.click("#steps li[data-step='check'] button")
    page.click("#start-validation")  # the demo's places are not saved: refused, in German
    page.wait_for_selector("#error:has-text('Leg zuerst die Felder fest')")
    assert calibration_english(page) == []
    page.click("#skip")
    page.wait_for_selector("#page[data-step='done']")
    assert page.inner_text("#progress-words") == "Einrichtung abgeschlossen"
    assert "Kamera: erledigt, die Kamera ist vermessen" in page.inner_text("#done-list")
    assert calibration_english(page) == []
    assert errors == [], errors
    context.close()


def test_the_status_pages_device_details_read_in_german(german: Any, server: str, status: Any) -> None:
    """The wand hub, the disk, the GPIO buttons and the tip switches say their details in German, and a
    table not set up (or moved during play) links to the calibration page's step."""
    from calibration.drift import DEVICE, STEP, MarkerCheck
    from calibration.table import DEFAULT_LAYOUT, TableLayout
    from companion.status import CALIBRATION_FIX
    from companion.tableside.hub import link_report
    from companion.words.said import Said

    snap = {"port": "/dev/ttyACM0", "connected": True, "firmware": "1.2", "presses": 14, "lines_lost": 2, "garbage": 0}
    status.report("hub", *link_report(snap, True, False))
    status.report("store", "error", Said("status.store.full", "the disk is full{free}: the last change was not saved",
                                         free=" (0.4 MB)"), Said("status.store.free_space", "free some space"))
    status.report("gpio", "ok", Said("status.gpio.mock", "wand buttons on the Pi's GPIO pins, {factory} (mock pins: this "
                                     "is not a Raspberry Pi)", factory="MockFactory"))
    status.report("tips", "warning", Said("status.tips.doubted", "the tip switches of wands {wands} have not clicked in the "
                                          "last {castings} castings: the camera reads them alone until they click again",
                                          wands="2, 3", castings=3), Said("status.tips.fix", "check its cable"))
    status.report("calibration", "error", "the table is not calibrated", CALIBRATION_FIX, {"step": "table"},
                  words=("status.calibration.missing", {}))
    moved = MarkerCheck({0: 31.0, 1: 28.0, 2: 0.6}, [3])  # a bumped camera, one marker under a hand
    status.report(DEVICE, moved.level, *moved.words(TableLayout.load(DEFAULT_LAYOUT)), dict(STEP))
    page = german.new_page()
    page.goto(server + "/status")
    page.wait_for_selector('#connection[data-state="live"]')
    page.wait_for_selector('[data-device="tips"]')
    texts: list[str] = page.evaluate(VISIBLE_TEXT)
    assert english_in(texts, {"MockFactory"}) == []
    hub = page.inner_text('[data-device="hub"]')
    assert "Stab-Hub an /dev/ttyACM0, Firmware 1.2: 14 Tastendrücke; 2 Zeilen kamen nie zurück" in hub
    assert "Prüf das letzte Wettrennen" in hub
    assert "Die Spitzenschalter der Stäbe 2, 3" in page.inner_text('[data-device="tips"]')
    assert "Der Speicher ist voll" in page.inner_text('[data-device="store"]')
    assert "GPIO-Pins des Pi" in page.inner_text('[data-device="gpio"]')
    link = page.get_attribute('[data-device="calibration"] a[data-part="calibration-step"]', "href")
    assert link == "/calibration#table"
    markers = page.inner_text('[data-device="table markers"]')
    assert "TISCHMARKER" in markers and "Kamera oder Tisch wurden seit dem Tisch-Schritt verrückt: Marker 0, 1" in markers
    link = page.get_attribute('[data-device="table markers"] a[data-part="calibration-step"]', "href")
    assert link == "/calibration#table"
    # Markers under hands: where each lies is the layout file's German description, not its English one.
    hidden = MarkerCheck({2: 0.4}, [0, 1, 3])
    status.report(DEVICE, hidden.level, *hidden.words(TableLayout.load(DEFAULT_LAYOUT)), dict(STEP))
    page.wait_for_selector('[data-device="table markers"]:has-text("vorne links, vor der Zaubererreihe")')
    assert "near left" not in page.inner_text('[data-device="table markers"]')
    page.close()


def refusal_reads(page: Any, rule: str, player: str) -> str:
    """Wait for the controls' refusal line, then what it says: the rule's German sentence is in it."""
    sentence = words.say("de", f"problem.{rule}", player=player)
    assert sentence != words.say("de", "problem.other")
    page.wait_for_function("s => document.querySelector('#refusal')?.textContent.includes(s)", arg=sentence)
    said: str = page.inner_text("#refusal")
    assert words.say("de", "problem.other") not in said
    return said


@pytest.mark.parametrize("game_name", ["witchcraft"])
def test_a_refused_witchcraft_buy_says_the_rule_in_german(german: Any, server: str, night: Night,
                                                          game_name: str) -> None:
    game = night.current
    assert game is not None
    controls = german_page(german, server, "/controls")
    for space in (0, 4):  # diagonal: not adjacent in a row or a column
        controls.click(f'[data-part="buyer"] button[data-space="{space}"]')
    controls.click('[data-do="buy"]')
    refusal_reads(controls, "adjacent", "")  # the sentence names no player
    assert game.version == 0
    no_english(controls, "the refused buy", set(PLAYERS))


def test_a_ravenskeep_move_out_of_turn_is_refused_in_german(german: Any, server: str, night: Night) -> None:
    """A tablet that plays for Kirill while it is Lera's turn: the rule's sentence, with Kirill's name,
    through the page's own way of sending a move and of saying why it was refused."""
    players = ["Lera", "Kirill", "Katya"]
    game = night.start_game("ravenskeep", players, {"first": "Lera"}, seed=3)
    controls = german_page(german, server, "/controls")
    controls.evaluate("""async () => {
      const api = await import("/static/js/api.js");
      const say = (text) => { document.querySelector("#refusal").textContent = text; };
      const play = { type: "end_turn", player: "Kirill" };
      api.handle(await api.post("/api/game/actions", { action: play, action_id: api.actionId(),
                                                       base: window.incanto.model.game.version }),
                 window.incanto.stream, say);
    }""")
    said = refusal_reads(controls, "turn", "Kirill")
    assert said.startswith("Kirill ist nicht am Zug.")
    assert game.version == 0

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

from .conftest import IN_CHROMIUM, PLAYERS

pytestmark = IN_CHROMIUM
TABLET = {"width": 1024, "height": 768}
PAGES = {"board": "/", "controls": "/controls", "night": "/night", "status": "/status", "join": "/join"}
GAMES = ["incantibus", "via_magica", "grimoire", "witchcraft", "ravenskeep"]
WORD = re.compile(r"[A-Za-zÄÖÜäöüß']+")
URL = re.compile(r"\bhttps?://\S+")

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


def german_words() -> set[str]:
    return {w.lower() for text in words.catalogue("de").values() for w in WORD.findall(text)}


def english_only() -> set[str]:
    english = {w.lower() for text in words.catalogue("en").values() for w in WORD.findall(text)}
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
    assert english_in(["Lera"], {"Lera"}) == []


def test_the_switch_turns_a_german_tablet_english(german: Any, server: str) -> None:
    page = german.new_page()
    page.goto(server + "/night")
    page.wait_for_selector('#connection[data-state="live"]')
    assert page.inner_text("nav") .split() == ["Spielbrett", "Steuerung", "Abend", "Status", "Einrichtung"]
    page.click("#language")
    page.wait_for_function("document.documentElement.lang === 'en'")
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
    page.wait_for_function("v => window.incanto.model.game && window.incanto.model.game.version === v", arg=version)


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

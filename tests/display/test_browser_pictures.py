"""Pictures and the night's chart in Debian's Chromium: Incantibus's tokens drawn with their pictures and
names, the face-down ones as one picture with a count, and the night page's chart with a line per player
and a point per finished game, at a phone's width with nothing scrolling sideways."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator

import pytest

from companion.night import Night, night_points, placings, places
from companion.web.settings import Settings
from companion.words import term

from .conftest import IN_CHROMIUM, without_page_errors
from .test_browser import SCREENSHOTS, Tablet, wait_live

pytestmark = IN_CHROMIUM
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
ICONS_JSON = Path(__file__).resolve().parents[2] / "companion" / "web" / "static" / "icons" / "icons.json"


@pytest.fixture
def game_name() -> str:
    return "incantibus"


@pytest.fixture
def tablet(chromium: Any, server: str, settings: Settings) -> Iterator[Tablet]:
    with without_page_errors(Tablet(chromium, server)) as tablet:
        yield tablet


def sized(tablet: Tablet, path: str, size: dict[str, int]) -> Any:
    page = tablet.open(path)
    page.set_viewport_size(size)
    wait_live(page)
    return page


def pictured(tablet: Tablet, size: dict[str, int], selector: str) -> Any:
    """The board at ``size`` once ``selector`` is drawn and every picture on it has loaded."""
    page = sized(tablet, "/", size)
    page.wait_for_selector(selector)
    page.wait_for_function("() => [...document.images].every((i) => i.complete)")
    return page


def fits_and_shot(page: Any, scrolls: str, shot: str) -> None:
    """Nothing scrolls sideways (else ``scrolls``, with how wide the page is), and a screenshot ``shot``."""
    wide, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert wide <= inner, f"{scrolls}: {wide} px"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / shot), full_page=True)


PICTURES = """(sel) => [...document.querySelectorAll(sel)].map((chip) => {
  const img = chip.querySelector("img.icon");
  return { token: chip.dataset.token, label: chip.querySelector(".label")?.textContent,
           alt: img?.alt, loaded: !!img && img.complete && img.naturalWidth > 0 };
})"""


def words(kind: str, game: str = "incantibus", section: str = "token") -> str:
    """A token's name as an English tablet shows it: its game's catalogue word, else its kind in words."""
    return term("en", game, f"{section}.{kind}", kind.replace("_", " "))


@pytest.mark.parametrize("size", [PHONE, TABLET], ids=lambda s: f"{s['width']}px")
def test_every_token_on_the_board_is_its_picture_with_its_name(tablet: Tablet, night: Night, size: dict[str, int]) -> None:
    game = night.current
    assert game is not None
    view = game.view()
    page = pictured(tablet, size, "[data-icon]")

    chips = page.evaluate(PICTURES, "main [data-token]")
    shown = {c["token"]: c for c in chips}
    on_table = [t for t in view["room"]["tokens"] if t["visible"]] + [p for p in view["potions"] if p] + \
               [s for s in view["sorcerers"] if s and s["face_up"]]
    assert on_table and {t["id"] for t in on_table} <= set(shown), "a token on the table has no chip"
    for token in on_table:
        chip = shown[token["id"]]
        assert chip["loaded"], f"{token['id']}'s picture did not load: {chip}"
        assert chip["alt"] and chip["alt"] == chip["label"], f"{token['id']}'s picture is not named as its label: {chip}"
    for token in view["room"]["tokens"]:
        if token["visible"]:
            assert shown[token["id"]]["label"] == words(token["kind"])

    # The face-down sorcerers are one picture and a count, not a chip each.
    hidden = [s["id"] for s in view["sorcerers"] if s and not s["face_up"]]
    assert hidden, "the game starts with face-down sorcerers"
    face_down = page.eval_on_selector_all("main [data-face-down]", "cs => cs.map(c => [c.dataset.tokens, c.textContent, "
                                          "c.querySelector('img.icon').naturalWidth])")
    sorcerers = [f for f in face_down if f[0].split() == hidden]
    assert len(sorcerers) == 1 and sorcerers[0][1] == f"{len(hidden)} face down" and sorcerers[0][2] > 0, face_down
    assert not set(hidden) & set(shown), "a face-down sorcerer still has a chip of its own"
    fits_and_shot(page, f"the board scrolls sideways at {size['width']} px", f"board-pictures-{size['width']}.png")


def finish(night: Night, rng: random.Random) -> None:
    game = night.current
    assert game is not None
    while (action := game.rules.random_action(game.state, rng)) is not None:
        game.propose(action)


def played_until(game: Any, seed: int, reached: Callable[[dict[str, Any]], bool], what: str) -> None:
    """Random legal actions from ``seed`` until the game's view has ``reached`` ``what``; it must not end first."""
    rng = random.Random(seed)
    while not reached(game.view()):
        action = game.rules.random_action(game.state, rng)
        assert action is not None, f"the game ended before {what}"
        game.propose(action)


def expected_series(night: Night) -> dict[str, list[int]]:
    """Each player's night points after each finished game, counted here from the games themselves."""
    totals: dict[str, list[int]] = {}
    finished = [g for _, g in night.played() if g.rules.is_over(g.state)]
    for n, game in enumerate(finished, start=1):
        for player, place, _ in placings(places(game)):
            line = totals.setdefault(player, [0] * n)
            line.append(line[-1] + night_points(place))
        for line in totals.values():
            line.extend([line[-1]] * (n + 1 - len(line)))  # sat this game out: the points stay
    return totals


@pytest.mark.parametrize("size", [PHONE, TABLET], ids=lambda s: f"{s['width']}px")
def test_the_night_page_charts_each_players_points_after_each_game(tablet: Tablet, night: Night,
                                                                    size: dict[str, int]) -> None:
    rng = random.Random(5)
    finish(night, rng)
    night.start_game("incantibus", ["Kirill", "Katya", "Rosa"], seed=12)  # Lera sits this one out
    finish(night, rng)
    night.start_game("incantibus", ["Lera", "Kirill", "Katya", "Rosa"], seed=13)
    finish(night, rng)
    expected = expected_series(night)
    assert len(expected) == 4 and all(len(line) == 4 for line in expected.values())

    page = sized(tablet, "/night", size)
    page.wait_for_selector('[data-part="night-chart"] .series')
    drawn = page.eval_on_selector_all('[data-part="night-chart"] .series', """gs => gs.map(g => [g.dataset.player,
      g.dataset.points.split(" ").map(Number), g.querySelector("polyline").points.length, g.querySelectorAll("circle").length])""")
    assert {player: points for player, points, _, _ in drawn} == expected
    assert all(line == dots == 4 for _, _, line, dots in drawn), f"a line without a point per game: {drawn}"
    assert page.is_visible("table.standings"), "the table of exact numbers is kept below the chart"
    box = page.eval_on_selector('[data-part="night-chart"]', "c => c.getBoundingClientRect().width")
    assert box > size["width"] * 0.6, f"the chart is {box} px wide at {size['width']} px"
    page.wait_for_function("() => Math.abs(document.querySelector('[data-part=night-chart]').viewBox.baseVal.width - "
                           "document.querySelector('[data-part=night-chart]').getBoundingClientRect().width) < 20")
    smallest = page.eval_on_selector_all('[data-part="night-chart"] text', "ts => Math.min(...ts.map(t => t.getBoundingClientRect().height))")
    assert smallest >= 11, f"the chart's words are {smallest:.1f} px tall at {size['width']} px: too small to read"
    fits_and_shot(page, f"the night page scrolls sideways at {size['width']} px", f"night-chart-{size['width']}.png")



@pytest.mark.parametrize("game_name", ["witchcraft"])
def test_witchcraft_market_cards_are_their_pictures_with_their_names(tablet: Tablet, night: Night, game_name: str) -> None:
    game = night.current
    assert game is not None
    market = game.view()["market"]
    page = pictured(tablet, PHONE, ".wc-market [data-space]")
    cells = page.eval_on_selector_all(".wc-market [data-space]", """cs => cs.map(c => {
      const img = c.querySelector("img.icon");
      return [c.dataset.space, img ? img.alt : null, img ? img.naturalWidth : 0, c.textContent];
    })""")
    assert len(cells) == len(market)
    for space, (_, alt, natural, text) in zip(market, cells):
        card = space["card"]
        if card is None:
            assert alt is None
            continue
        assert natural > 0, f"the picture of {card} did not load"
        named = {"spell": f"spell ✦{card.get('magic')}", "joker": "joker"}.get(card["category"],
                                                                          words(card.get("kind") or "", "witchcraft", "ingredient"))
        assert alt == named, (card, alt)
        assert card["category"] == "spell" or named in text, f"{named} is not also written on the card: {text!r}"
    fits_and_shot(page, "the Witchcraft board scrolls sideways at 390 px", "witchcraft-pictures-390.png")


@pytest.mark.parametrize("game_name", ["via_magica"])
def test_via_magica_animus_tokens_and_portals_are_their_pictures(tablet: Tablet, night: Night, game_name: str) -> None:
    game = night.current
    assert game is not None
    view = game.view()
    page = pictured(tablet, PHONE, '[data-part="bag-counts"] img.icon')
    bag = page.eval_on_selector_all('[data-part="bag-counts"] .token', "ts => ts.map(t => [t.querySelector('img.icon')?.alt, "
                                    "t.querySelector('img.icon')?.naturalWidth, t.textContent])")
    assert [(alt, text) for alt, _, text in bag] == [(animus, f"{animus} {n}") for animus, n in view["bag"].items()]
    assert all(natural for _, natural, _ in bag), bag
    portals = page.eval_on_selector_all("[data-portal]", "ps => ps.map(p => [p.dataset.portal, p.querySelector('.vm-head img.icon')?.alt, "
                                        "p.querySelector('.vm-head img.icon')?.naturalWidth])")
    colours = {p["portal"]: p["colour"] for p in view["row"]}
    assert colours and {name for name, _, _ in portals} >= set(colours)
    for name, alt, natural in portals:
        if name in colours:
            assert alt == f"{colours[name]} portal" and natural, (name, alt, natural)
    spaces = page.eval_on_selector_all("[data-portal] .vm-space", "ss => ss.map(s => [s.dataset.space, s.querySelector('img.icon')?.alt])")
    expected = {f"{p['portal']}.{s['space']}": s["animus"] + (": crystal" if s["crystal"] else "") for p in view["row"] for s in p["spaces"]}
    assert expected and {k: v for k, v in spaces if k in expected} == expected
    fits_and_shot(page, "the Via Magica board scrolls sideways at 390 px", "via-magica-pictures-390.png")


@pytest.mark.parametrize("game_name", ["ravenskeep"])
def test_ravenskeeps_die_shows_the_face_rolled(tablet: Tablet, night: Night, game_name: str) -> None:
    game = night.current
    assert game is not None
    played_until(game, 2, lambda view: view.get("roll") is not None, "a roll")
    rolled = game.view()["roll"]["values"][-1]
    page = pictured(tablet, PHONE, '[data-part="die"] .die-face img.icon')
    alt, natural, src = page.eval_on_selector('[data-part="die"] .die-face img.icon', "i => [i.alt, i.naturalWidth, i.src]")
    assert alt == str(rolled) and natural > 0 and src.endswith(f"/die-{rolled}.svg"), (rolled, alt, src)


@pytest.mark.parametrize("game_name", ["grimoire"])
def test_the_grimoires_elements_are_their_pictures_named_in_both_languages(tablet: Tablet, night: Night, game_name: str) -> None:
    game = night.current
    assert game is not None
    elements = game.view()["elements"]
    page = pictured(tablet, PHONE, ".legend-item img.icon")
    shown = page.eval_on_selector_all(".legend-item img.icon", "is => is.map(i => [i.alt, i.naturalWidth])")
    assert [alt for alt, _ in shown] == [f"{de.capitalize()} · {en}" for de, en in elements.items()]
    assert all(natural for _, natural in shown), shown


def test_the_casting_picker_shows_each_target_as_its_picture(tablet: Tablet, night: Night, settings: Settings) -> None:
    game = night.current
    assert game is not None and game.view()["legal"]["kind"] == "cast"
    controls = tablet.join(settings.join_code)
    controls.wait_for_selector(".picker-row button img.icon")
    controls.wait_for_function("() => [...document.images].every((i) => i.complete)")
    buttons = controls.eval_on_selector_all(".picker-row button[data-target]", """bs => bs.map(b => [b.dataset.target,
      b.querySelector("img.icon")?.alt, b.querySelector("img.icon")?.naturalWidth || 0, b.textContent.trim()])""")
    targets = [b for b in buttons if b[0] != "none"]
    assert targets and all(alt == text and natural > 0 for _, alt, natural, text in targets), targets
    # Each target drawn as what lies there: the picture icons.json gives its kind in the section of its place.
    pictures = json.loads(ICONS_JSON.read_text())["games"]["incantibus"]
    section = {"potion": "potions", "sorcerer": "sorcerers", "book": "books"}
    for target, *_ in targets:
        token = game.view()["legal"]["tokens"][target]
        file = pictures[section.get(token["place"], "tokens")][token["kind"]] if token["kind"] else \
            pictures["unseen"]["face_down_sorcerer" if token["place"] == "sorcerer" else "secret"]
        src = controls.get_attribute(f'.picker-row button[data-target="{target}"] img', "src")
        assert src and src.endswith("/static/icons/" + file), (target, token, src)

    # A tap on a button's picture chooses the button.
    player = game.view()["legal"]["players"][0]
    first = next(t for p, t, *_ in controls.eval_on_selector_all(".picker-row button[data-target]",
                 "bs => bs.map(b => [b.dataset.player, b.dataset.target])") if p == player and t != "none")
    controls.click(f'.picker-row button[data-player="{player}"][data-target="{first}"] img')
    chosen = controls.eval_on_selector_all(f'.picker-row button.chosen[data-player="{player}"]', "bs => bs.map(b => b.dataset.target)")
    assert chosen == [first]


def test_every_token_in_a_satchel_is_its_picture(tablet: Tablet, night: Night) -> None:
    game = night.current
    assert game is not None
    rng = random.Random(4)
    for _ in range(60):  # well into the game: potions, sorcerers and gold in the satchels
        action = game.rules.random_action(game.state, rng)
        if action is None:
            break
        game.propose(action)
    satchels = {p["name"]: {cell: [words(t["kind"]) for t in tokens] for cell, tokens in p["satchel"].items() if tokens}
                for p in game.view()["players"]}
    assert sum(len(cells) for cells in satchels.values()) >= 3, satchels
    page = pictured(tablet, TABLET, ".satchel-tokens img.icon")
    for player, cells in satchels.items():
        for cell, kinds in cells.items():
            shown = page.eval_on_selector_all(f'[data-satchel="{player}"] .satchel-tokens[data-cell="{cell}"] img.icon',
                                              "is => is.map(i => [i.alt, i.naturalWidth])")
            assert [alt for alt, _ in shown] == kinds and all(n for _, n in shown), (player, cell, kinds, shown)


@pytest.mark.parametrize("game_name", ["witchcraft"])
def test_witchcraft_spells_show_their_recipe_as_ingredient_pictures(tablet: Tablet, night: Night, game_name: str) -> None:
    game = night.current
    assert game is not None
    spells = {s["card"]: [words(k, "witchcraft", "ingredient") for k in s["recipe"]] for p in game.view()["players"] for s in p["spells"]}
    page = pictured(tablet, TABLET, "[data-witch] [data-spell] img.icon")
    shown = page.eval_on_selector_all("[data-witch] [data-spell]", """ss => ss.map(s => [s.dataset.spell,
      [...s.querySelectorAll("[data-recipe] img.icon")].map(i => i.alt), [...s.querySelectorAll("img.icon")].every(i => i.naturalWidth > 0)])""")
    assert {card: alts for card, alts, _ in shown} == spells
    assert all(loaded for _, _, loaded in shown), shown


@pytest.mark.parametrize("game_name", ["grimoire"])
def test_the_grimoires_curses_on_the_ritual_circle_show_their_elements_as_pictures(tablet: Tablet, night: Night,
                                                                                   game_name: str) -> None:
    game = night.current
    assert game is not None
    played_until(game, 6, lambda view: any(f["curses"] for f in view["ritual"]["fields"]), "a curse lay on the circle")
    view = game.view()
    curses = {c["id"]: c["elements"] for f in view["ritual"]["fields"] for c in f["curses"]}
    pictures = json.loads(ICONS_JSON.read_text())["games"]["grimoire"]["elements"]
    page = sized(tablet, "/", TABLET)
    page.wait_for_selector(".ritual-circle .curse image.element-picture")
    drawn = page.eval_on_selector_all(".ritual-circle .curse", """cs => cs.map(c => [c.dataset.curse,
      [...c.querySelectorAll("image.element-picture")].map(i => [i.dataset.element, i.getAttribute("href"), i.getAttribute("aria-label")]),
      c.querySelectorAll(".element-letter").length])""")
    assert {curse: [e for e, _, _ in images] for curse, images, _ in drawn} == curses
    assert all(letters == 0 for _, _, letters in drawn), "a curse still shows a letter where its picture is"
    for _, images, _ in drawn:
        for element, href, label in images:
            assert href == f"/static/icons/{pictures[element]}", (element, href)
            assert label == f"{element.capitalize()} · {view['elements'][element]}", (element, label)
            assert page.request.get(tablet.base + href).ok, href
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "grimoire-curses-1024.png"), full_page=True)


def test_incantibus_last_casting_names_each_token_with_its_picture(tablet: Tablet, night: Night) -> None:
    game = night.current
    assert game is not None
    played_until(game, 9, lambda view: bool((view.get("last_cast") or {}).get("claims")), "a casting claimed a token")
    claims = game.view()["last_cast"]["claims"]
    page = pictured(tablet, TABLET, ".cast-lines li[data-target] .cast-token img.icon")
    lines = page.eval_on_selector_all(".cast-lines li[data-target]", """ls => ls.map(l => {
      const img = l.querySelector(".cast-token img.icon");
      return [l.dataset.target, img?.alt, img?.naturalWidth || 0, l.textContent];
    })""")
    assert [target for target, *_ in lines] == [c["target"] for c in claims]
    for target, alt, natural, text in lines:
        assert alt and natural > 0, (target, alt, natural)
        assert f"→ {alt}" in text, f"the picture of {target} is not named as the line names it: {alt!r} in {text!r}"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".cast-lines").first.screenshot(path=str(SCREENSHOTS / "incantibus-last-casting-1024.png"))


@pytest.mark.parametrize("game_name", ["grimoire"])
def test_the_grimoires_curse_lines_show_each_curses_elements_as_pictures(tablet: Tablet, night: Night, game_name: str) -> None:
    game = night.current
    assert game is not None
    played_until(game, 6, lambda view: any(f["curses"] for f in view["ritual"]["fields"]), "a curse lay on the circle")
    on_circle = {" ".join(c["elements"]) for f in game.view()["ritual"]["fields"] for c in f["curses"]}
    page = pictured(tablet, TABLET, '.grimoire-notes li[data-event="curse"] .curse-pictures img.icon')
    lines = page.eval_on_selector_all('.grimoire-notes li[data-event="curse"]', """ls => ls.map(l => {
      const row = l.querySelector(".curse-pictures");
      return [row?.dataset.elements, [...l.querySelectorAll("img.icon")].map(i => i.naturalWidth > 0)];
    })""")
    assert lines and all(elements in on_circle and loaded and all(loaded) for elements, loaded in lines), lines

"""Via Magica's and Witchcraft's pages in Debian's Chromium at tablet size: real uvicorn, real pages,
taps on the controls changing the game, the board following, screenshots, type readable across a table."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import pytest

from companion.engine.game import Game
from companion.night import Night
from companion.web.settings import Settings

from .conftest import IN_CHROMIUM, joined_tablet, wait_version

TABLET = {"width": 1280, "height": 800}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
ACROSS_THE_TABLE_PX = 36  # the Catcher's token and the scores are read from the far side of the table

pytestmark = IN_CHROMIUM


@pytest.fixture
def tablet(chromium: Any, server: str, settings: Settings) -> Iterator[Any]:
    """A tablet that joined: its controls page and its board page; no script error allowed."""
    with joined_tablet(chromium, server, settings.join_code, TABLET) as open_page:
        yield open_page


def bots_until(game: Game, kind: str, seed: int = 5, limit: int = 2000) -> None:
    rng = random.Random(seed)
    for _ in range(limit):
        if game.view()["legal"]["kind"] == kind:
            return
        action = game.rules.random_action(game.state, rng)
        assert action is not None, f"the game ended before a {kind!r} prompt"
        game.propose(action)
    raise AssertionError(f"no {kind!r} prompt in {limit} actions")


def font_px(page: Any, selector: str) -> float:
    return float(page.eval_on_selector(selector, "n => parseFloat(getComputedStyle(n).fontSize)"))


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, animations="disabled")


# -- Via Magica --------------------------------------------------------------------------------------

@pytest.mark.parametrize("game_name", ["via_magica"])
def test_via_magica_keep_draw_and_place_a_crystal_in_taps(tablet: Any, night: Night, game_name: str) -> None:
    game = night.current
    assert game is not None
    controls, board = tablet("/controls"), tablet("/")
    first = game.players[0]
    hand = game.view()["legal"]["hands"][first]
    kept = list({p[:3]: p for p in reversed(hand)}.values())[:3]
    for portal in kept:
        controls.click(f'[data-keep="{portal}"]')
    controls.click(f'[data-do="keep"][data-player="{first}"]')
    wait_version(board, 1)
    assert game.state.areas[first] == tuple(kept)
    bots_until(game, "draw")
    version = game.version
    controls.wait_for_selector('[data-do="draw"]')
    controls.click('[data-do="draw"]')  # Incanto is the bag
    wait_version(board, version + 1)
    token = game.state.token
    board.wait_for_selector(f'[data-part="the-bag"] .vm-big[data-animus="{token}"]')
    assert font_px(board, '[data-part="the-bag"] .vm-big') >= ACROSS_THE_TABLE_PX
    assert font_px(board, '[data-part="scores"] .points') >= ACROSS_THE_TABLE_PX
    legal = game.view()["legal"]
    placer = next((p for p in legal["waiting"] if legal["targets"][p] and legal["stockpile"][p]), None)
    if placer is not None:  # a Wildcard or a matching space: one tap places a crystal from the stockpile
        space = legal["targets"][placer][0]
        controls.click(f'[data-placing="{placer}"] button[data-space="{space["portal"]}.{space["space"]}"]')
        wait_version(board, version + 2)
        board.wait_for_selector(f'[data-player-portals="{placer}"] .vm-space.on[data-space="{space["portal"]}.{space["space"]}"]')
        assert game.state.stockpiles[placer] == 6
    screenshot(board, "via_magica-board")
    screenshot(controls, "via_magica-controls")


@pytest.mark.parametrize("game_name", ["via_magica"])
def test_via_magica_incantatum_tap_plays_the_openers_in_order(tablet: Any, night: Night, game_name: str) -> None:
    game = night.current
    assert game is not None
    rng = random.Random(2)
    for _ in range(3000):  # bots play until someone's portal is full and INCANTATUM! is awaited
        legal = game.view()["legal"]
        if legal["kind"] == "crystallize" and legal["openers"] and not [p for p in legal["waiting"] if legal["targets"][p]]:
            break
        action = game.rules.random_action(game.state, rng)
        assert action is not None
        game.propose(action)
    opener = legal["openers"][0]
    controls, board = tablet("/controls"), tablet("/")
    version = game.version  # read before the tap: after it, the tap may or may not have landed yet
    controls.click(f'[data-do="incantatum"][data-player="{opener}"]')
    wait_version(board, version + 1)
    assert board.locator('[data-event="incantatum"]').inner_text().startswith("INCANTATUM! " + opener)
    assert any(e["event"] == "opened" and e["player"] == opener for e in game.view()["last_turn"]["events"])
    screenshot(board, "via_magica-board-incantatum")


# -- Witchcraft ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("game_name", ["witchcraft"])
def test_witchcraft_a_buy_in_taps_pays_crystals_and_the_board_follows(tablet: Any, night: Night, game_name: str) -> None:
    game = night.current
    assert game is not None
    controls, board = tablet("/controls"), tablet("/")
    witch = game.view()["legal"]["witch"]
    market = game.state.on_market
    owed = sum(1 for s in (0, 1) if market[s] == 0)
    before = game.state.crystals[witch]
    for space in (0, 1):
        controls.click(f'[data-part="buyer"] button[data-space="{space}"]')
    controls.click('[data-do="crystals-mode"]')
    for space in (8, 7)[:owed]:
        controls.click(f'[data-part="buyer"] button[data-space="{space}"]')
    controls.click('[data-do="buy"]')
    wait_version(board, 1)
    assert game.state.crystals[witch] == before - owed + market[0] + market[1]
    assert game.state.on_market[7:] == (market[7] + (owed > 1), market[8] + (owed > 0))
    assert board.locator('[data-event="bought"]').inner_text().startswith(f"{witch} buys 2 cards")
    assert font_px(board, '[data-part="scores"] .points') >= ACROSS_THE_TABLE_PX
    screenshot(board, "witchcraft-board")
    screenshot(controls, "witchcraft-controls")


@pytest.mark.parametrize("game_name", ["witchcraft"])
def test_witchcraft_a_refused_buy_says_why_and_changes_nothing(tablet: Any, night: Night, game_name: str) -> None:
    game = night.current
    assert game is not None
    controls = tablet("/controls")
    for space in (0, 4):  # diagonal: not adjacent in a row or a column
        controls.click(f'[data-part="buyer"] button[data-space="{space}"]')
    controls.click('[data-do="buy"]')
    controls.wait_for_function("() => document.querySelector('#refusal').textContent.includes('adjacent')")
    assert game.version == 0
    controls.click('[data-do="take_crystals"]')
    controls.wait_for_function("() => window.incanto.model.game.version === 1")
    assert game.view()["last_turn"]["events"][-1]["event"] == "crystals"


@pytest.mark.parametrize("game_name", ["witchcraft"])
def test_witchcraft_the_cats_extra_ingredient_rides_along_with_taking_crystals(tablet: Any, night: Night,
                                                                               game_name: str) -> None:
    witches = {"Lera": "brave", "Kirill": "honest", "Katya": "kind", "Rosa": "curious"}
    players = {p: {"witch": w, "crystals": 8 if w == "honest" else 4} for p, w in witches.items()}
    players["Lera"]["familiars"] = ["cat"]
    market = ["I41", "I42", "I43", "I71", "J1", "I01", "I51", "I52", "I53"]
    game = night.start_game("witchcraft", list(witches), {}, seed=3,
                            position={"turn": "Lera", "market": market, "players": players})
    controls = tablet("/controls")
    controls.wait_for_selector('[data-do="take_crystals"]')
    controls.click('[data-part="buyer"] button[data-space="3"]')
    controls.click('[data-do="crystals-mode"]')
    controls.click('[data-part="buyer"] button[data-space="0"]')
    controls.click('[data-do="take_crystals"]')
    controls.wait_for_function("() => window.incanto.model.game.version === 1")
    assert game.state.crystals["Lera"] == 4 + 2 - 1 and game.state.on_market[0] == 1
    assert "I71" in game.state.inventory["Lera"]  # the spider: no spell of hers needs it


@pytest.mark.parametrize("game_name", ["via_magica"])
def test_via_magica_the_tables_own_deal_is_entered_on_the_controls(tablet: Any, night: Night, game_name: str) -> None:
    players = ["Lera", "Kirill", "Katya", "Rosa"]
    game = night.start_game("via_magica", players, {"portals": "table", "draws": "table"}, seed=3)
    controls = tablet("/controls")
    controls.wait_for_selector('[data-do="dealt"]')
    deal = {"row": ["P20", "P21", "P22", "P23", "P24"], "Lera": ["P01", "P02", "P03"], "Kirill": ["P04", "P05", "P06"],
            "Katya": ["P07", "P08", "P09"], "Rosa": ["P10", "P11", "P12"]}
    for i, design in enumerate(deal["row"]):
        controls.select_option(f'select[name="row-{i}"]', design)
    for player in players:
        for i, design in enumerate(deal[player]):
            controls.select_option(f'select[name="{player}-{i}"]', design)
    controls.click('[data-do="dealt"]')
    controls.wait_for_selector('[data-do="draw"][data-animus="Air"]')
    assert game.state.row == ("P20a", "P21a", "P22a", "P23a", "P24a")
    assert game.state.areas["Katya"] == ("P07a", "P08a", "P09a")
    controls.click('[data-do="draw"][data-animus="Shadow"]')  # the Catcher drew the Shadow from the real bag
    controls.wait_for_function("() => window.incanto.model.game.token === 'Shadow'")


@pytest.mark.parametrize("game_name", ["via_magica"])
def test_via_magica_a_slower_player_places_on_the_controls_while_the_openers_play(tablet: Any, night: Night,
                                                                                  game_name: str) -> None:
    players = {"Lera": {"stockpile": 5, "area": {"P36a": [0, 1]}}, "Kirill": {"stockpile": 5, "area": {"P36b": [0, 1]}},
               "Katya": {"stockpile": 5, "area": {"P37a": [0, 1]}}, "Rosa": {"stockpile": 7, "area": {"P34a": []}}}
    position = {"catcher": "Lera", "row": ["P20a", "P21a", "P22a", "P23a", "P24a"], "players": players}
    game = night.start_game("via_magica", list(players), {"draws": "table"}, seed=3, position=position)
    for action in ({"type": "draw", "animus": "Fire"},
                   {"type": "crystal", "player": "Kirill", "to": {"portal": "P36b", "space": 2}},
                   {"type": "incantatum", "first": "Kirill"}):
        game.propose(action)
    controls = tablet("/controls")
    controls.wait_for_selector('[data-placing="Katya"] button[data-space="P37a.2"]')
    controls.click('[data-placing="Katya"] button[data-space="P37a.2"]')
    controls.wait_for_function("() => window.incanto.model.game.order.join() === 'Kirill,Katya'")
    controls.click('[data-do="portal"][data-portal="P20a"]')  # Kirill takes his new portal; Katya plays next
    controls.wait_for_function("() => window.incanto.model.game.legal.player === 'Katya'")

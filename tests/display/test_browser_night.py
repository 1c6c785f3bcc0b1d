"""The host's night page and the game's end, in Debian's Chromium at tablet size: each game started with
options other than the rulebook's defaults, seats and the first player tapped; a game abandoned (the page
asks first) and resumed; the winner at the top of the board and the controls when a game ends."""
from __future__ import annotations

import random
from typing import Any
from collections.abc import Iterator

import pytest

from companion.night import Night
from companion.web.settings import Settings

from .conftest import IN_CHROMIUM, without_page_errors
from .test_browser import TABLET, Tablet, screenshot, wait_live

pytestmark = IN_CHROMIUM


@pytest.fixture
def game_name() -> str:
    return "incantibus"


@pytest.fixture
def host(chromium: Any, server: str, settings: Settings) -> Iterator[Any]:
    with without_page_errors(Tablet(chromium, server)) as tablet:
        tablet.join(settings.join_code)
        yield tablet


def night_page(tablet: Any) -> Any:
    page = tablet.open("/night")
    wait_live(page)
    page.wait_for_selector('[data-part="next-game"] [data-do="start"]')
    return page


def seat(page: Any, players: list[str]) -> None:
    """Unseat everyone, then tap the players in seat order."""
    for name in page.eval_on_selector_all(".seat-choice button.chosen[data-name]", "bs => bs.map(b => b.dataset.name)"):
        page.click(f'.seat-choice button[data-name="{name}"]')
    for name in players:
        page.click(f'.seat-choice button[data-name="{name}"]')


def start_anyway(page: Any) -> None:
    page.click('[data-do="start"]')
    page.click('[data-do="start-anyway"]')  # a game is running: the page asks first
    page.wait_for_url("**/controls")


def option(page: Any, key: str, value: str) -> None:
    page.click(f'[data-option="{key}"] button[data-value="{value}"]')


# Each game with options other than its rulebook's defaults, chosen by tapping. The draws default to the
# table's (the group owns the box) and are always sent; "by Incanto" is the choice a host taps.
CHOICES: dict[str, tuple[list[str], list[tuple[str, str]], dict[str, Any]]] = {
    "grimoire": (["Katya", "Lera"], [("difficulty", "schwer"), ("draws", "companion"), ("first", "Lera")],
                 {"difficulty": "schwer", "draws": "companion", "first": "Lera"}),
    "incantibus": (["Rosa", "Kirill", "Lera"], [("expert", "true"), ("draws", "companion")],
                   {"expert": True, "draws": "companion"}),
    "ravenskeep": (["Kirill", "Katya"], [("first", "Katya")], {"first": "Katya", "dice": "table"}),
    "via_magica": (["Lera", "Kirill", "Katya", "Rosa"], [("deal", "random"), ("portals", "companion"), ("catcher", "Rosa")],
                   {"deal": "random", "portals": "companion", "draws": "table", "catcher": "Rosa"}),
    "witchcraft": (["Lera", "Rosa"], [("first", "Rosa"), ("draws", "companion")],
                   {"first": "Rosa", "draws": "companion", "witches": {"Lera": "kind", "Rosa": "brave"}}),
}


def test_each_game_is_started_from_the_night_page_with_its_options(host: Any, night: Night) -> None:
    for name, (players, taps, expected) in CHOICES.items():
        page = night_page(host)
        page.click(f'.game-choice button[data-game="{name}"]')
        seat(page, players)
        assert page.eval_on_selector_all("ol.seats li", "ls => ls.map(l => l.textContent)") == players
        for key, value in taps:
            option(page, key, value)
        if name == "witchcraft":  # each witch chosen for her player
            page.select_option('[data-option="witches"] select[data-assign="Lera"]', "kind")
            page.select_option('[data-option="witches"] select[data-assign="Rosa"]', "brave")
        if name == "grimoire":
            screenshot(page, "night-page-grimoire-options")
        start_anyway(page)
        game = night.current
        assert game is not None and game.rules.name == name
        assert game.players == players and game.options == expected, name
        page.close()
    # the defaults are the rulebook's: a start with nothing tapped sends no option but the table's die
    page = night_page(host)
    page.click('.game-choice button[data-game="ravenskeep"]')
    start_anyway(page)
    assert night.current is not None and night.current.options == {"dice": "table"}


def test_a_half_given_witch_list_is_refused_on_the_page(host: Any, night: Night) -> None:
    page = night_page(host)
    page.click('.game-choice button[data-game="witchcraft"]')
    seat(page, ["Lera", "Rosa"])
    page.select_option('[data-option="witches"] select[data-assign="Lera"]', "kind")
    page.click('[data-do="start"]')
    page.click('[data-do="start-anyway"]')
    assert "give every seated player one" in page.inner_text("#night-refusal")
    assert night.current is not None and night.current.rules.name == "incantibus"


def test_starting_over_a_running_game_asks_and_the_left_game_is_resumed(host: Any, night: Night) -> None:
    first = night.current
    assert first is not None
    rng = random.Random(3)
    for _ in range(3):
        first.propose(first.rules.random_action(first.state, rng))  # type: ignore[arg-type]
    page = night_page(host)
    page.click('.game-choice button[data-game="ravenskeep"]')
    page.click('[data-do="start"]')
    asked = page.inner_text('[data-part="confirm-start"]')
    assert "Incantibus" in asked and "not finished" in asked
    page.click('[data-do="keep-playing"]')  # changed their mind: nothing started
    assert night.current is first and len(night.played()) == 1
    start_anyway(page)
    assert night.current is not first and night.current.rules.name == "ravenskeep"  # type: ignore[union-attr]
    page = night_page(host)
    first_id = night.played()[0][0]
    page.click(f'button[data-resume="{first_id}"]')
    page.wait_for_url("**/controls")
    assert night.current is first and first.version == 3
    board = host.open("/")
    wait_live(board)
    board.wait_for_function("v => window.incanto.model.game && window.incanto.model.game.version === v", arg=3)
    assert board.evaluate("window.incanto.model.game.game") == "incantibus"


ROWS = "rs => rs.map(r => [r.dataset.player, r.querySelector('.final-score').textContent, r.querySelector('.parts').textContent])"


def test_the_winner_is_the_first_thing_on_the_board_and_the_controls(host: Any, night: Night) -> None:
    board = host.open("/")
    wait_live(board)
    controls = host.open("/controls")
    wait_live(controls)
    game = night.current
    assert game is not None
    rng = random.Random(5)
    while (action := game.rules.random_action(game.state, rng)) is not None:
        game.propose(action)
    winner = game.rules.ranking(game.state)[0]
    for page in (board, controls):
        page.wait_for_selector('[data-part="ending"]')
        first = page.eval_on_selector("main", "m => m.firstElementChild.dataset.part")
        assert first == "ending"
        headline = page.locator('[data-part="ending"] .winners')
        assert winner in (headline.text_content() or "")
        box = headline.bounding_box()
        assert box is not None and box["y"] + box["height"] <= TABLET["height"]  # above the fold
        rows = page.eval_on_selector_all('[data-part="ending"] tr[data-player]', ROWS)
        assert [r[0] for r in rows] == game.rules.ranking(game.state)
        assert {r[0]: int(r[1]) for r in rows} == game.rules.score(game.state)
        assert all(r[2] for r in rows)  # each score with its parts (the rulebook's categories)
        screenshot(page, "ending-" + ("board" if page is board else "controls"))
    controls.click('[data-do="same-players"]')
    board.wait_for_function("() => window.incanto.model.game && !window.incanto.model.game.over")
    assert night.current is not game and night.current.players == game.players  # type: ignore[union-attr]
    assert board.locator('[data-part="ending"]').count() == 0


def test_a_grimoire_the_table_lost_says_so_first_with_each_players_madness(host: Any, night: Night) -> None:
    game = night.start_game("grimoire", ["Lera", "Kirill"], seed=5)
    rng = random.Random(5)
    while (action := game.rules.random_action(game.state, rng)) is not None:
        game.propose(action)
    assert game.state.outcome == "lost"  # this seed: the final monster escapes
    board = host.open("/")
    wait_live(board)
    board.wait_for_selector('[data-part="ending"]')
    assert board.eval_on_selector("main", "m => m.firstElementChild.dataset.part") == "ending"
    assert "beat the table" in (board.locator('[data-part="ending"] .winners').text_content() or "")
    parts = board.eval_on_selector_all('[data-part="ending"] .parts', "ps => ps.map(p => p.textContent)")
    assert len(parts) == 2 and all("monsters banished" in p and "madness" in p for p in parts)


def test_a_name_being_typed_survives_the_game_moving_on(host: Any, night: Night) -> None:
    page = night_page(host)
    page.click("#new-player")
    page.keyboard.type("Zo")
    game = night.current
    assert game is not None
    rng = random.Random(2)
    for _ in range(2):
        game.propose(game.rules.random_action(game.state, rng))  # type: ignore[arg-type]
    page.wait_for_function("v => window.incanto.model.game.version === v", arg=2)
    page.keyboard.type("ë")
    assert page.input_value("#new-player") == "Zoë"
    page.keyboard.press("Enter")
    assert page.eval_on_selector_all("ol.seats li", "ls => ls.map(l => l.textContent)")[-1] == "Zoë"

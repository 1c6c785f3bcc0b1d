"""The table's own cards and die on the controls page, in Debian's Chromium at tablet size: a Witchcraft
card turned up and a Ravenskeep die face are entered from the pickers, which offer only what can still
come up."""
from __future__ import annotations

import random
from typing import Any
from collections.abc import Iterator

import pytest

from companion.night import Night
from companion.web.settings import Settings

from .conftest import IN_CHROMIUM, joined_tablet, wait_version

TABLET = {"width": 1280, "height": 800}

pytestmark = IN_CHROMIUM


@pytest.fixture
def tablet(chromium: Any, server: str, settings: Settings) -> Iterator[Any]:
    """A tablet that joined: its controls page; no script error allowed."""
    with joined_tablet(chromium, server, settings.join_code, TABLET) as open_page:
        yield open_page


@pytest.mark.parametrize("game_name", ["witchcraft"])
def test_witchcraft_a_card_the_table_turned_up_is_entered_from_the_picker(tablet: Any, night: Night,
                                                                          game_name: str) -> None:
    witches = {"Lera": "brave", "Kirill": "honest", "Katya": "kind", "Rosa": "curious"}
    game = night.start_game("witchcraft", list(witches), {"draws": "table", "witches": witches}, seed=3)
    controls = tablet("/controls")
    # the market is laid out from the real deck: the picker offers every design once, with how many
    controls.wait_for_selector('[data-part="pick-card"] button[data-card="I01"]')
    version = game.version
    controls.click('[data-part="pick-card"] button[data-card="I01"]')
    wait_version(controls, version + 1)
    assert game.state.market[0] == "I01"
    # the moonflower just laid out is no longer offered: the next one of its kind is
    controls.wait_for_selector('[data-part="pick-card"] button[data-card="I02"]')
    assert controls.query_selector('[data-part="pick-card"] button[data-card="I01"]') is None
    rng = random.Random(3)
    while game.state.dealing:  # the rest of the setup as a table would enter it
        game.propose(game.rules.random_action(game.state, rng) or {})
    # Lera (the Brave) takes a familiar: the tablet asks which lay on top of the real stack
    controls.wait_for_selector('[data-do="take_familiar"]')
    controls.click('[data-do="take_familiar"]')
    top = next(f for f in game.state.familiar_stack)
    version = game.version
    controls.click(f'[data-part="pick-familiar"] button[data-familiar="{top}"]')
    wait_version(controls, version + 1)
    assert top in game.state.familiars["Lera"] and top not in game.state.familiar_stack


@pytest.mark.parametrize("game_name", ["ravenskeep"])
def test_ravenskeep_a_face_of_the_tables_die_is_entered_from_the_picker(tablet: Any, night: Night,
                                                                        game_name: str) -> None:
    game = night.start_game("ravenskeep", ["Lera", "Kirill", "Katya"], {"dice": "table", "first": "Lera"}, seed=3)
    controls = tablet("/controls")
    controls.wait_for_selector('[data-do="roll"][data-card="wizard-dice-2"]')
    controls.click('[data-do="roll"][data-card="wizard-dice-2"]')
    faces = controls.eval_on_selector_all('[data-do="face"]', "ns => ns.map(n => n.dataset.face)")
    assert faces == ["1", "2", "3", "4", "5", "6"]  # the die's faces, no others
    version = game.version
    controls.click('[data-do="face"][data-face="2"]')
    wait_version(controls, version + 1)
    assert game.state.roll is not None and game.state.roll.values == (2,)
    controls.click('[data-do="reroll"]')
    controls.click('[data-do="face"][data-face="5"]')
    wait_version(controls, version + 2)
    assert game.state.roll.values == (2, 5) and game.state.roll.rerolls_left == 0


@pytest.mark.parametrize("game_name", ["witchcraft"])
def test_witchcraft_with_incantos_deck_the_tablet_says_what_to_lay_out(tablet: Any, night: Night,
                                                                       game_name: str) -> None:
    witches = {"Lera": "brave", "Kirill": "honest"}
    game = night.start_game("witchcraft", list(witches), {"draws": "companion", "witches": witches}, seed=3)
    controls = tablet("/controls")
    said = controls.inner_text('[data-part="lay-out"]')
    market = game.view()["market"]
    assert all(f"space {s['space']}" in said for s in market)  # the whole market, the first time
    version = game.version
    controls.click('[data-do="take_crystals"]')  # nothing new is turned up: nothing to lay out
    wait_version(controls, version + 1)
    assert controls.query_selector('[data-part="lay-out"]') is None
    assert controls.query_selector('[data-part="pick-card"]') is None  # Incanto's deck: no picker

"""Ravenskeep's bottle is the mover's choice ("you may fill one of your empty potion bottles"): on the
controls page, in Debian's Chromium at tablet size, a player with an empty bottle unticks "Fill a bottle
if this tower imprisons wizards" before moving a tower onto wizards, and the bottle stays empty."""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion import words
from companion.night import Night
from companion.web.settings import Settings

from .conftest import IN_CHROMIUM

pytestmark = IN_CHROMIUM
TABLET = {"width": 1024, "height": 768}
PLAYERS = ["Lera", "Kirill", "Katya"]


@pytest.fixture
def controls(chromium: Any, server: str, settings: Settings) -> Iterator[Any]:
    """A tablet's controls page, joined; no script error allowed."""
    context = chromium.new_context(viewport=TABLET, locale="en-GB")
    context.set_default_timeout(10_000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/join?code={settings.join_code}")
    page.wait_for_url("**/controls")
    page.wait_for_selector('#connection[data-state="live"]')
    yield page
    assert errors == [], errors
    context.close()


def sent(page: Any, version: int) -> None:
    page.wait_for_function("v => window.incanto.model.game && window.incanto.model.game.version === v", arg=version)


def test_a_player_declines_the_bottle_and_it_stays_empty(controls: Any, night: Night) -> None:
    # Seed 1: Lera's tower 1, moved one space, lands on wizards.
    game = night.start_game("ravenskeep", PLAYERS, {"first": "Lera", "dice": "companion"}, seed=1)
    empty = game.state.players[0].empty
    controls.wait_for_selector('[data-part="fill"] input[data-do="fill"]')
    assert controls.inner_text('[data-part="fill"]').strip() == words.say("en", "ravenskeep.fill")
    assert controls.is_checked('[data-do="fill"]')  # on by default
    controls.uncheck('[data-do="fill"]')
    controls.click('[data-do="card"][data-card="tower-1"]')
    controls.click('[data-do="piece"][data-piece="T1"]')
    sent(controls, 1)
    assert game.state.players[0].empty == empty and game.state.players[0].full == 0
    notes = [n["event"] for n in game.view()["notes"]]
    assert "fill_declined" in notes and "filled" not in notes
    history = controls.inner_text('[data-part="history"]')
    assert re.search(r"Lera plays a 1, moves tower 1 and leaves the bottle empty", history), history


def test_by_default_the_bottle_is_filled(controls: Any, night: Night) -> None:
    game = night.start_game("ravenskeep", PLAYERS, {"first": "Lera", "dice": "companion"}, seed=1)
    controls.wait_for_selector('[data-do="fill"]')
    controls.click('[data-do="card"][data-card="tower-1"]')
    controls.click('[data-do="piece"][data-piece="T1"]')
    sent(controls, 1)
    assert game.state.players[0].full == 1
    assert "filled" in [n["event"] for n in game.view()["notes"]]


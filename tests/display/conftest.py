"""Fixtures for the display's tests: a real SQLite store, a real night, and the Counting game."""
from __future__ import annotations

import importlib.util
import os
import re
import sys
import warnings
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from fastapi import FastAPI
from starlette.exceptions import StarletteDeprecationWarning

from companion import games
from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.web.app import create_app
from companion.web.serve import running
from companion.web.settings import Settings

with warnings.catch_warnings():  # Starlette says its TestClient will move to httpx2; nothing here depends on it
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from fastapi.testclient import TestClient

HERE = Path(__file__).resolve().parent
CODE = "424242"
PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]


def load_here(stem: str) -> Any:
    """A helper module of this folder (tests run with --import-mode=importlib, so no sys.path)."""
    name = f"incanto_display_{stem}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / f"{stem}.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(autouse=True)
def counting_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register Counting beside the real games, as a game module would be."""
    monkeypatch.setitem(games.MODULES, "counting", load_here("counting").__name__)


@pytest.fixture
def wire() -> Iterator[Any]:
    """Make a cuttable TCP relay to a port (see wire.py); every relay is cut at the end."""
    made: list[Any] = []

    def make(port: int) -> Any:
        made.append(load_here("wire").Wire(port))
        return made[-1]

    yield make
    for w in made:
        w.cut()


@pytest.fixture
def game_name() -> str:
    """The game on the table: Counting here; the end-to-end tests play Incantibus."""
    return "counting"


@pytest.fixture
def night(store: Store, game_name: str) -> Night:
    night = Night.resume_or_start(store, "Test night")
    night.start_game(game_name, PLAYERS, seed=7)
    return night


@pytest.fixture
def status() -> StatusBoard:
    return StatusBoard()


@pytest.fixture
def settings() -> Settings:
    return Settings(join_code=CODE, actions_per_minute=600, send_timeout_s=1.0)


@pytest.fixture
def app(night: Night, status: StatusBoard, settings: Settings) -> FastAPI:
    return create_app(night, status, settings)


@pytest.fixture
def watcher(app: FastAPI) -> Iterator[TestClient]:
    """A tablet that has not joined: it may watch, never change."""
    with TestClient(app) as client:
        yield client


@pytest.fixture
def tablet(app: FastAPI, watcher: TestClient) -> TestClient:
    """A tablet that typed the join code (shares the app's running lifespan with ``watcher``)."""
    client = TestClient(app)
    client.portal = watcher.portal  # type: ignore[attr-defined]
    response = client.post("/api/session", json={"code": CODE})
    assert response.status_code == 200, response.text
    return client


@pytest.fixture
def tableside(app: FastAPI, status: StatusBoard) -> Iterator[Any]:
    """The table side wired to the display as ``serve`` wires it: the wand buttons on gpiozero's mock
    pins, no camera and no microphone, so a cue is heard and read (the reading says there is no camera)."""
    from gpiozero.pins.mock import MockFactory

    from companion.tableside import TableSide, TableSideConfig
    from companion.web.routers.cue import attach

    side = TableSide(app.state.table, status, TableSideConfig(hub="gpio", camera="none", mic=False),
                     publish=app.state.hub.publish, gpio_factory=MockFactory())
    attach(app, side.cue)
    with side:
        yield side


# Debian's Chromium, driven by Playwright (no downloaded browser); shared by the page tests.
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]
IN_CHROMIUM = [pytest.mark.browser,
               pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"Debian's Chromium is not installed at {CHROMIUM}")]


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def server(app: FastAPI) -> Iterator[str]:
    """The display served by a real uvicorn on a free port."""
    with running(app) as url:
        yield url


# What the Chromium tests share: pages opened with their script errors collected, a tablet that joined,
# and waiting for a game's version.

def opened(chromium: Any, server: str, path: str, viewport: dict[str, int], errors: list[str]) -> Any:
    """A page of its own context at ``path``, connected; its script errors go to ``errors``."""
    context = chromium.new_context(viewport=viewport)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + path)
    page.wait_for_selector('#connection[data-state="live"]')
    return page


@contextmanager
def joined_tablet(chromium: Any, server: str, join_code: str, viewport: dict[str, int]) -> Iterator[Callable[[str], Any]]:
    """A tablet that joined with ``join_code``: it opens its pages, each connected and drawn; afterwards no
    script error, nor a load that found nothing or broke the server, is allowed in any of them."""
    context = chromium.new_context(viewport=viewport)
    context.set_default_timeout(10_000)
    errors: list[str] = []

    def open_page(path: str) -> Any:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text)
                if m.type == "error" and re.search(r"status of (404|5\d\d)", m.text) else None)
        page.goto(server + path)
        page.wait_for_selector('#connection[data-state="live"]')
        page.wait_for_selector("main > section")
        return page

    join = context.new_page()
    join.goto(f"{server}/join?code={join_code}")
    join.wait_for_url("**/controls")
    join.close()
    yield open_page
    assert errors == [], f"errors in a page: {errors}"
    context.close()


@contextmanager
def without_page_errors(tablet: Any) -> Iterator[Any]:
    """A tablet (``test_browser.Tablet``) used, then no error allowed in its pages, and its context closed."""
    yield tablet
    assert tablet.errors == [], f"errors in a page: {tablet.errors}"
    tablet.context.close()


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function("v => window.incanto.model.game && window.incanto.model.game.version === v", arg=version)

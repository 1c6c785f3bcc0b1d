"""The display under the second round of hostile and careless input (issue 21): a join code spammed
from many addresses, a redirect to another site, a game start cut in half, settings that bite later."""
from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from companion.engine.events import Event
from companion.night import Night
from companion.store import Store
from companion.web.ratelimit import JoinGuard
from companion.web.serve import running
from companion.web.settings import Settings

from .conftest import CHROMIUM


# -- 9: a game start is one transaction ------------------------------------------------------------

def test_a_start_that_fails_between_the_games_row_and_its_setup_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "night.sqlite"
    with Store(path) as store:
        night = store.new_night("Test night")
        unwritable: Any = {"players": {"Lera", "Kirill"}}  # a set: the setup entry fails after the games row
        with pytest.raises(TypeError):
            store.new_game(night, "counting", Event(0, "setup", unwritable, None, 0.0))
        assert store.games(night) == []
        good = store.new_game(night, "counting", Event(0, "setup", {"players": ["Lera"]}, None, 0.0))
        assert [g["id"] for g in store.games(night)] == [good]
    with sqlite3.connect(path) as db:  # nothing for the next open to repair: no row was ever committed
        assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)
    with Store(path) as store:
        assert store.notices == []


# -- 1: joining under spam ---------------------------------------------------------------------------

def at(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address))


def test_wrong_codes_from_ten_addresses_keep_no_tablet_the_pi_or_a_new_code_out(app: FastAPI, settings: Settings) -> None:
    spammers = [at(f"127.0.0.{n}") for n in range(10, 20)]
    tablet, pi = at("127.0.0.3"), at("127.0.0.1")
    with running(app) as url:
        joined, tries, guessed, paused = 0, 0, 0, set()
        for round_ in range(20):  # 200 wrong codes, each sent as soon as the last was answered
            for n, spammer in enumerate(spammers):
                answer = spammer.post(f"{url}/api/session", json={"code": f"{round_ * 10 + n:06d}"})
                guessed += answer.status_code == 403  # checked (and wrong), as opposed to refused unchecked
                paused |= {n} if answer.status_code == 429 else set()
                assert answer.status_code in (403, 429)
            tries += 1
            joined += tablet.post(f"{url}/api/session", json={"code": settings.join_code}).status_code == 200
        assert (joined, tries) == (20, 20)
        assert guessed <= settings.join_failures_per_minute + 10 * JoinGuard.FREE_WRONG  # a few tries each, then paused

        assert pi.post(f"{url}/api/session", json={"code": "999999"}).status_code == 403  # the host mistypes too
        assert pi.post(f"{url}/api/session", json={"code": settings.join_code}).status_code == 200
        new = pi.post(f"{url}/api/session/code", json={}).json()["code"]
        assert at("127.0.0.4").post(f"{url}/api/session", json={"code": new}).status_code == 200
        assert paused == set(range(10))  # every spamming address was paused along the way


# -- 7: /join?next= goes only to a page of this display -----------------------------------------------

@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"Debian's Chromium is not installed at {CHROMIUM}")
@pytest.mark.parametrize("wanted, lands", [
    ("//example.invalid/phish", "/controls"), ("/%2F/example.invalid", "/%2F/example.invalid"),
    ("/\\\\example.invalid", "/controls"), ("https://example.invalid/", "/controls"),
    ("javascript:alert(1)", "/controls"), ("/night", "/night"),
])
def test_joining_goes_only_to_a_page_of_this_display(chromium: Any, server: str, settings: Settings, wanted: str,
                                                     lands: str) -> None:
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(f"{server}/join?code={settings.join_code}&next={quote(wanted, safe='')}")
        page.wait_for_url(lambda url: "/join" not in url, timeout=10_000)
        assert page.url == server + lands
    finally:
        context.close()


# -- 8: option values of the wrong kind ----------------------------------------------------------------

@pytest.mark.parametrize("difficulty", [[], {}, ["normal"], 3, None])
def test_a_grimoire_difficulty_that_is_no_row_name_is_refused(tablet: TestClient, night: Night, difficulty: Any) -> None:
    played = len(night.played())
    answer = tablet.post("/api/night/games", json={"game": "grimoire", "players": ["Lera", "Kirill"],
                                                   "options": {"difficulty": difficulty}})
    assert answer.status_code == 400 and "option 'difficulty'" in answer.json()["error"], answer.text
    assert len(night.played()) == played


# -- 5: serve stops on SIGTERM even while a calibration step works -------------------------------------

def test_serve_stops_on_sigterm_during_a_long_calibration_step(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import threading

    from calibration.profiles import save
    from companion.bench_faults import free_port
    from vision.render.source import RenderedSource

    save(RenderedSource("hover", 3, castings=1).profile(), tmp_path / "calibration.json")
    port = free_port()
    serve = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--data-dir", str(tmp_path), "--host", "127.0.0.1",
                              "--port", str(port), "--hub", "none", "--camera", "render:hover:3:50", "--no-mic",
                              "--no-hands"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=Path(__file__).resolve().parents[2])
    try:
        assert serve.stdout is not None and "join code" in serve.stdout.readline()
        url = f"http://127.0.0.1:{port}"  # the Pi's own screen: a host
        noted = None
        for _ in range(600):  # until it listens, and the camera's first picture (a rendered table) has arrived
            with contextlib.suppress(httpx.TransportError):
                if (noted := httpx.post(f"{url}/api/calibration/wands/empty", timeout=60)).status_code != 422:
                    break
            threading.Event().wait(0.1)
        assert noted is not None and noted.status_code == 200, noted
        def read_wands() -> None:
            with contextlib.suppress(httpx.TransportError):  # the display stops before it answers
                httpx.post(f"{url}/api/calibration/wands", json={"seconds": 10.0}, timeout=60)

        reading = threading.Thread(target=read_wands, daemon=True)
        reading.start()
        threading.Event().wait(1.0)  # the ten-second read is under way
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=8.0) is not None  # before the read itself could have ended
    finally:
        serve.kill()
        serve.wait()


# -- 2: the host PIN is shown on the Pi's own screen, and only there --------------------------------------

@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"Debian's Chromium is not installed at {CHROMIUM}")
def test_the_pis_status_page_shows_the_host_pin(chromium: Any, server: str, app: FastAPI) -> None:
    context = chromium.new_context()  # the browser on the Pi itself: it reaches the display from 127.0.0.1
    try:
        page = context.new_page()
        page.goto(f"{server}/status")
        page.wait_for_selector("#host-pin")
        assert app.state.sessions.host_pin in page.inner_text("#host-pin")
    finally:
        context.close()
    tablet = at("127.0.0.5")
    tablet.post(f"{server}/api/session", json={"code": app.state.sessions.join_code}).raise_for_status()
    shown = tablet.get(f"{server}/api/session/code").json()
    assert "host_pin" not in shown and app.state.sessions.host_pin not in str(shown)

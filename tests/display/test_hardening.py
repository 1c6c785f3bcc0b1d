"""The display under hostile or broken input: text that is not text, binary frames, requests that name
another host or come from another site's page, a join code guessed from many addresses, junk actions;
and sessions that outlive a restart."""
from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.web.app import create_app
from companion.web.errors import TooManyRequests
from companion.web.ratelimit import JoinGuard
from companion.web.serve import running
from companion.web.settings import Settings

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]
JSON = {"Content-Type": "application/json"}


def nobody_casts() -> dict[str, Any]:
    return {"type": "cast", "targets": {p: None for p in PLAYERS}}


@pytest.fixture
def raw(app: FastAPI, watcher: TestClient, settings: Settings) -> TestClient:
    """A joined tablet whose server errors come back as answers (a 500 is what these tests look for)."""
    client = TestClient(app, raise_server_exceptions=False)
    client.portal = watcher.portal  # type: ignore[attr-defined]
    assert client.post("/api/session", json={"code": settings.join_code}).status_code == 200
    return client


# -- 3: a lone surrogate --------------------------------------------------------------------------

@pytest.mark.parametrize("path, body, names", [
    ("/api/night/games", rb'{"game": "counting", "players": ["\ud800Ann", "Bo"]}', "players.0"),
    ("/api/game/actions", rb'{"action": {"type": "cast", "targets": {"\udc00": null}}}', "action.targets"),
    ("/api/game/actions", rb'{"action": {"type": "cast", "targets": {"Lera": "r0\udfff"}}}', "action.targets.Lera"),
    ("/api/game/actions", rb'{"action": {"type": "cast", "\ud83d": 1}}', "in 'action'"),
    ("/api/game/questions/q1", rb'{"targets": {"\ud800": "r0t0"}}', "targets"),
    ("/api/session", rb'{"code": "\ud800"}', "code"),
])
def test_a_lone_surrogate_is_refused_naming_the_field(raw: TestClient, night: Night, path: str, body: bytes,
                                                      names: str) -> None:
    answer = raw.post(path, content=body, headers=JSON)
    assert 400 <= answer.status_code < 500, answer.text
    assert names in answer.json()["error"] and "surrogate" in answer.json()["error"]
    assert night.current.version == 0 and len(night.played()) == 1  # type: ignore[union-attr]


def test_a_surrogate_pair_is_plain_text(raw: TestClient) -> None:
    started = raw.post("/api/night/games", content=rb'{"game": "counting", "players": ["\ud83e\uddd9 Ann", "Bo"]}',
                       headers=JSON)
    assert started.status_code == 200 and started.json()["players"][0] == "\N{MAGE} Ann"


# -- 9: a binary WebSocket frame -------------------------------------------------------------------

def test_a_binary_frame_closes_the_stream_quietly(watcher: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING), watcher.websocket_connect("/api/stream") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_bytes(b"\x00\xffnot text")
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_text()
    assert closed.value.code == 1003
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    with watcher.websocket_connect("/api/stream") as again:  # the next page is served as ever
        assert again.receive_json()["type"] == "snapshot"


# -- 6: Host and Origin --------------------------------------------------------------------------

def test_a_request_naming_another_host_gets_nothing_even_on_the_pi(app: FastAPI) -> None:
    with running(app) as url:
        # The Pi's own browser, on a page of attacker.example whose name now points at the Pi.
        rebound = httpx.get(f"{url}/api/session/code", headers={"Host": "attacker.example"})
        assert rebound.status_code == 421 and "'attacker.example'" in rebound.json()["error"]
        assert "code" not in rebound.json()
        socket_refused = httpx.get(f"{url}/api/stream", headers={
            "Host": "attacker.example:80", "Connection": "Upgrade", "Upgrade": "websocket",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"})
        assert socket_refused.status_code == 403  # a WebSocket refused before it is accepted
        assert httpx.get(f"{url}/api/session/code").json()["code"]  # by its address it answers
        assert httpx.get(f"{url}/api/night", headers={"Host": "localhost"}).status_code == 200


@pytest.mark.parametrize("origin", ["http://attacker.example", "http://testserver:8080", "null", "https://testserver"])
def test_a_page_from_another_site_may_not_change_anything(tablet: TestClient, night: Night, origin: str) -> None:
    refused = tablet.post("/api/game/actions", json={"action": nobody_casts()}, headers={"Origin": origin})
    assert refused.status_code == 403 and "may not use this display" in refused.json()["error"]
    assert night.current.version == 0  # type: ignore[union-attr]
    with pytest.raises(WebSocketDisconnect), tablet.websocket_connect("/api/stream", headers={"Origin": origin}):
        pass
    own = tablet.post("/api/game/actions", json={"action": nobody_casts()}, headers={"Origin": "http://testserver"})
    assert own.status_code == 200 and night.current.version == 1  # type: ignore[union-attr]


# -- 5: the join code guessed from many addresses ---------------------------------------------------

class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_guessing_from_many_addresses_pauses_each_and_the_pi_sees_it(app: FastAPI, settings: Settings) -> None:
    clock = Clock()
    app.state.join_guard = JoinGuard(settings.joins_per_minute, settings.join_failures_per_minute, clock=clock)
    answers: dict[int, int] = {}
    with running(app) as url:
        for n in range(100):  # 100 loopback addresses, 4 wrong codes each: each well within its request rate
            address = httpx.HTTPTransport(local_address=f"127.0.0.{n + 2}")
            with httpx.Client(transport=address, headers={"Connection": "close"}) as guesser:
                for guess in range(4):
                    status = guesser.post(f"{url}/api/session", json={"code": f"{n * 4 + guess:06d}"}).status_code
                    answers[status] = answers.get(status, 0) + 1
        # The first 30 wrong codes spend the shared allowance (each address pausing after its free ones);
        # after it, every address is paused at its first wrong code: 30 + 92 checked in all.
        assert answers == {403: 30 + 92, 429: 400 - 30 - 92}

        on_the_pi = httpx.get(f"{url}/api/status").json()["joins"]
        assert on_the_pi["failed"] == answers[403] and on_the_pi["refused"] == answers[429]
        assert on_the_pi["addresses"] == 100 and on_the_pi["paused_s"] > 0 and on_the_pi["paused_addresses"] == 100
        assert on_the_pi["recent"][-1]["address"].startswith("127.0.0.")

        spammer = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.50"))
        paused = spammer.post(f"{url}/api/session", json={"code": settings.join_code})
        assert paused.status_code == 429 and "'127.0.0.50' is paused" in paused.json()["error"]
        assert int(paused.headers["Retry-After"]) >= 1
        clock.now += JoinGuard.MAX_PAUSE_S  # the pause is over: the table's own code works there again
        assert spammer.post(f"{url}/api/session", json={"code": settings.join_code}).status_code == 200


def test_each_pause_in_a_row_is_twice_as_long_and_a_quiet_spell_forgives() -> None:
    clock = Clock()
    guard = JoinGuard(per_address=1000, failures_per_minute=1000, clock=clock)
    pauses = []
    for _ in range(JoinGuard.FREE_WRONG):  # mistypes: no pause yet
        guard.wrong("10.0.0.7")
        guard.check("10.0.0.7")
    for _ in range(4):
        guard.wrong("10.0.0.7")
        with pytest.raises(TooManyRequests) as paused:
            guard.check("10.0.0.7")
        guard.check("10.0.0.9")  # another tablet is never paused for it
        pauses.append(paused.value.retry_after_s)
        clock.now += paused.value.retry_after_s
    assert pauses == [2.0, 4.0, 8.0, 16.0]
    clock.now += JoinGuard.QUIET_S + 1
    for _ in range(JoinGuard.FREE_WRONG):
        guard.wrong("10.0.0.7")
    guard.check("10.0.0.7")


def test_the_wrong_codes_are_shown_on_the_pi_only(watcher: TestClient) -> None:
    watcher.post("/api/session", json={"code": "000000"})
    assert watcher.get("/api/status").json()["joins"] is None


def test_the_host_gives_the_table_a_new_code_from_the_pi(app: FastAPI, tablet: TestClient, settings: Settings) -> None:
    pi = TestClient(app, client=("127.0.0.1", 50000))
    pi.portal = tablet.portal  # type: ignore[attr-defined]
    refused = tablet.post("/api/session/code", json={})
    assert refused.status_code == 403 and "Pi's own screen" in refused.json()["error"]

    new = pi.post("/api/session/code", json={}).json()["code"]
    assert new != settings.join_code and pi.get("/api/session/code").json()["code"] == new
    assert tablet.post("/api/session", json={"code": settings.join_code}).status_code == 403
    assert tablet.get("/api/session").json()["joined"] is True  # tablets at the table stay joined

    pi.post("/api/session/code", json={"end_sessions": True})
    assert tablet.get("/api/session").json()["joined"] is False


# -- 10: sessions and the code outlive a restart ------------------------------------------------------

@contextlib.contextmanager
def restarted(path: Path, settings: Settings) -> Iterator[tuple[TestClient, Night]]:
    """Incanto started on the store at ``path``, as after a restart or a power cut."""
    with Store(path) as store:
        night = Night.resume_or_start(store)
        with TestClient(create_app(night, StatusBoard(), settings)) as client:
            yield client, night


def test_a_tablet_stays_joined_across_a_restart(tmp_path: Path, game_name: str) -> None:
    path, settings = tmp_path / "night.sqlite", Settings(actions_per_minute=600)  # no code given: the stored one
    with restarted(path, settings) as (client, night):
        night.start_game(game_name, PLAYERS, seed=3)
        first_code = client.app.state.sessions.join_code  # type: ignore[attr-defined]
        assert client.post("/api/session", json={"code": first_code}).status_code == 200
        token = client.cookies["incanto_session"]
    kept = b"".join(f.read_bytes() for f in tmp_path.iterdir())
    assert token.encode() not in kept  # only its hash is stored

    with restarted(path, Settings(actions_per_minute=600)) as (client, night):  # a power cut later
        assert client.app.state.sessions.join_code == first_code  # type: ignore[attr-defined]
        played = client.post("/api/game/actions", json={"action": nobody_casts()},
                             headers={"X-Incanto-Session": token})
        assert played.status_code == 200, played.text

    with restarted(path, settings.model_copy(update={"join_code": "777777"})) as (client, _):
        assert client.post("/api/session", json={"code": "777777"}).status_code == 200  # a code given wins


# -- junk actions are refused by name and nothing is stored ------------------------------------------

def test_junk_actions_are_refused_naming_the_key_and_the_history_survives_a_restart(
        tmp_path: Path, settings: Settings, game_name: str) -> None:
    path = tmp_path / "night.sqlite"
    junk_key = "junk" + "x" * 15_000
    deep: Any = None
    for _ in range(256):
        deep = {"deeper": deep}
    with restarted(path, settings) as (client, night):
        night.start_game(game_name, PLAYERS, seed=3)
        client.post("/api/session", json={"code": settings.join_code})
        client.post("/api/game/actions", json={"action": nobody_casts()})
        history = client.get("/api/game/history").json()
        big = client.post("/api/game/actions", json={"action": {**nobody_casts(), junk_key: 1}})
        assert big.status_code in (400, 413, 422) and "'junkxxxx" in big.json()["error"]
        nested = client.post("/api/game/actions", json={"action": {**nobody_casts(), "targets": {"Lera": deep}}})
        assert 400 <= nested.status_code < 500 and "targets.Lera.deeper" in nested.json()["error"]
        assert client.get("/api/game/history").json() == history
    with restarted(path, settings) as (client, _):
        assert client.get("/api/game/history").json() == history

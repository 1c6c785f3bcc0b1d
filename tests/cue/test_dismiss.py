"""A false spoken cue is one tap to dismiss: the table side tells the tablets of every spoken cue with
an id, and ``POST /api/cue/dismiss`` takes it back (through TestClient, on a real store and night)."""
from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.exceptions import StarletteDeprecationWarning

from companion.cue import Cue
from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.web.app import create_app
from companion.web.settings import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from fastapi.testclient import TestClient

CODE = "424242"


@pytest.fixture
def app(store: Store) -> FastAPI:
    night = Night.resume_or_start(store, "Cue night")
    night.start_game("incantibus", ["Lera", "Kirill", "Katya"], seed=7)
    return create_app(night, StatusBoard(), Settings(join_code=CODE, actions_per_minute=600, send_timeout_s=1.0))


@pytest.fixture
def side(app: FastAPI) -> Iterator[Any]:
    from companion.night_at_the_table import table_side as assemble
    from companion.tableside import TableSideConfig

    table_side = assemble(app, app.state.table.status, TableSideConfig(hub="none", camera="none", mic=False))
    with table_side:
        yield table_side


@pytest.fixture
def clients(app: FastAPI) -> Iterator[tuple[TestClient, TestClient]]:
    with TestClient(app) as watcher:
        tablet = TestClient(app)
        tablet.portal = watcher.portal  # type: ignore[attr-defined]
        assert tablet.post("/api/session", json={"code": CODE}).status_code == 200
        yield watcher, tablet


def next_notice(stream: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        message = stream.receive_json()
        if message["type"] == "notice" and message["notice"]["kind"] == kind:
            return message["notice"]  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind!r} notice in 50 messages")


def test_a_spoken_cue_is_told_with_its_id_and_one_tap_dismisses_it(side: Any, clients: tuple[TestClient, TestClient]) -> None:
    watcher, tablet = clients
    with watcher.websocket_connect("/api/stream") as stream:
        stream.receive_json()
        side.cue.heard(Cue("microphone", 100.0, "Lera", 1.4))  # as the detector hands it over
        told = next_notice(stream, "cue")
        assert told["player"] == "Lera" and "dismiss" in told["message"]
        refused = watcher.post("/api/cue/dismiss", json={"cue_id": told["cue_id"]})
        assert refused.status_code == 401 and side.cue.dismissed == []  # watching is not enough
        answer = tablet.post("/api/cue/dismiss", json={"cue_id": told["cue_id"]})
        assert answer.status_code == 200 and answer.json()["dismissed"] == told["cue_id"]
        assert next_notice(stream, "cue_dismissed")["cue_id"] == told["cue_id"]
    assert side.cue.dismissed == [Cue("microphone", 100.0, "Lera", 1.4)]
    (cue_device,) = [d for d in side.status.snapshot() if d["device"] == "cue"]
    assert "1 false cue(s) dismissed" in cue_device["message"]
    again = tablet.post("/api/cue/dismiss", json={"cue_id": told["cue_id"]})
    assert again.status_code == 404 and "dismissed already" in again.json()["error"]


def test_only_spoken_cues_are_offered_for_dismissal(side: Any, clients: tuple[TestClient, TestClient]) -> None:
    _, tablet = clients
    side.cue.tablet(200.0)
    side.cue.heard(Cue("hub", 300.0))
    assert side.notices.recent("cue") == []
    assert tablet.post("/api/cue/dismiss", json={"cue_id": 1}).status_code == 404
    assert tablet.post("/api/cue/dismiss", json={"cue_id": "1"}).status_code == 422  # ids are numbers

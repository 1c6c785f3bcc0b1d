"""Every route of the display, fuzzed from its own OpenAPI schema (schemathesis), with and without a
session, on a display with a camera (a rendered table) and a cue button; and the calibration and cue
routes with what no schema describes: camera pictures of any size, WAV recordings with any header.

Each request must be answered without a server error; a step over the calibration's time budget must
be answered 503 by the display itself (the budget is the app's, not this test's clock); and a refused
request must change nothing, in the store or in the calibration's folder. Bounded to run in a few
minutes: a few cases per route and kind of request, derandomized.
"""
from __future__ import annotations

import hashlib
import itertools
import sqlite3
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings, strategies as st

from calibration.desk import CalibrationDesk, open_desk
from calibration.profiles import save
from companion.web.routers.calibration import attach
from companion.web.workshop import Workshop
from vision.frames import Frame
from vision.render.source import RenderedSource

from .conftest import CODE

BUDGET_S = 1.0  # the workshop's budget here: a wand read of up to ten seconds must be answered 503
CASES = 6  # per route, kind of request and session


class Camera:
    """The rendered table's picture, which a test may swap for one of any size."""

    def __init__(self) -> None:
        source = RenderedSource("hover", 3, castings=1)
        frame = source.read()
        assert frame is not None
        self.profile, self.image = source.profile(), frame.image

    def latest(self) -> Frame:
        return Frame(self.image, time.monotonic(), 0)


@pytest.fixture(scope="module")
def camera() -> Camera:
    return Camera()


@pytest.fixture
def desk(app: FastAPI, camera: Camera, tmp_path: Path) -> Iterator[CalibrationDesk]:
    profile = tmp_path / "calibration" / "profile.json"
    save(camera.profile, profile)
    desk = open_desk(profile, camera.latest)
    attach(app, desk)
    app.state.workshop = Workshop(budget_s=BUDGET_S)
    desk.feed.wait_first()
    yield desk
    desk.feed.stop()


def state(app: FastAPI, desk: CalibrationDesk) -> tuple[Any, ...]:
    """What a refused request must leave as it was: the store's games, entries and settings, and every
    file of the calibration (profile, history, places, chants)."""
    with sqlite3.connect(app.state.table.night.store.path) as db:
        rows = tuple(db.execute(f"SELECT * FROM {t}").fetchall() for t in ("games", "events", "meta", "nights"))
    folder = desk.profile_path.parent
    files = {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}
    return rows, files


def host_session(running: TestClient) -> dict[str, str]:
    """A tablet (at an address of its own: the fuzzer's wrong codes pause only theirs) that joined and
    was given the host PIN; the header a script sends."""
    client = TestClient(running.app, client=("192.0.2.77", 40000))
    client.portal = running.portal  # type: ignore[attr-defined]
    assert client.post("/api/session", json={"code": CODE}).status_code == 200
    token = client.cookies["incanto_session"]
    pin = client.app.state.sessions.host_pin  # type: ignore[attr-defined]
    assert client.post("/api/session/host", json={"pin": pin}).status_code == 200
    return {"X-Incanto-Session": token}


class Promises:
    """Checks each answer against the display's promises and counts what was tried."""

    def __init__(self, app: FastAPI, desk: CalibrationDesk) -> None:
        self.app, self.desk, self.cases, self.over_budget = app, desk, 0, 0
        self.statuses: set[int] = set()

    def check(self, label: str, before: tuple[Any, ...], status: int, body: str, over_budget: bool) -> None:
        self.cases += 1
        self.statuses.add(status)
        self.over_budget += over_budget
        assert status < 500 or status == 503 and "budget" in body or status == 503 and "calibration step" in body, \
            f"{label}: {status} {body[:300]}"
        if over_budget:
            assert status == 503, f"{label}: a step over the {BUDGET_S} s budget was answered {status}"
        if status >= 400:
            assert state(self.app, self.desk) == before, f"{label}: refused with {status} but changed something"


class Fuzz:
    """Runs one route's cases, of one kind (no session, or a host's) and one generation mode."""

    def __init__(self, app: FastAPI, client: TestClient, promises: Promises) -> None:
        self.app, self.client, self.promises = app, client, promises
        self.session = host_session(client)

    def run(self, operation: Any, kind: str, mode: Any) -> None:
        @given(case=operation.as_strategy(mode))
        @settings(max_examples=CASES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        def call(case: Any) -> None:
            self.one(operation.label, kind, mode.value, case)

        call()

    def one(self, label: str, kind: str, mode: str, case: Any) -> None:
        if kind == "host" and not self.app.state.sessions.is_host(self.session["X-Incanto-Session"]):
            self.session = host_session(self.client)  # a fuzzed DELETE /api/session signed it out
        before = state(self.app, self.promises.desk)
        seconds = case.body.get("seconds") if isinstance(case.body, dict) else None
        over = (label in ("POST /api/calibration/wands", "POST /api/calibration/validation/read") and kind == "host"
                and isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and BUDGET_S * 2 <= seconds <= 10)
        response = case.call(headers=self.session if kind == "host" else {})
        over = over and response.status_code not in (401, 403, 409, 422, 429)  # refused before any work
        text = bytes(response.content or b"").decode("utf-8", "replace")  # a JPEG, a PDF: not text
        self.promises.check(f"{label} [{kind}, {mode}]", before, response.status_code, text, over)


def test_every_route_from_its_schema_with_and_without_a_session(app: FastAPI, desk: CalibrationDesk,
                                                               tableside: Any) -> None:
    import schemathesis
    from hypothesis.errors import Unsatisfiable
    from schemathesis.core.result import Ok

    app.state.action_limit.per_minute = 10**6  # the fuzzer taps faster than any table; the limit has its own tests
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    promises = Promises(app, desk)
    operations = [r.ok() for r in schema.get_all_operations() if isinstance(r, Ok)]
    assert len(operations) == len(list(schema.get_all_operations()))  # the schema itself is sound
    labels = {op.label for op in operations}
    assert {"POST /api/calibration/wands", "POST /api/calibration/cue/audio", "POST /api/cue"} <= labels
    with TestClient(app) as client:
        fuzz = Fuzz(app, client, promises)
        for operation, kind, mode in itertools.product(operations, ("none", "host"), schemathesis.GenerationMode):
            try:
                fuzz.run(operation, kind, mode)
            except Unsatisfiable:  # no invalid request exists for a route without parameters
                pass
    assert promises.cases >= len(operations) * 2
    assert promises.over_budget > 0 and {200, 401, 403, 422, 503} <= promises.statuses, (promises.over_budget, promises.statuses)


# -- what no schema describes: pictures of any size, recordings with any header --------------------------

SIZES = st.tuples(st.integers(1, 2600), st.integers(1, 2000))


@settings(max_examples=25, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=SIZES, route=st.sampled_from(["/api/calibration/camera/photo", "/api/calibration/table",
                                          "/api/calibration/wands/empty", "/api/calibration/layout/board",
                                          "/api/calibration/validation", "/api/calibration/tips"]))
def test_a_picture_of_any_size_is_answered_in_words(app: FastAPI, desk: CalibrationDesk, camera: Camera,
                                                    size: tuple[int, int], route: str) -> None:
    width, height = size
    rendered = camera.image
    camera.image = np.ascontiguousarray(np.resize(rendered, (height, width, 3)))
    try:
        with TestClient(app, client=("127.0.0.1", 50000)) as pi:  # the Pi's own screen: the host
            for _ in range(1000):  # until the feed has the new picture
                if desk.feed.latest().image.shape[:2] == (height, width):
                    break
                time.sleep(0.01)
            assert desk.feed.latest().image.shape[:2] == (height, width)
            before = state(app, desk)
            body = {"taps": {"r0": [1, 1], "r8": [width - 1, 1], "s0": [1, height - 1]}} if route.endswith("board") else None
            answer = pi.post(route, json=body) if body else pi.post(route)
            Promises(app, desk).check(route, before, answer.status_code, answer.text, False)
            assert pi.get("/api/calibration/frame.jpg").status_code in (200, 401, 422)
    finally:
        camera.image = rendered


def wav(kind: int, channels: int, rate: int, bits: int, declared: int, body: bytes) -> bytes:
    fmt = struct.pack("<HHIIHH", kind, channels, rate, (rate * channels * bits // 8) % 2**32, (channels * bits // 8) % 2**16,
                      bits)
    return (b"RIFF" + struct.pack("<I", (36 + declared) % 2**32) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
            + b"data" + struct.pack("<I", declared % 2**32) + body)


@settings(max_examples=40, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from([0, 1, 3, 0xFFFE, 65535]), channels=st.integers(0, 65535),
       rate=st.one_of(st.integers(0, 2**32 - 1), st.sampled_from([1, 8000, 16000, 44100, 48000])),
       bits=st.sampled_from([0, 8, 16, 24, 32, 65535]), declared=st.integers(0, 2**32 - 1),
       body=st.binary(max_size=3000))
def test_a_recording_with_any_header_is_answered_in_words(app: FastAPI, desk: CalibrationDesk, kind: int,
                                                          channels: int, rate: int, bits: int, declared: int,
                                                          body: bytes) -> None:
    with TestClient(app, client=("127.0.0.1", 50000)) as pi:
        before = state(app, desk)
        promises = Promises(app, desk)
        upload = pi.post("/api/calibration/cue/audio?offset=0", content=wav(kind, channels, rate, bits, declared, body))
        promises.check("upload", before, upload.status_code, upload.text, False)
        enrol = pi.post("/api/calibration/cue", json={"player": "Lera"})
        promises.check("enrol", before, enrol.status_code, enrol.text, False)

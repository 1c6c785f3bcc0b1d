"""``serve`` opens the guided calibration on the table side's own camera: the tablet's ``/calibration``
works on the frames the table side keeps, and stops with the night; without a camera the page says
the camera is needed."""
from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI

from calibration.profiles import save
from companion.night import Night
from companion.night_at_the_table.serve import calibration_desk
from companion.status import StatusBoard
from companion.store import Store
from companion.tableside.ring import FrameRing
from companion.web.app import create_app
from companion.web.settings import Settings
from vision.profile import ImageSize, Profile
from vision.render.scene import make_scene
from vision.sources import open_source

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CODE = "424242"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    with Store(tmp_path / "night.sqlite") as store:
        yield create_app(Night.resume_or_start(store, "Test night"), StatusBoard(), Settings(join_code=CODE))


@pytest.fixture
def profile(tmp_path: Path) -> Path:
    path = tmp_path / "profile.json"
    save(Profile(image=ImageSize(width=640, height=480), camera=make_scene(5, "hover").camera.calibration().camera), path)
    return path


def table_side_frames() -> FrameRing:
    """The table side's ring, holding what its camera (the rendered table) just saw."""
    ring, source = FrameRing(), open_source("render:hover")
    try:
        frame = source.read()
        assert frame is not None
        ring.add(frame)
    finally:
        source.close()
    return ring


def joined(client: TestClient) -> TestClient:
    assert client.post("/api/session", json={"code": CODE}).status_code == 200
    return client


def test_the_tablet_calibrates_on_the_table_sides_camera(app: FastAPI, profile: Path) -> None:
    ring = table_side_frames()
    with calibration_desk(app, profile, ring.latest), TestClient(app) as client:
        feed = app.state.calibration.feed
        feed.wait_first()  # the desk's own thread has picked up the ring's frame
        assert joined(client).get("/api/calibration").status_code == 200
        picture = client.get("/api/calibration/frame.jpg")
        assert picture.status_code == 200 and picture.content[:2] == b"\xff\xd8"  # a JPEG of the table side's frame
    assert feed._thread is not None and not feed._thread.is_alive()  # the desk stops with the night


def test_without_a_camera_the_page_says_the_camera_is_needed(app: FastAPI, profile: Path) -> None:
    with calibration_desk(app, profile, None), TestClient(app) as client:
        answer = joined(client).get("/api/calibration")
    assert answer.status_code == 409 and "this table runs without a camera" in answer.json()["error"]

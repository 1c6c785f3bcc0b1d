"""No camera, or an uncalibrated table: no reading, the status page says why and what to do, and the
casting is entered on the tablet as ever."""
from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from starlette.exceptions import StarletteDeprecationWarning

from calibration.model import Calibration, save
from companion.cue import Cue
from companion.status import StatusBoard
from companion.tableside import TableSide, TableSideConfig
from companion.night_at_the_table.rendered import RenderedTable
from companion.web.routers.cue import attach
from companion.web.app import create_app
from companion.web.settings import Settings
from companion.web.table import Table

from .conftest import casts, device, wait_for

with warnings.catch_warnings():  # Starlette says its TestClient will move to httpx2; nothing here depends on it
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from fastapi.testclient import TestClient

CODE = "424242"


@pytest.fixture
def tablet(table: Table, status: StatusBoard) -> Iterator[tuple[FastAPI, TestClient]]:
    app = create_app(table.night, status, Settings(join_code=CODE))
    with TestClient(app) as client:
        assert client.post("/api/session", json={"code": CODE}).status_code == 200
        yield app, client


def test_a_missing_camera_is_an_error_with_the_fix_and_the_tablet_still_plays(
        tablet: tuple[FastAPI, TestClient], status: StatusBoard, calibration: Path, tmp_path: Path) -> None:
    app, client = tablet
    side = TableSide(app.state.table, status, TableSideConfig(hub="none", camera=str(tmp_path / "no-camera.mp4"),
                                                              calibration=calibration))
    attach(app, side.cue)
    with side:
        camera = wait_for(lambda: (d := device(status, "camera")) and d["level"] == "error" and d)
        assert camera, status.snapshot()
        assert "not answering" in camera["message"] and camera["fix"] == "check that the camera is plugged in"
        # The tablet's cue button reads nothing, and says why.
        assert client.post("/api/cue").status_code == 200
        assert wait_for(lambda: side.reader.count >= 1)
        assert side.reader.last.outcome == "blind" and "camera is not sending pictures" in side.reader.last.message
        # The casting entered on the tablet goes through as ever.
        targets = {"Lera": "r1", "Kirill": "r4", "Katya": "r6", "Rosa": "r6"}
        answer = client.post("/api/game/actions", json={"action": {"type": "cast", "targets": targets}})
        assert answer.status_code == 200, answer.text
        assert casts(app.state.table) == [{"type": "cast", "targets": targets}]


def test_the_cue_route_needs_a_session(tablet: tuple[FastAPI, TestClient], status: StatusBoard) -> None:
    app, client = tablet
    attach(app, TableSide(app.state.table, status, TableSideConfig(hub="none")).cue)
    client.delete("/api/session")
    assert client.post("/api/cue").status_code == 401


def test_no_calibration_names_the_camera_step(make_side: Callable[..., TableSide], status: StatusBoard,
                                              rendered: RenderedTable, tmp_path: Path) -> None:
    side = make_side(TableSideConfig(hub="none", camera="render", calibration=tmp_path / "none.json"),
                     opener=lambda: rendered)
    calibration = device(status, "calibration")
    assert calibration["level"] == "error"
    # What to do is the calibration page's camera step (the status page links to it), said in every language.
    assert "calibration page" in calibration["fix"] and calibration["details"]["step"] == "camera"
    assert calibration["fix_words"] == {"key": "device.calibration.fix", "values": {}}
    assert wait_for(lambda: side.camera.sees)
    reading = side.reader.read(Cue("hub", rendered.point({1: "r1"})))
    assert reading.outcome == "blind" and "not calibrated" in reading.message


def test_a_camera_calibrated_without_the_table_names_the_table_step(
        make_side: Callable[..., TableSide], status: StatusBoard, rendered: RenderedTable, tmp_path: Path) -> None:
    path = tmp_path / "camera-only.json"
    save(Calibration(rendered.calibration.camera, None), path)
    side = make_side(TableSideConfig(hub="none", camera="none", calibration=path))
    calibration = device(status, "calibration")
    assert calibration["level"] == "error" and "table is not calibrated" in calibration["message"]
    assert "calibration page" in calibration["fix"] and calibration["details"]["step"] == "table"
    assert device(status, "camera")["level"] == "off" and "--camera" in device(status, "camera")["fix"]
    assert side.camera.why_blind() == "there is no camera"


def test_a_calibrated_table_is_ok(seeing_side: TableSide, status: StatusBoard) -> None:
    assert device(status, "calibration")["level"] == "ok"
    assert device(status, "camera")["level"] == "ok"
    assert seeing_side.camera.why_blind() is None

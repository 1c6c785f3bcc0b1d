"""The calibration routes without a browser: no camera, no join, a part of a recording out of order,
each refused in words, and nothing changed."""
from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from calibration.desk import CalibrationDesk, open_desk
from calibration.profiles import save
from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.web.app import create_app
from companion.web.settings import Settings
from vision.profile import ImageSize, Profile

from .staged import StagedTable

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CODE = "424242"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with Store(tmp_path / "night.sqlite") as store:
        app = create_app(Night.resume_or_start(store, "Test night"), StatusBoard(), Settings(join_code=CODE))
        with TestClient(app) as c:
            yield c


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[CalibrationDesk]:
    profile, table = tmp_path / "profile.json", StagedTable(seed=5)
    save(Profile(image=ImageSize(width=640, height=480), camera=table.camera.calibration().camera), profile)
    desk = open_desk(profile, table.read)
    desk.feed.wait_first()
    yield desk
    desk.feed.stop()


def joined(client: TestClient) -> TestClient:
    """A tablet that joined and was given the host PIN (calibration changes the table: the host's)."""
    assert client.post("/api/session", json={"code": CODE}).status_code == 200
    pin = client.app.state.sessions.host_pin  # type: ignore[attr-defined]
    assert client.post("/api/session/host", json={"pin": pin}).status_code == 200
    return client


def wav_header(rate: int, channels: int, bits: int, data_bytes: int, kind: int = 1) -> bytes:
    """A WAV file's 44-byte header saying what the recording is (whatever follows)."""
    import struct

    fmt = struct.pack("<HHIIHH", kind, channels, rate, rate * channels * bits // 8, channels * bits // 8, bits)
    return (b"RIFF" + struct.pack("<I", 36 + data_bytes) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
            + b"data" + struct.pack("<I", data_bytes))


def test_without_a_camera_the_page_says_so(client: TestClient) -> None:
    answer = client.get("/api/calibration")
    assert answer.status_code == 409 and "this table runs without a camera" in answer.json()["error"]
    assert client.get("/calibration").status_code == 200  # the page itself still loads and shows the reason


def test_changes_need_the_join_code(client: TestClient, desk: CalibrationDesk) -> None:
    client.app.state.calibration = desk  # type: ignore[attr-defined]
    before = desk.profile_path.read_bytes()
    assert client.post("/api/calibration/table").status_code == 401
    assert desk.profile_path.read_bytes() == before
    assert client.get("/api/calibration/frame.jpg").status_code == 401  # nor may anyone look into the room
    tablet = joined(client)
    for _ in range(130):  # a few minutes of the live picture spend none of the tablet's rate of changes
        assert tablet.get("/api/calibration/frame.jpg").content[:2] == b"\xff\xd8"
    assert tablet.post("/api/calibration/wands/empty").status_code == 200


def test_a_recording_part_out_of_order_is_refused(client: TestClient, desk: CalibrationDesk) -> None:
    client.app.state.calibration = desk  # type: ignore[attr-defined]
    tablet = joined(client)
    header = wav_header(16_000, 1, 16, 100)
    assert tablet.post("/api/calibration/cue/audio?offset=0", content=header + bytes(60)).json() == {"received": 104}
    late: Any = tablet.post("/api/calibration/cue/audio?offset=500", content=bytes(100))
    assert late.status_code == 422 and "part at byte 500 but 104 bytes have arrived" in late.json()["error"]
    answer = tablet.post("/api/calibration/cue", json={"player": "Lera"})
    assert answer.status_code == 422 and "say \"In-can-to!\" three times" in answer.json()["error"]
    not_wav = tablet.post("/api/calibration/cue/audio?offset=0", content=b"RIFF" + bytes(100))
    assert not_wav.status_code == 422 and "not a WAV file" in not_wav.json()["error"]
    assert not (desk.profile_path.parent / "cue").exists()


def test_the_table_step_from_the_tablet_and_a_taps_refusal(client: TestClient, desk: CalibrationDesk) -> None:
    client.app.state.calibration = desk  # type: ignore[attr-defined]
    tablet = joined(client)
    found = tablet.post("/api/calibration/table")
    assert found.status_code == 200 and found.json()["message"].startswith("table found from markers [0, 1, 2, 3]")
    refused = tablet.post("/api/calibration/layout", json={"taps": {"r0": [10, 10], "x9": [1, 1]}})
    assert refused.status_code == 422
    assert "'x9' is not a place of incantibus" in refused.json()["error"] and "not tapped yet: r1" in refused.json()["error"]
    steps = tablet.get("/api/calibration").json()["steps"]
    assert steps["table"]["done"] and not steps["layout"]["done"]


def test_a_camera_that_fails_is_said_in_words(tmp_path: Path) -> None:
    from calibration.feed import LiveFeed, NoPicture

    def broken() -> Any:
        raise OSError("no camera at /dev/video0")

    with LiveFeed(broken) as feed:
        for _ in range(1000):  # until the feed has tried the camera once
            with pytest.raises(NoPicture) as said:
                feed.latest()
            if "not answering" in str(said.value):
                break
            time.sleep(0.01)
    assert str(said.value) == "no picture from the camera: the camera is not answering (no camera at /dev/video0); is it plugged in?"


def test_the_tip_check_routes_and_their_refusals(client: TestClient, desk: CalibrationDesk) -> None:
    from .switches import HandSwitches

    desk.tips = HandSwitches({1: True, 2: False, 3: False, 4: False})
    client.app.state.calibration = desk  # type: ignore[attr-defined]
    assert client.post("/api/calibration/tips").status_code == 401  # a change: the join code first
    early = client.get("/api/calibration/tips")
    assert early.status_code == 422 and early.json()["error"] == "start the tip-switch check first: press each tip on the table"
    assert early.json()["words"] == {"key": "calibration.refused.tips_not_started", "values": {}}  # said in any language
    tablet = joined(client)
    assert tablet.post("/api/calibration/tips/lift").status_code == 422  # lifting before pressing is refused too
    started = tablet.post("/api/calibration/tips").json()
    assert started["status"] == "pressing" and started["wands"][0] == {
        "wand": 1, "state": "pressed", "clicked": True, "ok": True, "words": "wand 1's tip clicked",
        "say": {"key": "calibration.tips.clicked", "values": {"wand": 1}}}
    desk.tips.states[1] = False
    lifted = tablet.post("/api/calibration/tips/lift").json()
    assert lifted["status"] == "problems" and len(lifted["problems"]) == 3
    assert tablet.get("/api/calibration/tips").json()["wands"][0]["state"] == "lifted"


def test_the_tablets_taps_snap_to_the_tokens_in_the_live_picture(client: TestClient, tmp_path: Path) -> None:
    """A finger lands 8 px off each token (5-11 mm at the table): the places are saved on the tokens'
    centres as the camera sees them; a place with no token laid stays where it was tapped, and the reply
    names it."""
    from calibration.layout import game_places
    from vision.profile import load_places

    table = StagedTable(seed=5)
    table.stage = "empty"  # the tokens laid out, no wand or hand over them
    profile = tmp_path / "profile.json"
    save(Profile(image=ImageSize(width=640, height=480), camera=table.camera.calibration().camera), profile)
    desk = open_desk(profile, table.read)
    desk.feed.wait_first()
    try:
        client.app.state.calibration = desk  # type: ignore[attr-defined]
        tablet = joined(client)
        assert tablet.post("/api/calibration/table").status_code == 200
        board = game_places("incantibus").board_mm
        # Each tap 8 px off: on the token where one lies at its place, on the printed place where none does.
        rng, taps, tokens = np.random.default_rng(3), {}, {}
        for name, (x, y) in board.items():
            lying = table.token_at(x, y)
            target = (lying.x_mm, lying.y_mm) if lying else (x, y)
            u, v = table.camera.project(np.array([[target[0], target[1], 2.0]]))[0]
            a = rng.uniform(0, 2 * np.pi)
            taps[name] = [float(u + 8 * np.cos(a)), float(v + 8 * np.sin(a))]
            if lying:
                tokens[name] = lying
        reply = tablet.post("/api/calibration/layout", json={"taps": taps})
        assert reply.status_code == 200, reply.text
        said = reply.json()["message"]
        laid = load_places(profile.with_name("places-incantibus.json")).places
        off = {n: float(np.hypot(laid[n].x_mm - t.x_mm, laid[n].y_mm - t.y_mm)) for n, t in tokens.items()}
        assert len(off) >= 15 and max(off.values()) < 2.0, off
        bare = sorted(set(board) - set(tokens))
        assert bare, "the staged table leaves some places without a token"
        assert said.startswith(f"{len(board)} places and 0 seats saved; {len(tokens)} taps snapped to their tokens")
        assert all(n in said.split("kept as tapped")[1] for n in bare), said
    finally:
        desk.feed.stop()


def test_with_no_picture_the_taps_are_saved_as_tapped_and_the_reply_says_so(client: TestClient, tmp_path: Path) -> None:
    """The table was found earlier; now the camera sends nothing: the places are laid out from the taps
    alone, and the tablet is told they were not snapped."""
    from calibration.layout import game_places
    from vision.profile import load_places

    table = StagedTable(seed=5)
    profile = tmp_path / "profile.json"
    save(Profile(image=ImageSize(width=640, height=480), camera=table.camera.calibration().camera), profile)
    seen = open_desk(profile, table.read)
    seen.feed.wait_first()
    seen.find_table()
    seen.feed.stop()
    blind = open_desk(profile, lambda: None)
    try:
        client.app.state.calibration = blind  # type: ignore[attr-defined]
        board = game_places("incantibus").board_mm
        taps = {n: [float(v) for v in table.camera.project(np.array([[x, y, 2.0]]))[0]] for n, (x, y) in board.items()}
        reply = joined(client).post("/api/calibration/layout", json={"taps": taps})
        assert reply.status_code == 200, reply.text
        assert reply.json()["message"] == (f"{len(board)} places and 0 seats saved as tapped "
                                           "(no camera picture to snap them to their tokens)")
        assert set(load_places(profile.with_name("places-incantibus.json")).places) == set(board)
    finally:
        blind.feed.stop()

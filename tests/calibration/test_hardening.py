"""Calibration under hostile and careless input (issue 21): board specifications, JSON nested beyond
reason, sheets no printer can print, a profile or a cue that does not fit the recording; each refused in
one line of words, no traceback, nothing changed."""
from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from calibration.__main__ import main
from calibration.desk import CalibrationDesk, open_desk
from calibration.profiles import save
from companion.night import Night
from companion.night_at_the_table.serve import main as serve_main
from companion.status import StatusBoard
from companion.store import Store
from companion.web.app import create_app
from companion.web.settings import Settings
from vision.__main__ import main as vision_main
from vision.profile import ImageSize, Profile

from .staged import StagedTable

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CODE = "424242"
DEEP = "[" * 100_000 + "]" * 100_000
BAD_BOARDS = ["chessboard:2x2:25", "charuco:5x7:40:nan:DICT_6X6_250", "charuco:99999x99999:40:20:DICT_6X6_250",
              "charuco:300x300:40:20:DICT_6X6_250", "chessboard:9x6:inf", "chessboard:9x6:1e308", "chessboard:1x99:25"]


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[CalibrationDesk]:
    profile, table = tmp_path / "cal" / "profile.json", StagedTable(seed=5)
    save(Profile(image=ImageSize(width=640, height=480), camera=table.camera.calibration().camera), profile)
    desk = open_desk(profile, table.read)
    desk.feed.wait_first()
    yield desk
    desk.feed.stop()


@pytest.fixture
def client(tmp_path: Path, desk: CalibrationDesk) -> Iterator[TestClient]:
    with Store(tmp_path / "night.sqlite") as store:
        app = create_app(Night.resume_or_start(store, "Test night"), StatusBoard(), Settings(join_code=CODE))
        app.state.calibration = desk
        with TestClient(app, raise_server_exceptions=False) as c:
            yield c


def joined(client: TestClient) -> TestClient:
    assert client.post("/api/session", json={"code": CODE}).status_code == 200
    return client


# -- 4: board specifications -----------------------------------------------------------------------

@pytest.mark.parametrize("board", BAD_BOARDS)
def test_a_board_no_camera_step_can_use_is_refused_in_words(client: TestClient, desk: CalibrationDesk, board: str,
                                                            tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tablet = joined(client)
    before = desk.profile_path.read_bytes()
    for route in ("/api/calibration/camera/photo", "/api/calibration/camera"):
        answer = tablet.post(route, json={"board": board})
        assert answer.status_code == 422 and "board" in answer.json()["error"], answer.text
    assert desk.profile_path.read_bytes() == before and desk.board_photos == []
    image = tmp_path / "board.png"
    image.write_bytes(tablet.get("/api/calibration/frame.jpg").content)
    assert main(["camera", "--images", str(image), "--board", board, "--profile", str(desk.profile_path)]) == 2
    assert "board" in one_line(capsys)


# -- 10: JSON nested beyond reason; sheets no printer prints ---------------------------------------------

def test_deep_json_is_refused_in_one_line_by_every_command(tmp_path: Path, desk: CalibrationDesk,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    assert main(["layout", "--game", "incantibus", "--taps", str(deep), "--profile", str(desk.profile_path)]) == 2
    assert "nested too deeply" in one_line(capsys)
    assert main(["status", "--profile", str(deep)]) == 0  # status describes what it finds, a bad file included
    assert "nested too deeply" in capsys.readouterr().out
    assert serve_main(["--data-dir", str(tmp_path / "data"), "--settings", str(deep), "--hub", "none",
                       "--camera", "none"]) == 2
    assert "nested too deeply" in one_line(capsys)


@pytest.mark.parametrize("dpi", ["0", "-3", "100000", "71", "601"])
def test_a_sheet_no_printer_can_print_is_refused(tmp_path: Path, dpi: str, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "sheet.png"
    assert main(["sheet", "--png", str(png), "--dpi", dpi]) == 2
    assert f"{int(dpi)!r} dpi" in one_line(capsys) and not png.exists()


# -- 11: settings and files that bite later ---------------------------------------------------------------

@pytest.mark.parametrize("hours, words", [(1e308, "less than or equal to 744"), (1e-9, "greater than or equal to 0.25"),
                                          ("NaN", "finite number")])
def test_session_hours_are_bounded_when_serve_starts(tmp_path: Path, hours: object, words: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"display": {"session_hours": hours}}).replace('"NaN"', "NaN"))
    assert serve_main(["--data-dir", str(tmp_path / "data"), "--settings", str(settings), "--hub", "none",
                       "--camera", "none"]) == 2
    err = one_line(capsys)
    assert "display.session_hours" in err and words in err


def test_without_a_session_the_calibration_page_shows_no_path(client: TestClient, desk: CalibrationDesk) -> None:
    folder = str(desk.profile_path.parent)
    watched = client.get("/api/calibration")
    assert watched.status_code == 200 and folder not in watched.text and "profile.json" in watched.text
    assert folder in joined(client).get("/api/calibration").text  # the host, joined, sees where it is


def test_serve_on_ipv6_prints_an_ipv6_address(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.web.serve import announce

    url = announce(Settings(host="::", join_code=CODE), 8000)
    assert url.startswith("http://[") and url.endswith("]:8000/") and url in capsys.readouterr().out
    assert announce(Settings(host="0.0.0.0", join_code=CODE), 8000).count(":") == 2  # IPv4: scheme and port


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("recorded") / "night"
    assert vision_main(["record", "--source", "render:distance:19:1", "--out", str(out)]) == 0
    return out


@pytest.mark.parametrize("cue", [DEEP, '{"t": NaN}', '{"t": Infinity}', '{"t": "soon"}'])
def test_vision_read_refuses_a_cue_it_cannot_read(recording: Path, tmp_path: Path, cue: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "night"
    _copy(recording, copy)
    (copy / "cues.jsonl").write_text(cue + "\n")
    capsys.readouterr()
    assert vision_main(["read", "--recording", str(copy)]) == 2
    assert "cues.jsonl line 1" in one_line(capsys)


def test_vision_read_refuses_a_profile_made_for_another_resolution(recording: Path, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "night"
    _copy(recording, copy)
    profile = json.loads((copy / "profile.json").read_text())
    profile["image"] = {"width": profile["image"]["width"] * 2, "height": profile["image"]["height"] * 2}
    (copy / "profile.json").write_text(json.dumps(profile))
    capsys.readouterr()
    assert vision_main(["read", "--recording", str(copy)]) == 2
    assert "calibrate again at this resolution" in one_line(capsys)


def _copy(source: Path, to: Path) -> None:
    import shutil

    shutil.copytree(source, to)

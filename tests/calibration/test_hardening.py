"""Calibration under hostile and careless input (issue 21): board specifications, JSON nested beyond
reason, sheets no printer can print, a profile or a cue that does not fit the recording; each refused in
one line of words, no traceback, nothing changed."""
from __future__ import annotations

import json
import struct
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from calibration.__main__ import main
from calibration.desk import CalibrationDesk, open_desk
from calibration.layout import game_places
from calibration.profiles import save
from companion.night import Night
from companion.night_at_the_table.serve import main as serve_main
from companion.status import StatusBoard
from companion.store import Store
from companion.web.app import create_app
from companion.web.settings import Settings
from vision.__main__ import main as vision_main
from vision.profile import CameraIntrinsics, ImageSize, Profile

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


def joined(client: TestClient, host: bool = True) -> TestClient:
    """A tablet that joined and (``host``) typed the host PIN shown on the Pi's own screen."""
    assert client.post("/api/session", json={"code": CODE}).status_code == 200
    if host:
        pi = TestClient(client.app, client=("127.0.0.1", 50000))
        pi.portal = client.portal  # type: ignore[attr-defined]
        pin = pi.get("/api/session/code").json()["host_pin"]
        assert client.post("/api/session/host", json={"pin": pin}).status_code == 200
    return client


def another(client: TestClient) -> TestClient:
    """A second tablet on the same display (its own cookies)."""
    other = TestClient(client.app, raise_server_exceptions=False)
    other.portal = client.portal  # type: ignore[attr-defined]
    return other


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


# -- 2: calibration is the host's -------------------------------------------------------------------

CHANGING = [("/api/calibration/table", None), ("/api/calibration/layout", {"taps": {"r0": [1, 1]}}),
            ("/api/calibration/wands/empty", None), ("/api/calibration/wands", {"seconds": 0.5}),
            ("/api/calibration/camera/photo", {"board": "chessboard:9x6:25"}), ("/api/calibration/camera", {}),
            ("/api/calibration/cue", {"player": "Lera"}), ("/api/calibration/tips", None),
            ("/api/calibration/tips/lift", None), ("/api/calibration/rollback", {"version": 1})]


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_player_with_the_join_code_cannot_recalibrate_the_table(client: TestClient, desk: CalibrationDesk) -> None:
    player = joined(client, host=False)
    assert "host_pin" not in player.get("/api/session/code").json()  # shown on the Pi's own screen only
    before = files(desk.profile_path.parent)
    for route, body in CHANGING:
        answer = player.post(route, json=body) if body is not None else player.post(route)
        assert answer.status_code == 403 and answer.json()["kind"] == "NotTheHost", (route, answer.text)
    wrong = player.post("/api/session/host", json={"pin": "000000"})
    assert wrong.status_code == 403 and "host PIN" in wrong.json()["error"]
    assert files(desk.profile_path.parent) == before and desk.empty_table is None


def test_each_change_says_what_when_and_from_where_and_can_be_rolled_back(client: TestClient, desk: CalibrationDesk,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    host = joined(client)
    camera_only = desk.profile_path.read_bytes()
    assert host.post("/api/calibration/table").status_code == 200
    state = host.get("/api/calibration").json()
    assert state["versions"] == [1, 2] and state["steps"]["table"]["done"]
    assert state["changes"][-1]["what"] == "table found" and state["changes"][-1]["by"] == "the tablet at testclient"
    assert any(line.startswith("last change: table found") and "from the tablet at testclient" in line
               for line in state["lines"])
    assert main(["status", "--profile", str(desk.profile_path)]) == 0
    assert "from the tablet at testclient" in capsys.readouterr().out

    back = host.post("/api/calibration/rollback", json={"version": 1})
    assert back.status_code == 200 and desk.profile_path.read_bytes() == camera_only
    assert not host.get("/api/calibration").json()["steps"]["table"]["done"]
    assert host.post("/api/calibration/rollback", json={"version": 9}).status_code == 422
    assert main(["rollback", "--profile", str(desk.profile_path), "--to", "2"]) == 0  # and from the command line
    assert "last change: rolled back to calibration 2" in "\n".join(desk.state()["lines"])


def test_the_wands_are_learned_only_after_the_empty_table(client: TestClient, desk: CalibrationDesk) -> None:
    host = joined(client)
    assert host.post("/api/calibration/table").status_code == 200
    before = desk.profile_path.read_bytes()
    answer = host.post("/api/calibration/wands", json={"seconds": 0.5})
    assert answer.status_code == 422 and "note the empty table first" in answer.json()["error"]
    assert desk.profile_path.read_bytes() == before


# -- 5: hostile WAV headers; each tablet's own recording ------------------------------------------------

def wav_header(rate: int, channels: int, bits: int, data_bytes: int, kind: int = 1) -> bytes:
    fmt = struct.pack("<HHIIHH", kind, channels, rate, (rate * channels * bits // 8) % 2**32, channels * bits // 8, bits)
    return (b"RIFF" + struct.pack("<I", 36 + data_bytes) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
            + b"data" + struct.pack("<I", data_bytes))


@pytest.mark.parametrize("header, words", [
    (wav_header(1, 1, 16, 6000), "1 Hz"), (wav_header(4_000_000_000, 1, 16, 6000), "4000000000 Hz"),
    (wav_header(16_000, 0, 16, 6000), "0 channels"), (wav_header(16_000, 9, 16, 6000), "9 channels"),
    (wav_header(16_000, 1, 8, 6000), "not 16-bit PCM"), (wav_header(16_000, 1, 16, 6000, kind=3), "not 16-bit PCM"),
    (b"RIFF\x00\x00\x00\x00WAVEdata" + bytes(40), "no format chunk"), (b"OggS" + bytes(60), "not a WAV file"),
])
def test_a_recording_whose_header_would_cost_minutes_is_refused_as_it_arrives(client: TestClient, desk: CalibrationDesk,
                                                                               header: bytes, words: str) -> None:
    host = joined(client)
    answer = host.post("/api/calibration/cue/audio?offset=0", content=header + bytes(3000))
    assert answer.status_code == 422 and words in answer.json()["error"], answer.text
    enrol = host.post("/api/calibration/cue", json={"player": "Lera"})
    assert enrol.status_code == 422 and not (desk.profile_path.parent / "cue").exists()


def test_a_recording_of_two_minutes_at_8_khz_is_the_longest(client: TestClient, desk: CalibrationDesk) -> None:
    from calibration.cue_step import wav_problem

    assert wav_problem(wav_header(8_000, 1, 16, 0) + bytes(8_000 * 2 * 120)) is None
    assert "over 120 s" in str(wav_problem(wav_header(8_000, 1, 16, 0) + bytes(8_000 * 2 * 121)))


def test_each_tablet_records_its_own_chant(client: TestClient, desk: CalibrationDesk) -> None:
    north, south = joined(client, host=False), joined(another(client), host=False)
    header = wav_header(16_000, 1, 16, 32_000)
    assert north.post("/api/calibration/cue/audio?offset=0", content=header + bytes(956)).json() == {"received": 1000}
    assert south.post("/api/calibration/cue/audio?offset=0", content=header).json() == {"received": 44}
    more = north.post("/api/calibration/cue/audio?offset=1000", content=bytes(1000))
    assert more.json() == {"received": 2000}  # the other tablet's new recording did not wipe this one


# -- 6: heavy calibration work never delays the game ------------------------------------------------

def test_many_long_wand_reads_never_hold_up_the_game(client: TestClient, desk: CalibrationDesk) -> None:
    import threading

    import httpx

    from companion.web.serve import running

    app: Any = client.app
    with running(app) as url:  # a real uvicorn; requests from 127.0.0.1: the Pi's own screen, a host
        assert httpx.post(f"{url}/api/calibration/table", timeout=60).status_code == 200
        assert httpx.post(f"{url}/api/calibration/wands/empty", timeout=60).status_code == 200
        answers: list[tuple[str, int]] = []

        def read_wands() -> None:
            status = httpx.post(f"{url}/api/calibration/wands", json={"seconds": 10.0}, timeout=120).status_code
            answers.append(("wands", status))

        readers = [threading.Thread(target=read_wands) for _ in range(45)]
        for reader in readers:
            reader.start()
        while sum(1 for _, s in answers if s == 503) < 45 - 3:  # all but the running one and two waiting: refused
            assert len(answers) < 45, answers
            threading.Event().wait(0.05)
        game = httpx.get(f"{url}/api/night", timeout=60)
        answers.append(("game", game.status_code))
        for reader in readers:
            reader.join()
    assert game.status_code == 200
    slow = [i for i, (kind, status) in enumerate(answers) if kind == "wands" and status != 503]
    assert 2 <= len(slow) <= 3 and answers.index(("game", 200)) < min(slow)  # answered while the reads went on


# -- 3: layouts no board has ------------------------------------------------------------------------

def degenerate(kind: str) -> dict[str, list[float]]:
    names = [n for n in game_places("incantibus").names if not n.startswith("seat")]
    if kind == "one pixel":
        return {n: [320.0, 240.0] for n in names}
    if kind == "one line":
        return {n: [100.0 + 15.0 * i, 240.0] for i, n in enumerate(names)}
    return {n: [300.0 + 3.0 * (i % 9), 200.0 + 3.0 * (i // 9)] for i, n in enumerate(names)}  # a board 1/10 the size


@pytest.mark.parametrize("kind, words", [("one pixel", "0 mm apart"), ("one line", "incantibus's board"),
                                         ("tiny", "apart")])
def test_a_layout_no_board_has_is_refused_from_the_tablet_and_the_command_line(
        client: TestClient, desk: CalibrationDesk, tmp_path: Path, kind: str, words: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    host = joined(client)
    assert host.post("/api/calibration/table").status_code == 200
    before = files(desk.profile_path.parent)
    answer = host.post("/api/calibration/layout", json={"taps": degenerate(kind)})
    assert answer.status_code == 422 and words in answer.json()["error"], answer.text
    few = {n: [320.0, 240.0] for n in ("r0", "r8", "s0")}
    suggested = host.post("/api/calibration/layout/board", json={"taps": few})
    assert suggested.status_code == 422 and "0% of its size" in suggested.json()["error"], suggested.text
    taps = tmp_path / "taps.json"
    taps.write_text(json.dumps(degenerate(kind)))
    assert main(["layout", "--game", "incantibus", "--taps", str(taps), "--profile", str(desk.profile_path)]) == 2
    assert words in one_line(capsys)
    taps.write_text(json.dumps(few))
    assert main(["layout", "--game", "incantibus", "--taps", str(taps), "--profile", str(desk.profile_path),
                 "--from-board"]) == 2
    assert "of its size" in one_line(capsys)
    assert files(desk.profile_path.parent) == before


def test_a_wand_read_over_its_budget_is_stopped_and_the_next_step_runs(client: TestClient, desk: CalibrationDesk) -> None:
    from companion.web.workshop import Workshop

    client.app.state.workshop = Workshop(budget_s=2.0)  # type: ignore[attr-defined]
    host = joined(client)
    assert host.post("/api/calibration/table").status_code == 200
    assert host.post("/api/calibration/wands/empty").status_code == 200
    before = desk.profile_path.read_bytes()
    given_up = host.post("/api/calibration/wands", json={"seconds": 10.0})
    assert given_up.status_code == 503 and "budget" in given_up.json()["error"] and given_up.headers["Retry-After"] == "5"
    assert host.post("/api/calibration/wands/empty").status_code == 200  # the read stopped: the workshop is free
    assert desk.profile_path.read_bytes() == before


def test_rolling_back_puts_back_the_places_the_table_side_reads(tmp_path: Path) -> None:
    """The layout step writes the profile and ``places-GAME.json`` beside it; a rollback to a version
    before a bad layout restores both, so the table side never reads the bad places again."""
    from calibration.profiles import keep_places, rollback, save, versions
    from vision.profile import load_profile

    profile = tmp_path / "profile.json"
    places = tmp_path / "places-incantibus.json"
    def measured(fx: float) -> Profile:  # profiles told apart by their focal length
        return Profile(image=ImageSize(width=640, height=480), camera=CameraIntrinsics(fx=fx, fy=fx, cx=320, cy=240))

    save(measured(500), profile)  # 1: the camera
    places.write_text('{"places": {"r0": [1, 2]}}')
    save(measured(501), profile)  # 2: a good layout
    keep_places(profile, places)
    places.write_text('{"places": {"r0": [9, 9]}}')
    save(measured(502), profile)  # 3: a bad layout
    keep_places(profile, places)
    assert versions(profile) == [1, 2, 3]
    rollback(profile, 2, "the Pi's own screen")
    assert places.read_text() == '{"places": {"r0": [1, 2]}}' and load_profile(profile).camera.fx == 501
    rollback(profile, 3, "the Pi's own screen")  # a rollback is a change too: forward again
    assert places.read_text() == '{"places": {"r0": [9, 9]}}'
    rollback(profile, 4, "the Pi's own screen")  # and back to what the first rollback made
    assert places.read_text() == '{"places": {"r0": [1, 2]}}'
    elsewhere = tmp_path / "mine" / "places-incantibus.json"
    elsewhere.parent.mkdir()
    elsewhere.write_text("{}")
    keep_places(profile, elsewhere)  # the command line's --places-out: not kept, never overwritten
    assert len(list((tmp_path / "profile.json.history").glob("*.places-*.json"))) == 5

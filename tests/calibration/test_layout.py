"""Layout: taps on the camera image become the places file the table side reads. The table pose comes
from a rendered picture of the default markers, the taps from a hand-written projection of where each
place really is, and the places written must be those places within a few millimetres."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.__main__ import main
from calibration.geometry import pixels_to_table
from calibration.layout import game_places, lay_out
from calibration.model import CalibrationError
from calibration.profiles import load, save
from companion.tableside.places import SEATS_MM, load_places
from vision.profile import load_places as vision_places
from vision.profile import CameraIntrinsics, ImageSize, Profile, profile_places
from vision.render.camera import overhead_camera

from .scenes import CAMERA, TABLE, rendered_table
from .synthetic import above

CAMERA_ONLY = Profile(image=ImageSize(width=640, height=480),
                      camera=CameraIntrinsics(fx=CAMERA.fx, fy=CAMERA.fy, cx=CAMERA.cx, cy=CAMERA.cy))
SEATS_ON_TABLE = [(500.0, 120.0), (880.0, 420.0), (500.0, 730.0), (120.0, 420.0)]  # where the seats are tapped


@pytest.fixture
def table_profile(tmp_path: Path, cal_path: Path) -> tuple[Path, np.ndarray, np.ndarray]:
    """A profile whose table pose was found by the table step on a rendered picture."""
    r, t = above((520, 400), 1000.0, (12, 3, -2))
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), rendered_table(r, t))
    save(CAMERA_ONLY, cal_path)
    assert main(["table", "--profile", str(cal_path), "--image", str(image)]) == 0
    return cal_path, r, t


def taps_for(r: np.ndarray, t: np.ndarray) -> dict[str, list[int]]:
    """Where a player taps: the whole pixel under each place's centre (a token 2 mm thick), and each seat."""
    names = list(TABLE.places)
    points = np.array([[TABLE.places[n].x_mm, TABLE.places[n].y_mm, 2.0] for n in names] +
                      [[x, y, 0.0] for x, y in SEATS_ON_TABLE])
    pixels = np.rint(CAMERA.project(points, r, t)).astype(int)
    return dict(zip(names + [f"seat{i}" for i in range(4)], pixels.tolist()))


def test_taps_become_the_places_where_the_tokens_are(tmp_path: Path, table_profile, capsys) -> None:  # type: ignore[no-untyped-def]
    profile, r, t = table_profile
    taps, out = tmp_path / "taps.json", tmp_path / "places.json"
    taps.write_text(json.dumps(taps_for(r, t)))
    assert main(["layout", "--game", "incantibus", "--taps", str(taps), "--profile", str(profile),
                 "--places-out", str(out)]) == 0
    assert "27 places and 4 seats" in capsys.readouterr().out
    assert set(json.loads(out.read_text())) == {"schema", "game", "places", "seats"}  # one model, every reader
    laid = load_places(out)  # exactly what `--places` reads
    assert set(laid.places) == set(TABLE.places)
    errors = [np.hypot(laid.places[n].x_mm - p.x_mm, laid.places[n].y_mm - p.y_mm) for n, p in TABLE.places.items()]
    assert max(errors) < 4.0, f"worst place off by {max(errors):.1f} mm"
    assert all(p.radius_mm == 15.0 for p in laid.places.values())
    assert np.max(np.abs(np.array(laid.seats) - np.array(SEATS_ON_TABLE))) < 5.0
    assert laid.seats != SEATS_MM  # the tapped seats, not the standard ones
    in_profile = profile_places(load(profile))  # what vision reads: the same places
    assert {n: (p.x_mm, p.y_mm) for n, p in in_profile.items()} == {n: (p.x_mm, p.y_mm) for n, p in laid.places.items()}
    in_profile = dict(vision_places(out).places)  # and vision reads the file itself as written
    assert {n: (p.x_mm, p.y_mm) for n, p in in_profile.items()} == {n: (p.x_mm, p.y_mm) for n, p in laid.places.items()}


def test_every_bad_tap_is_named_at_once_and_nothing_is_written(tmp_path: Path, table_profile, capsys) -> None:  # type: ignore[no-untyped-def]
    profile, r, t = table_profile
    taps = taps_for(r, t)
    del taps["r4"], taps["seat2"]
    taps.update({"p9": [10, 10], "p1": [700, 20], "b0": "middle"})
    path, out = tmp_path / "taps.json", tmp_path / "places.json"
    path.write_text(json.dumps(taps))
    assert main(["layout", "--game", "incantibus", "--taps", str(path), "--profile", str(profile), "--places-out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "'p9' is not a place of incantibus (allowed: r0, r1" in err
    assert "not tapped yet: r4" in err and "seats tapped [0, 1, 3] of 4" in err
    assert "'p1': [700, 20] is not a pixel [x, y] of the 640x480 camera image" in err and "'b0': 'middle'" in err
    assert not out.exists()


def test_layout_needs_the_table_first(tmp_path: Path, cal_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    save(CAMERA_ONLY, cal_path)
    (tmp_path / "taps.json").write_text("{}")
    assert main(["layout", "--game", "incantibus", "--taps", str(tmp_path / "taps.json"), "--profile", str(cal_path)]) == 2
    assert "python -m calibration table" in capsys.readouterr().err


def test_an_unknown_game_is_named(tmp_path: Path, table_profile, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "taps.json").write_text("{}")
    assert main(["layout", "--game", "chess", "--taps", str(tmp_path / "taps.json"), "--profile", str(table_profile[0])]) == 2
    assert "no place list for game 'chess'; known games: ['incantibus']" in capsys.readouterr().err


def test_pixels_go_back_to_the_table_through_lens_distortion() -> None:
    # The renderer's own Brown projection, written without OpenCV, against OpenCV's undistortion.
    camera = overhead_camera((500, 420), 950.0, 6.0, 40.0, 2.0, 62.0, dist=(-0.11, 0.04, 4e-4, -3e-4, 0.0))
    cal = camera.calibration()
    assert cal.table is not None
    truth = np.array([[x, y] for x in range(150, 900, 75) for y in range(150, 720, 70)], np.float64)
    pixels = camera.project(np.c_[truth, np.zeros(len(truth))])
    back = pixels_to_table(pixels, cal.camera.matrix(), cal.camera.dist_coeffs(), np.array(cal.table.rvec), np.array(cal.table.tvec))
    assert np.max(np.linalg.norm(back - truth, axis=1)) < 0.5


def test_the_games_place_list_is_the_table_sides() -> None:
    assert set(game_places("incantibus").places) == set(TABLE.places)
    assert len(game_places("incantibus").seats) == len(SEATS_MM)


def turned_board(degrees: float, shift: tuple[float, float]) -> dict[str, tuple[float, float]]:
    """The standard places of a board laid out turned about the room tile's centre and shifted."""
    a = np.radians(degrees)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    centre = np.array([500.0, 420.0])
    return {n: tuple((turn @ (np.array([p.x_mm, p.y_mm]) - centre) + centre + shift).tolist())  # type: ignore[misc]
            for n, p in TABLE.places.items()}


def test_a_few_taps_place_the_rest_from_the_board(tmp_path: Path, table_profile, capsys) -> None:  # type: ignore[no-untyped-def]
    profile, r, t = table_profile
    truth = turned_board(6.0, (35.0, -20.0))
    tapped = ["r0", "r8", "s0", "s11", "p2"]
    pixels = np.rint(CAMERA.project(np.array([[*truth[n], 2.0] for n in tapped]), r, t)).astype(int)
    taps, out = tmp_path / "taps.json", tmp_path / "places.json"
    taps.write_text(json.dumps(dict(zip(tapped, pixels.tolist()))))
    assert main(["layout", "--game", "incantibus", "--taps", str(taps), "--profile", str(profile),
                 "--places-out", str(out), "--from-board"]) == 0
    laid = load_places(out)
    errors = {n: float(np.hypot(laid.places[n].x_mm - x, laid.places[n].y_mm - y)) for n, (x, y) in truth.items()}
    assert max(errors.values()) < 5.0, errors
    # Without --from-board the same taps are refused, naming what is missing.
    assert main(["layout", "--game", "incantibus", "--taps", str(taps), "--profile", str(profile), "--places-out", str(out)]) == 2
    assert "not tapped yet: r1, r2" in capsys.readouterr().err


def test_a_tap_on_the_wrong_place_does_not_fit_the_board(tmp_path: Path, table_profile, capsys) -> None:  # type: ignore[no-untyped-def]
    profile, r, t = table_profile
    truth = turned_board(0.0, (0.0, 0.0))
    wrong = {"r0": truth["r0"], "r8": truth["r7"], "s0": truth["s0"], "p2": truth["p2"]}  # r8 tapped on r7
    pixels = {n: np.rint(CAMERA.project(np.array([[*xy, 2.0]]), r, t)[0]).astype(int).tolist() for n, xy in wrong.items()}
    taps, out = tmp_path / "taps.json", tmp_path / "places.json"
    taps.write_text(json.dumps(pixels))
    assert main(["layout", "--game", "incantibus", "--taps", str(taps), "--profile", str(profile),
                 "--places-out", str(out), "--from-board"]) == 2
    assert "from where the board puts it given the other taps" in capsys.readouterr().err
    assert not out.exists()
    taps.write_text(json.dumps({"r0": pixels["r0"], "s0": pixels["s0"]}))
    assert main(["layout", "--game", "incantibus", "--taps", str(taps), "--profile", str(profile), "--from-board"]) == 2
    assert "tap at least 3 places" in capsys.readouterr().err


def test_the_board_in_the_game_file_is_the_table_sides_standard_layout() -> None:
    board = game_places("incantibus").board_mm
    assert board == {n: (p.x_mm, p.y_mm) for n, p in TABLE.places.items()}


def test_taps_whose_rays_meet_the_table_far_off_are_refused_in_words() -> None:
    # A ray grazing the table plane meets it kilometres away: no places file is written with such a place.
    game = game_places("incantibus")
    far = {"r0": (1.0, 1.0), "p2": (2.0, 1.0), "s11": (3.0, 1.0)}
    with pytest.raises(CalibrationError, match=r"off the table: places.r0.x_mm: .* \(got 50000.0\)"):
        lay_out(far, game, lambda pixels: pixels * 50_000.0)
    assert lay_out(far, game, lambda pixels: pixels * 100.0).places["p2"].x_mm == 200.0


def test_taps_off_their_tokens_snap_onto_them_from_the_picture(tmp_path: Path, table_profile, capsys) -> None:  # type: ignore[no-untyped-def]
    """A finger lands 8 px off each token (14 mm at this table): given the picture, the layout step
    puts every place back on its token; a seat is no token and stays as tapped."""
    profile, r, t = table_profile
    taps = taps_for(r, t)
    rng = np.random.default_rng(18)
    for name in TABLE.places:
        a = rng.uniform(0, 2 * np.pi)
        taps[name] = [round(taps[name][0] + 8 * np.cos(a), 1), round(taps[name][1] + 8 * np.sin(a), 1)]
    path, image, out = tmp_path / "taps.json", tmp_path / "table.png", tmp_path / "places.json"
    path.write_text(json.dumps(taps))
    cv2.imwrite(str(image), rendered_table(r, t))
    command = ["layout", "--game", "incantibus", "--taps", str(path), "--profile", str(profile), "--places-out", str(out)]

    def worst() -> float:
        laid = load_places(out)
        return max(float(np.hypot(laid.places[n].x_mm - p.x_mm, laid.places[n].y_mm - p.y_mm)) for n, p in TABLE.places.items())

    assert main(command) == 0
    assert "not snapped" in capsys.readouterr().out
    assert worst() > 10.0  # as tapped: a finger's width off
    assert main([*command, "--image", str(image)]) == 0
    said = capsys.readouterr().out
    assert f"{len(TABLE.places)} taps snapped to their tokens' centres" in said
    assert "kept where it was tapped" not in said
    assert worst() < 2.0, f"worst place off by {worst():.1f} mm"
    assert np.max(np.abs(np.array(load_places(out).seats) - np.array(SEATS_ON_TABLE))) < 5.0


def test_a_tap_on_a_place_with_no_token_is_kept_and_said(tmp_path: Path, table_profile, capsys) -> None:  # type: ignore[no-untyped-def]
    """r4's token is not on the table yet: its tap finds no token and stays exactly where it was tapped."""
    profile, r, t = table_profile
    taps = taps_for(r, t)
    taps["r4"] = [taps["r4"][0] + 4, taps["r4"][1] - 3]
    picture = rendered_table(r, t)
    r4 = TABLE.places["r4"]
    u, v = np.rint(CAMERA.project(np.array([[r4.x_mm, r4.y_mm, 0.0]]), r, t)).astype(int)[0]
    cv2.circle(picture, (int(u), int(v)), 12, (150, 170, 190), -1)  # bare table where the token would lie
    path, image, out = tmp_path / "taps.json", tmp_path / "table.png", tmp_path / "places.json"
    path.write_text(json.dumps(taps))
    cv2.imwrite(str(image), picture)
    assert main(["layout", "--game", "incantibus", "--taps", str(path), "--profile", str(profile),
                 "--places-out", str(out), "--image", str(image)]) == 0
    said = capsys.readouterr().out
    assert "r4: no clear token under the tap: kept where it was tapped" in said
    assert f"{len(TABLE.places) - 1} taps snapped" in said
    cal = load(profile)
    assert cal.table is not None
    as_tapped = pixels_to_table(np.array([taps["r4"]], np.float64), cal.camera.matrix(), cal.camera.dist_coeffs(),
                                np.array(cal.table.rvec), np.array(cal.table.tvec))[0]
    laid = load_places(out).places["r4"]
    assert np.hypot(laid.x_mm - as_tapped[0], laid.y_mm - as_tapped[1]) < 0.2

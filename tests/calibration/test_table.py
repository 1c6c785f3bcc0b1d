"""The table's pose from ArUco markers: detection on OpenCV's real photo, refusing what a wrong
dictionary reports, the pose against a hand-written projection, a rendered table end to end,
and the refusal of an uncalibrated table."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.__main__ import main
from calibration.model import CalibrationError
from calibration.profiles import load, save
from calibration.status import describe, require_table
from calibration.table import TableLayout, find_markers, solve_table_pose
from vision.profile import CameraIntrinsics, ImageSize, Profile, TablePose

from .conftest import ARUCO
from .synthetic import Pinhole, above

PHOTO = ARUCO / "singlemarkersoriginal.jpg"
WRONG_DICTIONARIES = ["DICT_4X4_50", "DICT_4X4_1000", "DICT_5X5_1000", "DICT_7X7_1000", "DICT_ARUCO_ORIGINAL",
                      "DICT_APRILTAG_36h11", "DICT_APRILTAG_16h5", "DICT_ARUCO_MIP_36h12"]
CAMERA = Pinhole(fx=600.0, fy=600.0, cx=322.0, cy=238.0, k1=-0.12, k2=0.03)
INTRINSICS = CameraIntrinsics(fx=600.0, fy=600.0, cx=322.0, cy=238.0, dist=(-0.12, 0.03, 0.0, 0.0, 0.0))
IMAGE = ImageSize(width=640, height=480)
LAYOUT = TableLayout("DICT_4X4_50", 50.0, {0: (60.0, 60.0), 1: (840.0, 60.0), 2: (840.0, 540.0),
                                           3: (60.0, 540.0), 4: (450.0, 300.0)})


def test_the_six_markers_of_opencvs_photo_are_found() -> None:
    found = find_markers(cv2.imread(str(PHOTO)), "DICT_6X6_250")
    assert len(found) == 6
    assert all(0 <= i < 250 for i in found)
    for corners in found.values():  # each a real square-ish quadrilateral of some size
        assert corners.shape == (4, 2) and cv2.contourArea(corners) > 400


@pytest.mark.parametrize("dictionary", WRONG_DICTIONARIES)
def test_a_wrong_dictionary_never_gives_a_table(dictionary: str) -> None:
    # Even a layout that would take every id of that dictionary refuses what it reports.
    found = find_markers(cv2.imread(str(PHOTO)), dictionary)
    anything = TableLayout(dictionary, 50.0, {i: (100.0 * (i % 10), 100.0 * (i // 10)) for i in range(1000)})
    assert len(found) < anything.min_markers
    with pytest.raises(CalibrationError, match="markers were seen"):
        solve_table_pose(found, anything, INTRINSICS)


def projected_markers(r: np.ndarray, t: np.ndarray, ids: list[int] | None = None) -> dict[int, np.ndarray]:
    ids = list(LAYOUT.markers) if ids is None else ids
    return {i: CAMERA.project(LAYOUT.corners_mm(i), r, t).astype(np.float32) for i in ids}


def assert_pose(pose: TablePose, r: np.ndarray, t: np.ndarray, mm: float, degrees: float) -> None:
    solved, _ = cv2.Rodrigues(np.array(pose.rvec))
    angle = np.degrees(np.arccos(np.clip((np.trace(solved.T @ r) - 1) / 2, -1, 1)))
    assert angle < degrees
    assert np.linalg.norm(np.array(pose.tvec) - t) < mm


@pytest.mark.parametrize("tilt", [(0, 0, 0), (30, 6, -4), (-100, -8, 3), (170, 2, 8)])
def test_the_pose_is_the_one_the_markers_were_projected_with(tilt: tuple[float, float, float]) -> None:
    r, t = above((450, 300), 1000.0, tilt)
    fit = solve_table_pose(projected_markers(r, t), LAYOUT, INTRINSICS)
    assert_pose(fit.pose, r, t, mm=1e-3, degrees=1e-4)
    assert fit.pose.rms_px is not None and fit.pose.rms_px < 1e-3
    assert fit.markers_used == [0, 1, 2, 3, 4] and fit.markers_missing == []


def test_pixel_noise_moves_the_pose_only_a_little() -> None:
    r, t = above((450, 300), 1000.0, (20, 5, -5))
    noisy = {i: c + np.random.default_rng(i).normal(0, 0.3, c.shape).astype(np.float32)
             for i, c in projected_markers(r, t).items()}
    fit = solve_table_pose(noisy, LAYOUT, INTRINSICS)
    assert_pose(fit.pose, r, t, mm=10.0, degrees=0.5)
    assert 0.1 < (fit.pose.rms_px or 0) < 0.6


def test_unknown_ids_are_ignored_and_missing_ones_reported() -> None:
    r, t = above((450, 300), 1000.0, (0, 0, 0))
    seen = projected_markers(r, t, [0, 2, 4])
    seen[33] = seen[0] + 40.0  # some other marker lying on the table
    fit = solve_table_pose(seen, LAYOUT, INTRINSICS)
    assert fit.markers_used == [0, 2, 4] and fit.markers_missing == [1, 3]
    with pytest.raises(CalibrationError, match=r"missing \[1, 2, 3\]"):
        solve_table_pose(projected_markers(r, t, [0, 4]), LAYOUT, INTRINSICS)


def test_a_marker_out_of_its_place_is_refused() -> None:
    r, t = above((450, 300), 1000.0, (10, 3, 0))
    moved = TableLayout(LAYOUT.dictionary, LAYOUT.marker_mm, {**LAYOUT.markers, 4: (300.0, 300.0)})
    with pytest.raises(CalibrationError, match="do not lie where the layout says"):
        solve_table_pose(projected_markers(r, t), moved, INTRINSICS)


def rendered_table(r: np.ndarray, t: np.ndarray) -> np.ndarray:
    """A 900x600 mm light table with the layout's markers, as the (undistorted) camera sees it."""
    px_per_mm = 2.0
    top = np.full((1200, 1800, 3), 215, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = int(LAYOUT.marker_mm * px_per_mm)
    for marker_id, (x, y) in LAYOUT.markers.items():
        u, v = int((x - LAYOUT.marker_mm / 2) * px_per_mm), int((600 - y - LAYOUT.marker_mm / 2) * px_per_mm)
        top[v:v + side, u:u + side] = cv2.cvtColor(cv2.aruco.generateImageMarker(dictionary, marker_id, side), cv2.COLOR_GRAY2BGR)
    flat = Pinhole(CAMERA.fx, CAMERA.fy, CAMERA.cx, CAMERA.cy)
    return flat.picture(top, px_per_mm, 600.0, r, t)


def test_a_rendered_table_is_found_end_to_end(tmp_path: Path, cal_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    r, t = above((450, 300), 1200.0, (8, 4, -3))
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), rendered_table(r, t))
    layout = tmp_path / "layout.json"
    layout.write_text(json.dumps({"dictionary": LAYOUT.dictionary, "marker_mm": LAYOUT.marker_mm,
                                  "markers": {str(k): v for k, v in LAYOUT.markers.items()}}))
    save(Profile(image=IMAGE, camera=CameraIntrinsics(fx=CAMERA.fx, fy=CAMERA.fy, cx=CAMERA.cx, cy=CAMERA.cy)), cal_path)

    assert main(["table", "--cal", str(cal_path), "--image", str(image), "--layout", str(layout)]) == 0
    assert "markers [0, 1, 2, 3, 4]" in capsys.readouterr().out
    calibration = require_table(cal_path)
    assert_pose(calibration.table, r, t, mm=15.0, degrees=0.5)  # type: ignore[arg-type]
    assert load(cal_path).notes["table"]["markers_missing"] == []
    assert any(line.startswith("table: calibrated, camera 1.20 m above the table") for line in describe(cal_path))


def test_an_uncalibrated_table_is_refused_with_what_to_run(cal_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(CalibrationError, match="python -m calibration camera"):
        require_table(cal_path)
    save(Profile(image=IMAGE, camera=INTRINSICS), cal_path)
    with pytest.raises(CalibrationError, match="python -m calibration table"):
        require_table(cal_path)
    assert main(["status", "--cal", str(cal_path)]) == 0
    out = capsys.readouterr().out
    assert "table: not calibrated" in out and "next: `python -m calibration table" in out


def test_the_table_step_needs_the_camera_first(tmp_path: Path, cal_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["table", "--cal", str(cal_path), "--image", str(PHOTO)]) == 2
    assert "python -m calibration camera" in capsys.readouterr().err
    assert not cal_path.exists()


def test_a_damaged_layout_file_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "layout.json"
    bad.write_text('{"dictionary": "DICT_4X4_50", "markers": {}}')
    with pytest.raises(CalibrationError, match=str(bad)):
        TableLayout.load(bad)
    bad.write_text('{"dictionary": "DICT_4X4_51", "marker_mm": 40, "markers": {"0": [0, 0]}}')
    with pytest.raises(ValueError, match="'DICT_4X4_51'"):
        TableLayout.load(bad)

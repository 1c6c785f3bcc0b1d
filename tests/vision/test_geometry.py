"""The renderer's own camera math against OpenCV's, and the detector's geometry against the renderer."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.render.camera import rotation_vector
from vision.render.people import WandPose
from vision.render.scene import random_camera
from vision.table_geometry import TableGeometry, UncalibratedTable


def table_points(rng: np.random.Generator, n: int = 50) -> np.ndarray:
    return np.c_[rng.uniform(150, 850, n), rng.uniform(150, 650, n), rng.uniform(0, 300, n)]


@pytest.mark.parametrize("seed", range(6))
def test_renderer_projection_agrees_with_opencv(seed: int) -> None:
    rng = np.random.default_rng(seed)
    cam = random_camera(rng)
    calib = cam.calibration()
    pts = table_points(rng)
    theirs, _ = cv2.projectPoints(pts.reshape(-1, 1, 3), np.array(calib.table.rvec), np.array(calib.table.tvec),
                                  calib.camera.matrix(), calib.camera.dist_coeffs())
    assert np.abs(cam.project(pts) - theirs.reshape(-1, 2)).max() < 1e-6


@pytest.mark.parametrize("seed", range(4))
def test_rotation_vector_agrees_with_rodrigues(seed: int) -> None:
    cam = random_camera(np.random.default_rng(seed))
    assert np.allclose(cv2.Rodrigues(rotation_vector(cam.rotation))[0], cam.rotation, atol=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_pixel_back_to_the_table_point(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    cam = random_camera(rng)
    geo = TableGeometry(cam.calibration())
    for p in table_points(rng, 20):
        back = geo.at_height(cam.project(p[None])[0], np.array([p[2]]))[0]
        assert np.linalg.norm(back - p) < 0.05  # mm, after undistorting with OpenCV


def test_camera_height_is_measured_from_the_pose() -> None:
    rng = np.random.default_rng(3)
    cam = random_camera(rng)
    assert TableGeometry(cam.calibration()).height_mm == pytest.approx(cam.centre[2], abs=1e-6)
    assert 780 < cam.centre[2] < 1220


def test_wand_table_hit_is_on_the_axis_and_the_table() -> None:
    tip = np.array([400.0, 300.0, 50.0])
    d = np.array([0.6, 0.0, -0.8])
    hit = WandPose(tip, d).table_hit()
    assert hit[2] == pytest.approx(0.0)
    assert hit[0] == pytest.approx(400 + 50 * 0.6 / 0.8)
    assert WandPose(tip, np.array([1.0, 0, 0])).table_hit() is None


def test_uncalibrated_table_is_refused_with_instructions() -> None:
    profile = random_camera(np.random.default_rng(0)).calibration()
    with pytest.raises(UncalibratedTable, match=r"python -m calibration"):
        TableGeometry(profile.with_parts(table=None))
    assert issubclass(UncalibratedTable, ValueError)

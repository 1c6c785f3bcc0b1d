"""From image pixels to the table and back, through the calibration (OpenCV's camera model).

Table frame: millimetres, origin at a table corner, z up (``vision.profile.TablePose``).
"""
from __future__ import annotations

import cv2
import numpy as np

from typing import Protocol


class Intrinsics(Protocol):
    def matrix(self) -> np.ndarray: ...
    def dist_coeffs(self) -> np.ndarray: ...


class Pose(Protocol):
    @property
    def rvec(self) -> tuple[float, float, float]: ...
    @property
    def tvec(self) -> tuple[float, float, float]: ...


class Calibrated(Protocol):
    """A profile (``vision.profile.Profile``) or anything else with the camera and the table's pose."""

    @property
    def camera(self) -> Intrinsics: ...
    @property
    def table(self) -> Pose | None: ...


class UncalibratedTable(ValueError):
    """The table's pose is unknown, so no pixel can be related to a token."""


class TableGeometry:
    """Rays from the camera through pixels, expressed in the table frame."""

    def __init__(self, calibration: Calibrated) -> None:
        if calibration.table is None:
            raise UncalibratedTable("the table is not calibrated: lay the calibration board on the table and run "
                                    "`python -m calibration` to measure where the table is, then start again")
        self.K = calibration.camera.matrix()
        self.dist = calibration.camera.dist_coeffs()
        self.rvec = np.asarray(calibration.table.rvec, np.float64)
        self.tvec = np.asarray(calibration.table.tvec, np.float64)
        self.R = cv2.Rodrigues(self.rvec)[0]
        self.centre = -self.R.T @ self.tvec  # (3,) camera position in table mm

    @property
    def height_mm(self) -> float:
        """How far the camera is above the table plane."""
        return float(self.centre[2])

    @property
    def focal_px(self) -> float:
        return float(self.K[0, 0])

    def undistort(self, pixels: np.ndarray) -> np.ndarray:
        """(N,2) distorted pixels -> (N,2) normalised image coordinates (x/z, y/z)."""
        pts = np.asarray(pixels, np.float64).reshape(-1, 1, 2)
        return cv2.undistortPoints(pts, self.K, self.dist).reshape(-1, 2)

    def rays(self, pixels: np.ndarray) -> np.ndarray:
        """(N,2) pixels -> (N,3) ray directions in the table frame (not normalised; z component < 0
        for rays going down to the table)."""
        n = self.undistort(pixels)
        return np.c_[n, np.ones(len(n))] @ self.R  # R.T applied to each row

    def at_height(self, pixel: np.ndarray, heights: np.ndarray) -> np.ndarray:
        """(2,) pixel, (M,) heights in mm -> (M,3) points on that pixel's ray at those heights."""
        d = self.rays(np.asarray(pixel, np.float64)[None])[0]
        s = (np.asarray(heights, np.float64) - self.centre[2]) / d[2]
        return self.centre[None, :] + s[:, None] * d[None, :]

    def on_plane(self, pixels: np.ndarray, height: float) -> np.ndarray:
        """(N,2) pixels -> (N,3) points where their rays cross the plane ``height`` mm above the table."""
        d = self.rays(np.asarray(pixels, np.float64).reshape(-1, 2))
        s = (height - self.centre[2]) / d[:, 2]
        return self.centre[None, :] + s[:, None] * d

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N,3) table points -> (N,2) distorted pixels."""
        px, _ = cv2.projectPoints(np.asarray(points, np.float64).reshape(-1, 1, 3), self.rvec, self.tvec, self.K, self.dist)
        return px.reshape(-1, 2)

    def bead_radius_px(self, points: np.ndarray, radius_mm: float) -> np.ndarray:
        """(H,3) bead centres in table mm -> (H,) apparent radius in pixels of a bead of ``radius_mm``.

        A ball off the optical axis looks stretched away from the image centre: its outline's area grows
        as 1/cos^3 of the angle off the axis, so the equal-area radius grows as 1/cos^1.5."""
        v = np.asarray(points, np.float64) - self.centre[None, :]
        dist = np.linalg.norm(v, axis=1)
        cos = np.clip((v @ self.R[2]) / np.maximum(dist, 1e-9), 0.2, 1.0)
        return self.focal_px * radius_mm / np.maximum(dist, 1.0) / cos ** 1.5

    def px_per_mm(self, height_mm: float = 0.0) -> float:
        """Approximate image scale for something ``height_mm`` above the table under the camera."""
        return self.focal_px / max(self.height_mm - height_mm, 1.0)

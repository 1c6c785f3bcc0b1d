"""From image pixels to the table and back, through the calibration (OpenCV's camera model).

Table frame: millimetres, origin at a table corner, z up (``calibration.model.TablePose``).
"""
from __future__ import annotations

import cv2
import numpy as np

from calibration.model import Calibration


class UncalibratedTable(ValueError):
    """The table's pose is unknown, so no pixel can be related to a token."""


class TableGeometry:
    """Rays from the camera through pixels, expressed in the table frame."""

    def __init__(self, calibration: Calibration) -> None:
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

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N,3) table points -> (N,2) distorted pixels."""
        px, _ = cv2.projectPoints(np.asarray(points, np.float64).reshape(-1, 1, 3), self.rvec, self.tvec, self.K, self.dist)
        return px.reshape(-1, 2)

    def px_per_mm(self, height_mm: float = 0.0) -> float:
        """Approximate image scale for something ``height_mm`` above the table under the camera."""
        return self.focal_px / max(self.height_mm - height_mm, 1.0)

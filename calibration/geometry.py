"""From a pixel of the camera image to the table, through the calibrated camera and table pose.

Table frame: millimetres, origin at a table corner, z up (the marker layout defines it).
"""
from __future__ import annotations

import cv2
import numpy as np


def pixels_to_table(pixels: np.ndarray, matrix: np.ndarray, dist: np.ndarray, rvec: np.ndarray,
                    tvec: np.ndarray, z_mm: float = 0.0) -> np.ndarray:
    """(N, 2) distorted pixels -> (N, 2) table points (mm) where their rays meet the plane z = ``z_mm``.
    A ray that does not go down to the table gives NaN."""
    normalised = cv2.undistortPoints(np.asarray(pixels, np.float64).reshape(-1, 1, 2), matrix, dist).reshape(-1, 2)
    rotation = cv2.Rodrigues(np.asarray(rvec, np.float64))[0]
    centre = -rotation.T @ np.asarray(tvec, np.float64).ravel()  # the camera in table mm
    rays = np.c_[normalised, np.ones(len(normalised))] @ rotation  # each row: R.T @ ray
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (z_mm - centre[2]) / rays[:, 2]
    s = np.where(s > 0, s, np.nan)
    points: np.ndarray = (centre[None, :] + s[:, None] * rays)[:, :2]
    return points


def table_to_pixels(points: np.ndarray, matrix: np.ndarray, dist: np.ndarray, rvec: np.ndarray,
                    tvec: np.ndarray) -> np.ndarray:
    """(N, 3) table points (mm) -> (N, 2) distorted pixels."""
    pixels, _ = cv2.projectPoints(np.asarray(points, np.float64).reshape(-1, 1, 3), np.asarray(rvec, np.float64),
                                  np.asarray(tvec, np.float64), matrix, dist)
    return pixels.reshape(-1, 2)

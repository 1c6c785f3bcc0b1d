"""A pinhole camera with Brown distortion over the table, written without OpenCV's projection code.

Table frame: origin at a table corner, x and y along the table in millimetres, z up.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.profile import CameraIntrinsics, ImageSize, Profile, TablePose


@dataclass(frozen=True)
class RenderCamera:
    """Intrinsics plus pose. ``rotation`` (3x3) maps table to camera coordinates; ``centre`` (3,) is the
    camera's position in the table frame (mm)."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, float, float, float, float]
    rotation: np.ndarray
    centre: np.ndarray

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        """(N,3) table points -> (N,3) camera coordinates (z forward)."""
        return (np.asarray(points, float) - self.centre) @ self.rotation.T

    def depth(self, points: np.ndarray) -> np.ndarray:
        """(N,3) table points -> (N,) distance along the optical axis (mm)."""
        return self.to_camera(points)[:, 2]

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N,3) table points -> (N,2) distorted pixel coordinates."""
        pc = self.to_camera(points)
        x, y = pc[:, 0] / pc[:, 2], pc[:, 1] / pc[:, 2]
        k1, k2, p1, p2, k3 = self.dist
        r2 = x * x + y * y
        radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        return np.stack([self.fx * xd + self.cx, self.fy * yd + self.cy], axis=1)

    def pixel_scale(self, points: np.ndarray) -> np.ndarray:
        """(N,3) table points -> (N,) pixels per millimetre at that depth (ignoring distortion)."""
        return self.fx / self.depth(points)

    def scaled(self, factor: int) -> RenderCamera:
        """The same camera drawn at ``factor`` times the resolution (for supersampling); pixel centres
        stay put: low-res pixel u covers high-res pixels factor*u .. factor*u + factor - 1."""
        shift = (factor - 1) / 2
        return RenderCamera(self.width * factor, self.height * factor, self.fx * factor, self.fy * factor,
                            self.cx * factor + shift, self.cy * factor + shift, self.dist, self.rotation,
                            self.centre)

    def calibration(self) -> Profile:
        """What a perfect calibration of this camera would have written (camera and table only). Tests
        of geometry use it; the bench never does: it calibrates from rendered pictures, as a user would."""
        intr = CameraIntrinsics(fx=self.fx, fy=self.fy, cx=self.cx, cy=self.cy,
                                dist=tuple(float(v) for v in self.dist))  # type: ignore[arg-type]
        tvec = -self.rotation @ self.centre
        pose = TablePose(rvec=tuple(float(v) for v in rotation_vector(self.rotation)),  # type: ignore[arg-type]
                         tvec=tuple(float(v) for v in tvec))  # type: ignore[arg-type]
        return Profile(image=ImageSize(width=self.width, height=self.height), camera=intr, table=pose)


def rotation_vector(rotation: np.ndarray) -> np.ndarray:
    """3x3 rotation -> (3,) axis-angle vector (Rodrigues), by the textbook formula."""
    angle = math.acos(max(-1.0, min(1.0, (np.trace(rotation) - 1) / 2)))
    if angle < 1e-9:
        return np.zeros(3)
    if abs(angle - math.pi) < 1e-6:
        # Near 180 degrees the antisymmetric part vanishes; take the axis from the symmetric part.
        m = (rotation + np.eye(3)) / 2
        axis = m[np.argmax(np.diag(m))]
        return axis / np.linalg.norm(axis) * angle
    axis = np.array([rotation[2, 1] - rotation[1, 2], rotation[0, 2] - rotation[2, 0], rotation[1, 0] - rotation[0, 1]])
    return axis / (2 * math.sin(angle)) * angle


def _axis_rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    """3x3 rotation by ``angle`` radians about unit ``axis`` (3,)."""
    x, y, z = axis / np.linalg.norm(axis)
    c, s, C = math.cos(angle), math.sin(angle), 1 - math.cos(angle)
    return np.array([[c + x * x * C, x * y * C - z * s, x * z * C + y * s],
                     [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
                     [z * x * C - y * s, z * y * C + x * s, c + z * z * C]])


def overhead_camera(look_at: tuple[float, float], height_mm: float, tilt_deg: float, tilt_dir_deg: float,
                    roll_deg: float, hfov_deg: float, width: int = 640, height: int = 480,
                    dist: tuple[float, float, float, float, float] = (0, 0, 0, 0, 0),
                    principal_offset: tuple[float, float] = (0.0, 0.0)) -> RenderCamera:
    """A camera ``height_mm`` above the table looking at ``look_at`` (table mm), tilted ``tilt_deg`` from
    straight down towards compass direction ``tilt_dir_deg`` and rolled ``roll_deg`` about its axis."""
    # Straight down: image x along table x, image y along table -y (so the picture is not mirrored).
    axes = np.array([[1.0, 0, 0], [0, -1.0, 0], [0, 0, -1.0]])
    roll = _axis_rotation(np.array([0, 0, 1.0]), math.radians(roll_deg))
    d = math.radians(tilt_dir_deg)
    tilt = _axis_rotation(np.array([-math.sin(d), math.cos(d), 0.0]), math.radians(tilt_deg))
    axes = (tilt @ roll @ axes.T).T  # rows: camera x, y, z axes in table coordinates
    view = axes[2]
    centre = np.array([look_at[0], look_at[1], 0.0]) - view * (height_mm / -view[2])
    f = (width / 2) / math.tan(math.radians(hfov_deg) / 2)
    return RenderCamera(width, height, f, f, (width - 1) / 2 + principal_offset[0],
                        (height - 1) / 2 + principal_offset[1], dist, axes, centre)

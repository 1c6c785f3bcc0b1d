"""A pinhole camera written out by hand, independent of OpenCV's projection, and pictures of
flat boards and tables rendered through it by warping a top view onto the camera's image."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


def rotation(yaw_deg: float, pitch_deg: float, roll_deg: float) -> np.ndarray:
    """(3, 3) rotation: about z by yaw, then about y by pitch, then about x by roll."""
    a, b, c = np.radians([yaw_deg, pitch_deg, roll_deg])
    rz = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    ry = np.array([[np.cos(b), 0, np.sin(b)], [0, 1, 0], [-np.sin(b), 0, np.cos(b)]])
    rx = np.array([[1, 0, 0], [0, np.cos(c), -np.sin(c)], [0, np.sin(c), np.cos(c)]])
    return rx @ ry @ rz


LOOK_DOWN = np.array([[1.0, 0, 0], [0, -1.0, 0], [0, 0, -1.0]])  # image x = table x, image y = -table y


@dataclass(frozen=True)
class Pinhole:
    fx: float
    fy: float
    cx: float
    cy: float
    k1: float = 0.0
    k2: float = 0.0
    size: tuple[int, int] = (640, 480)

    def matrix(self) -> np.ndarray:
        return np.array([[self.fx, 0, self.cx], [0, self.fy, self.cy], [0, 0, 1.0]])

    def project(self, points: np.ndarray, r: np.ndarray, t: np.ndarray) -> np.ndarray:
        """(N, 3) world points -> (N, 2) pixels: x_cam = R X + t, radial distortion k1, k2."""
        cam = points @ r.T + t
        x, y = cam[:, 0] / cam[:, 2], cam[:, 1] / cam[:, 2]
        r2 = x * x + y * y
        scale = 1 + self.k1 * r2 + self.k2 * r2 * r2
        return np.stack([self.fx * x * scale + self.cx, self.fy * y * scale + self.cy], axis=1)

    def picture(self, top_view: np.ndarray, px_per_mm: float, height_mm: float,
                r: np.ndarray, t: np.ndarray) -> np.ndarray:
        """The camera's image of a flat top view (x right, y up, origin bottom-left), no distortion."""
        canvas_to_plane = np.array([[1 / px_per_mm, 0, 0], [0, -1 / px_per_mm, height_mm], [0, 0, 1]])
        plane_to_image = self.matrix() @ np.column_stack([r[:, 0], r[:, 1], t])
        h = plane_to_image @ canvas_to_plane
        return cv2.warpPerspective(top_view, h, self.size, flags=cv2.INTER_AREA, borderValue=(90, 90, 90))


def above(centre_mm: tuple[float, float], height_mm: float, tilt: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """(R, t) of a camera over a point of the table looking down, tilted by (yaw, pitch, roll)."""
    r = rotation(*tilt) @ LOOK_DOWN
    centre = np.array([centre_mm[0], centre_mm[1], height_mm])
    return r, -r @ centre

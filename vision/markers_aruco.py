"""The compared alternative marker: a printed 4x4 ArUco flag (DICT_4X4_50, id = wand strength) lying
along the shaft ``flag_from_tip_mm`` back from the tip. Kept to measure it against the chosen caps
(``python -m vision markers``); the pipeline uses the caps."""
from __future__ import annotations

import cv2
import numpy as np

from vision.axis import WandAxis
from vision.table_geometry import TableGeometry

FLAG_FROM_TIP_MM = 60.0
MARKER_MM = 24.0  # the black square; the flag is 32 mm with its white quiet zone
FLAG_ABOVE_AXIS_MM = 5.5


class FlagFinder:
    """Finds wand flags and turns each into an axis (tip and flag centre, in pixels) and a 3D tip."""

    def __init__(self, geo: TableGeometry) -> None:
        self.geo = geo
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        self.detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
        h = MARKER_MM / 2
        self.square = np.array([[-h, h, 0], [h, h, 0], [h, -h, 0], [-h, -h, 0]], np.float64)

    def find(self, image_bgr: np.ndarray) -> dict[int, tuple[WandAxis, np.ndarray]]:
        """(H,W,3) uint8 -> {strength: (axis, tip (3,) in table mm)} for ids 1-4."""
        corners, ids, _ = self.detector.detectMarkers(image_bgr)
        out = {}
        for c, i in zip(corners, [] if ids is None else ids.ravel()):
            if 1 <= int(i) <= 4:
                out[int(i)] = self._wand(int(i), c.reshape(4, 2).astype(np.float64))
        return out

    def _wand(self, strength: int, corners: np.ndarray) -> tuple[WandAxis, np.ndarray]:
        ok, rvec, tvec = cv2.solvePnP(self.square, corners, self.geo.K, self.geo.dist, flags=cv2.SOLVEPNP_IPPE_SQUARE)
        # The marker's y axis runs towards the tip; the shaft is just below the flag.
        local = np.array([[0, FLAG_FROM_TIP_MM, -FLAG_ABOVE_AXIS_MM], [0, 0, -FLAG_ABOVE_AXIS_MM]])
        cam = (cv2.Rodrigues(rvec)[0] @ local.T).T + tvec.ravel()
        table = (cam - self.geo.tvec) @ self.geo.R  # camera -> table frame
        px = self.geo.project(table)
        return WandAxis(strength, px[0], px[1], FLAG_FROM_TIP_MM, "flag"), table[0]

"""A table with the default markers and a disc at every Incantibus place, pictured by the hand-written
pinhole camera of ``synthetic.py``."""
from __future__ import annotations

import cv2
import numpy as np

from calibration.table import DEFAULT_LAYOUT, TableLayout
from companion.tableside.places import standard_places

from .synthetic import Pinhole

LAYOUT = TableLayout.load(DEFAULT_LAYOUT)
CAMERA = Pinhole(fx=560.0, fy=560.0, cx=318.0, cy=243.0)
TABLE = standard_places()


def rendered_table(r: np.ndarray, t: np.ndarray, covered: tuple[int, ...] = ()) -> np.ndarray:
    """A 1000x800 mm table with the default markers (but the ``covered`` ones, under a sleeve) and a
    disc at every place, as the camera sees it."""
    px_per_mm = 2.0
    top = np.full((1600, 2000, 3), (150, 170, 190), np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = int(LAYOUT.marker_mm * px_per_mm)
    for marker_id, (x, y) in LAYOUT.markers.items():
        u, v = int((x - LAYOUT.marker_mm / 2) * px_per_mm), int((800 - y - LAYOUT.marker_mm / 2) * px_per_mm)
        white = cv2.copyMakeBorder(cv2.aruco.generateImageMarker(dictionary, marker_id, side), 16, 16, 16, 16,
                                   cv2.BORDER_CONSTANT, value=255)
        top[v - 16:v + side + 16, u - 16:u + side + 16] = cv2.cvtColor(white, cv2.COLOR_GRAY2BGR)
        if marker_id in covered:
            cv2.ellipse(top, (u + side // 2, v + side // 2), (side, side // 2), 30, 0, 360, (70, 60, 120), -1)
    for place in TABLE.places.values():
        cv2.circle(top, (int(place.x_mm * px_per_mm), int((800 - place.y_mm) * px_per_mm)), 30, (60, 90, 150), -1)
    return CAMERA.picture(top, px_per_mm, 800.0, r, t)



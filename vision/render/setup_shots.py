"""Rendered pictures for setting a table up, as a user takes them: a chessboard held under the camera
in many poses, the marker sheet's markers lying on the table, and where a person taps each place.

Flat printed things are drawn cell by cell, each cell's edges subdivided and projected through the
camera's own lens model, so the pictures carry the lens's distortion as a real camera's would.
"""
from __future__ import annotations

import math
from collections.abc import Mapping

import cv2
import numpy as np

from vision.render import draw, effects
from vision.render.camera import RenderCamera, _axis_rotation
from vision.render.scene import SUPERSAMPLE, Scene
from vision.render.table import Layout


def _cell(origin: np.ndarray, u: np.ndarray, v: np.ndarray, steps: int = 4) -> np.ndarray:
    """(4*steps,3) outline of the parallelogram origin + [0,1]u + [0,1]v, edges subdivided."""
    corners = [origin, origin + u, origin + u + v, origin + v]
    return np.array([corners[i] + (corners[(i + 1) % 4] - corners[i]) * s / steps for i in range(4) for s in range(steps)])


def _fill(cam: RenderCamera, image: np.ndarray, outline: np.ndarray, colour: tuple[int, int, int]) -> None:
    cv2.fillPoly(image, [draw._fix(cam.project(outline))], colour, cv2.LINE_AA, draw.SHIFT)


def _deliver(camera: RenderCamera, canvas: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    small = cv2.resize(canvas, (camera.width, camera.height), interpolation=cv2.INTER_AREA)
    return effects.apply(small, effects.nominal(rng), rng)


def board_views(camera: RenderCamera, table: np.ndarray, rng: np.random.Generator, inner: tuple[int, int] = (9, 6),
                square_mm: float = 25.0, count: int = 14) -> list[np.ndarray]:
    """Pictures of a printed chessboard (``inner`` corners, ``square_mm`` squares) held 300-600 mm under
    the camera (so it fills a good part of the picture) at many tilts, as the camera step asks.
    ``table``: the supersampled table behind it."""
    hi = camera.scaled(SUPERSAMPLE)
    cols, rows = inner[0] + 1, inner[1] + 1
    out: list[np.ndarray] = []
    while len(out) < count:
        tilt = _axis_rotation(np.array([math.cos(a := rng.uniform(0, 2 * math.pi)), math.sin(a), 0.0]),
                              math.radians(rng.uniform(5, 40)))
        spin = _axis_rotation(np.array([0, 0, 1.0]), rng.uniform(0, 2 * math.pi))
        u, v = (tilt @ spin @ np.eye(3))[:, 0] * square_mm, (tilt @ spin @ np.eye(3))[:, 1] * square_mm
        below = camera.centre[2] - rng.uniform(300, 600)
        centre = np.r_[camera.centre[:2] + rng.uniform(-1, 1, 2) * 0.45 * (camera.centre[2] - below), below]
        origin = centre - u * cols / 2 - v * rows / 2
        sheet = _cell(origin - u - v, u * (cols + 2), v * (rows + 2), 12)
        px = camera.project(sheet)
        if px.min() < 5 or px[:, 0].max() > camera.width - 5 or px[:, 1].max() > camera.height - 5:
            continue  # the whole board must be in the picture
        canvas = table.copy()
        _fill(hi, canvas, sheet, (235, 235, 235))
        for i in range(cols):
            for j in range(rows):
                if (i + j) % 2 == 0:
                    _fill(hi, canvas, _cell(origin + u * i + v * j, u, v), (20, 20, 20))
        out.append(_deliver(camera, canvas, rng))
    return out


def marker_sheet_view(camera: RenderCamera, table: np.ndarray, markers: Mapping[int, tuple[float, float]],
                      marker_mm: float, dictionary: str, rng: np.random.Generator) -> np.ndarray:
    """The table with its ArUco markers lying at their places (top edge towards +y), as the table step
    photographs it."""
    canvas = table.copy()
    lay_markers(camera, canvas, markers, marker_mm, dictionary)
    return _deliver(camera, canvas, rng)


def lay_markers(camera: RenderCamera, canvas: np.ndarray, markers: Mapping[int, tuple[float, float]],
                marker_mm: float, dictionary: str) -> None:
    """The printed markers laid on a supersampled table ``canvas`` (drawn in place, under whatever is
    drawn on it afterwards: hands and wands pass over them)."""
    hi = camera.scaled(SUPERSAMPLE)
    code = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    for marker_id, (x, y) in markers.items():
        bits = cv2.aruco.generateImageMarker(code, int(marker_id), 6) < 128  # 4x4 bits + black border
        cell = marker_mm / 6
        top_left = np.array([x - marker_mm / 2, y + marker_mm / 2, 0.0])
        margin = np.array([-cell, cell, 0.0])
        _fill(hi, canvas, _cell(top_left + margin, np.array([marker_mm + 2 * cell, 0, 0]),
                                np.array([0, -(marker_mm + 2 * cell), 0])), (240, 240, 240))
        for r in range(6):
            for c in range(6):
                if bits[r, c]:
                    _fill(hi, canvas, _cell(top_left + np.array([c * cell, -r * cell, 0]), np.array([cell, 0, 0]),
                                            np.array([0, -cell, 0])), (15, 15, 15))


def place_taps(camera: RenderCamera, layout: Layout, places: Mapping[str, tuple[float, float]],
               rng: np.random.Generator, sigma_px: float = 1.0,
               wobble_px: tuple[float, float] | None = None) -> dict[str, list[float]]:
    """Where a person taps each place on the camera preview: on the token lying there as it is seen (its
    centre), or on the printed space where none lies. ``wobble_px`` (low, high): each tap lands that many
    pixels off in a random direction, as a finger on a preview does; else ``sigma_px`` of noise."""
    out = {}
    for name, nominal in places.items():
        token = next((t for t in layout.tokens if t.id == name), None)
        point = np.array([[token.x_mm, token.y_mm, 2.0]]) if token else np.array([[nominal[0], nominal[1], 0.0]])
        if wobble_px is None:
            off = rng.normal(0, sigma_px, 2)
        else:
            a = rng.uniform(0, 2 * math.pi)
            off = rng.uniform(*wobble_px) * np.array([math.cos(a), math.sin(a)])
        px = camera.project(point)[0] + off
        out[name] = [round(float(px[0]), 1), round(float(px[1]), 1)]
    return out


def empty_table(camera: RenderCamera, layout: Layout, seed: int) -> np.ndarray:
    """The supersampled table with its tokens (what the setup pictures are drawn over)."""
    return Scene(seed, camera, layout, {}, {}, frames=1).background()

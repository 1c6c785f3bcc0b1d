"""A rendered table behind the camera seam for the guided flow: one camera over one table, with the
default marker sheet lying at its places, and what the players do in front of it staged by the test:
"casting" (vision's rendered casting, wands pointing), "empty" (the table alone), "wands" (the wands
held with their tips resting on the table, one token painted in wand 2's colour) or "board" (a printed
chessboard held under the camera, pose ``board_pose``)."""
from __future__ import annotations

import time

import cv2
import numpy as np

from calibration.table import DEFAULT_LAYOUT, TableLayout
from vision.frames import Frame
from vision.render.camera import RenderCamera
from vision.render.scene import FPS, make_scene
from vision.render.setup_shots import board_views, empty_table
from vision.render.table import Token
from vision.render.wandstep import wand_step_frames

LAYOUT = TableLayout.load(DEFAULT_LAYOUT)
QUIET_MM = 8.0
LAID_WITHIN_MM = 10.0  # a token laid by hand lies at most this far from its printed place


def paint_markers(image: np.ndarray, camera: RenderCamera, layout: TableLayout = LAYOUT) -> np.ndarray:
    """The printed markers drawn onto the picture through the renderer's own (distorting) projection,
    cell by cell, top edge towards +y as the table step expects."""
    out = image.copy()
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.dictionary))
    s = layout.marker_mm
    for marker_id, (cx, cy) in layout.markers.items():
        _quad(out, camera, cx - s / 2 - QUIET_MM, cy - s / 2 - QUIET_MM, s + 2 * QUIET_MM, 255)
        cells = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)
        for r in range(6):
            for c in range(6):
                _quad(out, camera, cx - s / 2 + c * s / 6, cy + s / 2 - (r + 1) * s / 6, s / 6, int(cells[r, c]))
    return out


def _quad(image: np.ndarray, camera: RenderCamera, x: float, y: float, side: float, grey: int) -> None:
    n = 4  # points per edge, so lens distortion bends the edges as it bends the printed sheet
    edge = np.linspace(0, side, n, endpoint=False)
    outline = np.array([[x + e, y, 0] for e in edge] + [[x + side, y + e, 0] for e in edge] +
                       [[x + side - e, y + side, 0] for e in edge] + [[x, y + side - e, 0] for e in edge])
    pixels = np.round(camera.project(outline) * 16).astype(np.int32)
    cv2.fillPoly(image, [pixels], (grey, grey, grey), cv2.LINE_AA, 4)


class StagedTable:
    """A FrameSource; ``stage`` may be changed at any time by the test (the players' next move). In
    "casting" the players point as vision's rendered casting has them, in real time from ``point()``,
    and then keep pointing."""

    def __init__(self, seed: int = 5) -> None:
        self.scene = make_scene(seed, "hover", motion=True, reaim=0.3)
        self.camera = self.scene.camera
        self.shot = wand_step_frames(seed, camera=self.camera, layout=self.scene.layout, lookalike_for=2, count=4)
        self.stage = "casting"
        self._index = 0
        self._boards: list[np.ndarray] = []
        self.board_pose = 0
        self.point()

    def boards(self, count: int) -> list[np.ndarray]:
        """``count`` pictures of the chessboard held at different poses, drawn once (they take a while)."""
        if len(self._boards) < count:
            table = empty_table(self.camera, self.scene.layout, 5)
            self._boards = board_views(self.camera, table, np.random.default_rng(17), count=count)
        return self._boards

    def token_at(self, x_mm: float, y_mm: float) -> Token | None:
        """The token laid at the printed place (x_mm, y_mm) (by hand, a few mm off it), or None."""
        lying = min(self.scene.layout.tokens, key=lambda t: np.hypot(t.x_mm - x_mm, t.y_mm - y_mm))
        return lying if np.hypot(lying.x_mm - x_mm, lying.y_mm - y_mm) < LAID_WITHIN_MM else None

    def point(self) -> None:
        """The players raise their wands and point again (the casting starts over, now)."""
        self.stage, self._cue = "casting", time.monotonic()

    def read(self) -> Frame | None:
        self._index += 1
        if self.stage == "empty":
            image = self.shot.table
        elif self.stage == "board":
            image = self._boards[self.board_pose % len(self._boards)]
        elif self.stage == "wands":
            image = self.shot.frames[self._index % len(self.shot.frames)]
        else:
            at = min(int((time.monotonic() - self._cue) * FPS), self.scene.frames - 1)
            image = self.scene.render(at)[0].image
        markers = self.stage != "board"  # the board photos are delivered as vision's renderer drew them
        return Frame(paint_markers(image, self.camera) if markers else image, time.monotonic(), self._index)

    def close(self) -> None:
        pass

"""Two tokens 50 mm apart under one camera, with the documented paints on 12 mm beads: where the vision
tests place a wand by hand (``WandAxis``) to test the reading apart from the wand stage."""
from __future__ import annotations

import cv2
import numpy as np

from vision.axis import WandAxis
from vision.config import VisionConfig
from vision.decide import TARGET
from vision.frames import Frame
from vision.paints import documented_paints
from vision.pipeline import Pipeline
from vision.render.scene import random_camera
from vision.table_geometry import TableGeometry
from vision.targets import Candidate
from vision.touch import TipSwitches

BEAD_MM = 12.0
CAMERA = random_camera(np.random.default_rng(5))  # about 1 m above the table's middle
GEO = TableGeometry(CAMERA.calibration())
TOKENS = [Candidate("A", 850.0, 120.0, 22.0), Candidate("B", 800.0, 120.0, 22.0)]
# The colours the drawn tables are made of.
WOOD = (60, 110, 160)
SKIN = (120, 160, 210)
GREEN = tuple(int(c) for c in cv2.cvtColor(np.uint8([[[65, 240, 220]]]), cv2.COLOR_HSV2BGR)[0, 0])  # wand 2's paint


def table_px(x_mm: float, y_mm: float, z_mm: float) -> tuple[int, int]:
    """The pixel (rounded) where the camera sees the point ``x_mm, y_mm`` at ``z_mm`` over the table."""
    x, y = CAMERA.project(np.array([[x_mm, y_mm, z_mm]]))[0]
    return int(round(x)), int(round(y))


def wand_two(tip_mm: tuple[float, float, float], towards_mm: tuple[float, float, float] | None) -> WandAxis:
    """Wand 2 with its tip bead's centre at ``tip_mm``, seen its true size there; its band 110 mm back
    along the line from ``towards_mm`` through the tip (None: a lone tip)."""
    tip = np.array([tip_mm], np.float64)
    radius = float(GEO.bead_radius_px(tip, BEAD_MM)[0])
    if towards_mm is None:
        return WandAxis(2, CAMERA.project(tip)[0], None, 0.0, "tip", radius)
    d = tip[0] - np.array(towards_mm)
    band = tip[0] + 110.0 * d / np.linalg.norm(d)
    return WandAxis(2, CAMERA.project(tip)[0], CAMERA.project(band[None])[0], 110.0, "band", radius)


def two_token_pipeline(config: VisionConfig) -> Pipeline:
    paints = {k: m.model_copy(update={"bead_radius_mm": BEAD_MM}) for k, m in documented_paints().items()}
    return Pipeline(CAMERA.calibration(), config, paints=paints)


def wand_two_after_the_cue(pipeline: Pipeline, after: np.ndarray, candidates: list[Candidate],
                           tips: TipSwitches | None) -> str:
    """Wand 2's status (and target) in a casting on the table the pipeline froze, every frame after the
    cue being ``after``: two seconds at 30 frames a second, far more than a casting waits."""
    casting = pipeline.casting(0.0, [2], candidates, tips)
    for i in range(60):
        if (result := casting.observe(i / 30, pipeline.look(Frame(after, i / 30, i)).axes)) is not None:
            reading = result.wands[2]
            return reading.status if reading.status != TARGET else f"{TARGET} {reading.target}"
    raise AssertionError("the casting was never decided")

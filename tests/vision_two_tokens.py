"""Two tokens 50 mm apart under one camera, with the documented paints on 12 mm beads: where the vision
tests place a wand by hand (``WandAxis``) to test the reading apart from the wand stage."""
from __future__ import annotations

import numpy as np

from vision.config import VisionConfig
from vision.paints import documented_paints
from vision.pipeline import Pipeline
from vision.render.scene import random_camera
from vision.table_geometry import TableGeometry
from vision.targets import Candidate

BEAD_MM = 12.0
CAMERA = random_camera(np.random.default_rng(5))  # about 1 m above the table's middle
GEO = TableGeometry(CAMERA.calibration())
TOKENS = [Candidate("A", 850.0, 120.0, 22.0), Candidate("B", 800.0, 120.0, 22.0)]


def two_token_pipeline(config: VisionConfig) -> Pipeline:
    paints = {k: m.model_copy(update={"bead_radius_mm": BEAD_MM}) for k, m in documented_paints().items()}
    return Pipeline(CAMERA.calibration(), config, paints=paints)

"""The token under a touching tip, with the bead's apparent size telling how high the tip can be."""
from __future__ import annotations

import numpy as np

from vision.axis import WandAxis
from vision.decide import TARGET, UNSURE, verdict
from vision.paints import documented_paints
from vision.pipeline import Pipeline
from vision.render.scene import random_camera
from vision.table_geometry import TableGeometry
from vision.targets import Candidate
from vision.under_tip import BETWEEN, OVER, OVERSIZED, hover_heights, under_tip

BEAD_MM = 12.0
CAMERA = random_camera(np.random.default_rng(5))  # about 1 m above the table's middle
GEO = TableGeometry(CAMERA.calibration())
# Two tokens 6 mm apart near the table's right edge: B lies toward the camera's foot, so a tip over A
# held higher would be seen further out, and a touching tip would look as if it hovered over B.
TOKENS = [Candidate("A", 850.0, 120.0, 22.0), Candidate("B", 800.0, 120.0, 22.0)]


def _touching(x_mm: float, y_mm: float, seen_scale: float = 1.0, strength: int = 2) -> WandAxis:
    """A lone tip bead resting on a token at (x, y), measured ``seen_scale`` times its true size."""
    tip = np.array([[x_mm, y_mm, BEAD_MM + 2.0]])
    return WandAxis(strength, CAMERA.project(tip)[0], None, 0.0, "tip",
                    seen_scale * float(GEO.bead_radius_px(tip, BEAD_MM)[0]))


def test_a_touching_tip_near_a_tokens_edge_toward_a_neighbour_is_read(config) -> None:
    axis = _touching(840.0, 120.0)  # 10 mm off A's centre, toward B
    blind = config.pointing.model_copy(update={"bead_shrink_tolerance": 0.5})  # the bead's size not used
    assert under_tip(GEO, axis, TOKENS, BEAD_MM, blind).status == BETWEEN
    reading = under_tip(GEO, axis, TOKENS, BEAD_MM, config.pointing)
    assert (reading.status, reading.token) == (OVER, "A")


def test_a_bead_looking_its_resting_size_is_not_tried_high_up(config) -> None:
    cfg = config.pointing
    every = np.arange(BEAD_MM, BEAD_MM + cfg.touch_lift_mm + cfg.hover_height_mm + 1e-6, cfg.height_step_mm)
    tried = hover_heights(GEO, _touching(842.0, 120.0), BEAD_MM, cfg)
    assert tried[0] == every[0] and tried[-1] < every[-1]


def test_a_dimmed_bead_says_nothing_about_its_height(config) -> None:
    """A bead looking smaller than a whole one may be dimmed or partly hidden: every height stays."""
    cfg = config.pointing
    every = hover_heights(GEO, _touching(842.0, 120.0, 0.0), BEAD_MM, cfg)
    dim = hover_heights(GEO, _touching(842.0, 120.0, 0.85), BEAD_MM, cfg)
    assert len(every) > 3 and np.array_equal(dim, every)


def test_a_mostly_hidden_tip_over_a_token_is_asked_not_read(config) -> None:
    """Upright wands: the fist hides most of the bead, and the sliver left is off the tip's centre."""
    paints = {k: m.model_copy(update={"bead_radius_mm": BEAD_MM}) for k, m in documented_paints().items()}
    pipeline = Pipeline(CAMERA.calibration(), config, paints=paints)
    whole = pipeline.read(_touching(850.0, 120.0), TOKENS)
    assert (whole.status, whole.target) == (TARGET, "A")
    sliver = pipeline.read(_touching(850.0, 120.0, 0.6), TOKENS)
    assert (sliver.status, sliver.target, sliver.best) == (UNSURE, None, "A")


def test_a_tip_patch_too_big_for_any_bead_is_asked_not_read_by_its_line(config) -> None:
    """A bead run into a token of its own colour makes one patch far bigger than a bead at any height
    it could be held: its centre is not the tip's, and its line points wherever that centre says."""
    paints = {k: m.model_copy(update={"bead_radius_mm": BEAD_MM}) for k, m in documented_paints().items()}
    pipeline = Pipeline(CAMERA.calibration(), config, paints=paints)
    tip = np.array([[740.0, 120.0, BEAD_MM + 2.0]])
    back = CAMERA.project(np.array([[680.0, 120.0, 40.0]]))[0]  # a flat wand: its line meets the table on B
    merged = WandAxis(2, CAMERA.project(tip)[0], back, 110.0, "band", 1.6 * float(GEO.bead_radius_px(tip, BEAD_MM)[0]))
    assert under_tip(GEO, merged, TOKENS, BEAD_MM, config.pointing).status == OVERSIZED
    by_line = verdict(2, pipeline.score(merged, TOKENS), config.decide, "band")
    assert (by_line.status, by_line.target) == (TARGET, "B")  # what reading it by its line would name, silently
    assert pipeline.read(merged, TOKENS).status == UNSURE

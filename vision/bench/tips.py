"""The wands' tip switches in a rendered casting: closed while the bead rests on something, read from
the renderer's truth of the frame being read, with the faults a real push switch has.

The pipeline never sees the truth itself, only one bit per wand, and that bit is wrong now and then:
a light touch that does not close the switch (``MISSED``), and a switch that sticks closed in the air
(``STUCK``). Both are drawn per wand and casting from the scene's seed, apart from what the renderer
draws, so a scene looks the same with or without switches.
"""
from __future__ import annotations

import numpy as np

from vision.render.scene import FrameTruth, Scene

TOKEN_MM = 2.0  # a token's thickness: a bead resting on it has its bottom this high
CLOSES_MM = 1.5  # the switch's travel: closed while the bead's bottom is within this of what it rests on
MISSED = 0.03  # share of resting tips whose touch is too light to close the switch
STUCK = 0.005  # share of lifted tips whose switch stays closed


class SceneTips:
    """``touching(wand)`` as the switch of that wand reads in the frame last shown with ``see``."""

    def __init__(self, scene: Scene) -> None:
        self.bead_mm = {k: p.bead_radius_mm for k, p in scene.paints.items()}
        draws = np.random.default_rng([scene.seed, 0x7195]).random(len(scene.gestures))
        self.fault = dict(zip(sorted(scene.gestures), draws))
        self.truth: FrameTruth | None = None

    def see(self, truth: FrameTruth) -> None:
        self.truth = truth

    def resting(self, wand: int) -> bool:
        """The bead really rests on a token or the table (the truth, for the bench's own breakdown)."""
        assert self.truth is not None
        w = self.truth.wands[wand]
        return float(w.tip_mm[2]) - self.bead_mm[wand] <= TOKEN_MM + CLOSES_MM

    def touching(self, wand: int) -> bool | None:
        if self.truth is None or wand not in self.truth.wands:
            return None
        fault = float(self.fault[wand])
        return bool(fault >= MISSED) if self.resting(wand) else bool(fault < STUCK)

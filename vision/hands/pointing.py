"""Finger pointing, for tables without marked wands: the index finger as a wand axis."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.hands.hand import INDEX_TIP, Hand


@dataclass(frozen=True, eq=False)
class PointingRay:
    """A ray in image pixels that the pointing stage scores like a wand's axis.

    origin: (2,) the fingertip, pixels.
    direction: (2,) unit vector the finger points along.
    confidence: in [0, 1]: the hand's score times how straight the finger is.
    """

    origin: np.ndarray
    direction: np.ndarray
    confidence: float
    hand: Hand

    def at(self, distance_px: float) -> np.ndarray:
        """(2,) the point ``distance_px`` ahead of the fingertip."""
        return self.origin + distance_px * self.direction


def finger_pointing(hand: Hand, min_straightness: float = 0.9) -> PointingRay | None:
    """The index finger's ray, or None when the finger is too curled to be pointing.

    Straightness is 1.0 for a straight finger; a relaxed finger is about 0.8-0.9, a curled one
    far less. Below ``min_straightness`` the hand is not pointing, so the table asks instead."""
    straightness = hand.index_straightness()
    if straightness < min_straightness:
        return None
    confidence = hand.score * (straightness - min_straightness) / (1.0 - min_straightness + 1e-9)
    return PointingRay(hand.landmarks[INDEX_TIP].copy(), hand.index_direction(), float(min(confidence, 1.0)), hand)

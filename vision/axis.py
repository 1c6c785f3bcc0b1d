"""Each wand's axis in the image: from its tip bead back to its band, or to the gripping hand when the
band is hidden, or the tip alone when neither is seen."""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from vision.config import HandsUse
from vision.markers import WandSighting

if TYPE_CHECKING:
    from vision.hands.hand import Hand

# MediaPipe's knuckles (finger roots): the wand runs through the fist just below them.
KNUCKLES = (5, 9, 13, 17)
# A shaft gives a direction, not a point: its back point is put this far along it (any length serves).
SHAFT_BACK_PX = 20.0
# A hand nearer the tip than a fifth of a wand's length holds the tip, not the grip: it gives no line.
NOT_ON_TIP = 0.2


@dataclass(frozen=True)
class WandAxis:
    """tip_px (2,) and back_px (2,) or None, distorted pixels; ``back_from_tip_mm`` is how far along the
    wand the back point really is (0 when unknown: only the line is known); ``source`` says what the
    back point is: "band", "hand", "shaft" or "tip" (no back point). ``tip_radius_px`` is the tip bead's
    apparent radius (0 when not measured): how big it looks tells roughly how near the camera it is."""

    strength: int
    tip_px: np.ndarray
    back_px: np.ndarray | None
    back_from_tip_mm: float
    source: str
    tip_radius_px: float = 0.0
    spread_px: np.ndarray | None = None  # (K,2) where a partly hidden tip's centre may be (WandSighting)


def wand_axis(sighting: WandSighting, band_from_tip_mm: float, hands: Sequence[Hand] | None, use: HandsUse,
              reach_px: float, shaft: np.ndarray | None = None) -> WandAxis:
    """The best axis the frame offers for one wand: the band; else the gripping hand (``hands``: objects
    with ``landmarks`` (21,2) pixels); else the shaft's direction (2,) in the image, whose back point
    is at no known distance (``back_from_tip_mm`` 0); else the tip alone."""
    radius = float(np.sqrt(sighting.tip_area / np.pi))
    k, tip, spread = sighting.strength, sighting.tip_px, sighting.spread_px
    if sighting.band_px is not None:
        return WandAxis(k, tip, sighting.band_px, band_from_tip_mm, "band", radius, spread)
    grip = gripping_hand(tip, hands or (), reach_px)
    if grip is not None and use.enabled:
        return WandAxis(k, tip, grip, use.grip_from_tip_mm, "hand", radius, spread)
    if shaft is not None:
        return WandAxis(k, tip, tip + SHAFT_BACK_PX * shaft, 0.0, "shaft", radius, spread)
    return WandAxis(k, tip, None, 0.0, "tip", radius, spread)


def gripping_hand(tip_px: np.ndarray, hands: Sequence[Hand], reach_px: float) -> np.ndarray | None:
    """(2,) knuckle centre of the hand nearest the tip within ``reach_px`` (a wand's length), or None."""
    best, best_d = None, reach_px
    for hand in hands:
        knuckles = np.asarray(hand.landmarks)[list(KNUCKLES)].mean(axis=0)
        d = float(np.linalg.norm(knuckles - tip_px))
        if NOT_ON_TIP * reach_px < d < best_d:
            best, best_d = knuckles, d
    return best

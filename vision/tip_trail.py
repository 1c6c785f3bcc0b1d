"""Where a wand's tip can be now, from where it was a moment ago: a hand carries a wand only so fast.

A wand whose tip the camera loses (its fist closes over the bead, an arm passes over it) is still
where it was; a patch of its colour far away (a token of its paint uncovered at that moment, with a
band-sized speck beside it) is not its tip, however well it pairs. Between two frames the tip moves
at most as far as a hand carries it: a player swinging a wand to a token moves its tip well under
``TIP_SPEED_MM_S``. A sighting none of whose parts (tip, band) lies within that reach of where the
wand was last seen whole with its band is refused, and so is every later sighting at that same place
this casting: a patch that appeared where the wand could not have gone, and stays there, is
something on the table, not the wand (the tablet asks for the wand instead, never a guess).

Only a whole tip seen with its band marks where the wand is, and any of its parts counts: in dim
light or blur a speck, or the band itself, is now and then taken for the tip, and the real tip found
a frame later must not look out of reach of that. A part of the wand seen again where it was (a tip
half under a sleeve) says the wand is still there: reach is counted from then.
"""
from __future__ import annotations

import numpy as np

# A wand's tip swung by wrist and forearm: pointing gestures peak under 2 m/s at the hand; the tip,
# 25 cm out, a little faster. No hand carries it 3 m/s.
TIP_SPEED_MM_S = 3000.0
# A patch's centre is a bead's radius off the bead's when part of it is hidden; the same place again
# is within one bead radius of where it was refused.
SLACK_BEAD_RADII = 1.0


class TipTrail:
    """Each wand's tip this casting: ``allows`` says whether a sighting at ``tip_px`` at time ``t`` can
    be that wand's tip, and remembers it (or the place refused). ``px_per_mm``: the most pixels a
    millimetre of the tip's travel can take anywhere in the picture (the tip as high as a wand is held)."""

    def __init__(self, px_per_mm: float) -> None:
        self.px_per_mm = px_per_mm
        self._last: dict[int, tuple[float, list[np.ndarray]]] = {}  # when, and where its tip and band were
        self._refused: dict[int, list[np.ndarray]] = {}

    def clear(self) -> None:
        """A new casting: no tip seen yet."""
        self._last, self._refused = {}, {}

    def allows(self, wand: int, t: float, tip_px: np.ndarray, bead_px: float, whole: bool,
               band_px: np.ndarray | None = None) -> bool:
        """``whole``: the sighting is a whole tip bead with its band, a pair no stray patch makes; only
        such a sighting marks where the wand is (a speck or a part of a bead taken for the tip a moment
        ago must not make the real tip look out of reach). The wand is where any of its parts was: a
        sighting one of whose parts (tip, ``band_px``) is within reach of one the wand showed is the
        same wand, its patches paired anew (its band taken for its tip a moment ago), never a jump."""
        slack = SLACK_BEAD_RADII * max(bead_px, 1.0)
        if any(float(np.linalg.norm(tip_px - p)) <= slack for p in self._refused.get(wand, [])):
            return False
        parts = [np.array(tip_px, float)] + ([np.array(band_px, float)] if band_px is not None else [])
        last = self._last.get(wand)
        if last is not None:
            reach = TIP_SPEED_MM_S * max(t - last[0], 0.0) * self.px_per_mm + slack
            if min(float(np.linalg.norm(a - b)) for a in parts for b in last[1]) > reach:
                self._refused.setdefault(wand, []).append(parts[0])
                return False
        if whole:
            self._last[wand] = (t, parts)
        elif last is not None and min(float(np.linalg.norm(a - b)) for a in parts for b in last[1]) <= slack:
            # Seen again where it was, if only in part: it is still there now, and a patch far off a moment
            # later is as far out of reach as from a whole sighting.
            self._last[wand] = (t, last[1])
        return True

"""Where a wand's tip can be now, from where it was a moment ago: a hand carries a wand only so fast.

A wand whose tip the camera loses (its fist closes over the bead, an arm passes over it) is still
where it was; a patch of its colour far away (a token of its paint uncovered at that moment, with a
band-sized speck beside it) is not its tip, however well it pairs. Between two frames the tip moves
at most as far as a hand carries it: a player swinging a wand to a token moves its tip well under
``TIP_SPEED_MM_S``. A sighting farther off than that from the tip's last place is refused, and so is
every later sighting at that same place this casting: a patch that appeared where the wand could
not have gone, and stays there, is something on the table, not the wand (the tablet asks for the
wand instead, never a guess).
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
        self._last: dict[int, tuple[float, np.ndarray]] = {}
        self._refused: dict[int, list[np.ndarray]] = {}

    def clear(self) -> None:
        """A new casting: no tip seen yet."""
        self._last, self._refused = {}, {}

    def allows(self, wand: int, t: float, tip_px: np.ndarray, bead_px: float) -> bool:
        slack = SLACK_BEAD_RADII * max(bead_px, 1.0)
        if any(float(np.linalg.norm(tip_px - p)) <= slack for p in self._refused.get(wand, [])):
            return False
        last = self._last.get(wand)
        if last is not None:
            reach = TIP_SPEED_MM_S * max(t - last[0], 0.0) * self.px_per_mm + slack
            if float(np.linalg.norm(tip_px - last[1])) > reach:
                self._refused.setdefault(wand, []).append(np.array(tip_px, float))
                return False
        self._last[wand] = (t, np.array(tip_px, float))
        return True

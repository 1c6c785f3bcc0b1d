"""The tip switch: whether a wand's tip bead is pressed against something right now.

One overhead camera cannot tell a tip resting on a token from one held a few centimetres above it
(the bead looks at most a few per cent bigger; see ``under_tip``). A wand whose tip bead sits on a
small push switch says so outright: the hub reports the switch like the wand's button, and the
reading trusts "the token under the tip" at resting height only while the switch is closed.

This is vision's seam for it; the table side hands in the hub's switches, the bench its simulated
ones. ``None`` means "not known" (no switch fitted, hub unplugged, a recording): the camera alone.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

import numpy as np

from vision.decide import TARGET, CastingResult

# A tip that moved more than two bead radii while its switch stayed closed was flying: the switch is stuck.
FLIGHT_BEAD_RADII = 2.0
# A tip that stays within half a bead's radius while its wand swings this far (its band seen around
# the tip in the picture) pivots on what it rests on: no hand holds a free tip so still while turning
# the wand. A hand's tremor moves a tip a millimetre or two and turns the wand by a fraction of a degree.
PIVOT_BEAD_RADII = 0.5
PIVOT_DEG = 15.0
PIVOT_MIN_REACH_RADII = 3.0  # a band nearer the tip than this in the picture says too little of the turn


class TipSwitches(Protocol):
    """Each wand's tip switch as it is now."""

    def touching(self, wand: int) -> bool | None:
        """True: wand ``wand``'s tip is pressed against something; False: it is in the air; None: not
        known (no switch fitted, the hub is not connected)."""
        ...


class NoTipSwitches:
    """Wands without tip switches: the camera alone decides."""

    def touching(self, wand: int) -> bool | None:
        return None


class FixedTipSwitches:
    """Switches read once (a bench scene, a test): ``states`` by wand; an unnamed wand is not known."""

    def __init__(self, states: dict[int, bool]) -> None:
        self.states = dict(states)

    def touching(self, wand: int) -> bool | None:
        return self.states.get(wand)


class HeardSwitches:
    """A casting's switches heard at every frame (``hear``): a switch closed at any moment of the last
    ``window_s`` (the wand's still window) counts as closed. A real switch bounces, closes a few frames
    after the bead lands, and a light touch closes it only now and then; the frame the casting is
    decided on must not be the only one that counts.

    A switch heard closed while its tip flies (moving more than a bead's width from one frame to the
    next: no bead resting on a token does) is stuck closed: ``stuck`` (kept by the pipeline, all night)
    gets its wand, and its closed state is not known from then on, until it is heard open again.

    A switch heard open while the camera sees its wand pivot on its tip (``PIVOT_DEG``: a player who
    leans the wand anew without lifting the tip, as the table card asks of a wand that keeps blinking)
    is a touch too light to click: the tip rests, and counts as closed until it moves off that spot."""

    def __init__(self, switches: TipSwitches, wands: list[int], window_s: float, stuck: set[int] | None = None) -> None:
        self.switches = switches
        self.wands = list(wands)
        self.window_s = window_s
        self.stuck = stuck if stuck is not None else set()
        self.now: dict[int, bool | None] = {}
        self.closed_at: dict[int, float] = {}
        self.tips: dict[int, Any] = {}
        self.t = float("-inf")
        # wand -> (where its tip was pinned, the least and most angle its band was seen at since, degrees)
        self.pinned: dict[int, tuple[Any, float, float]] = {}

    def hear(self, t: float, axes: Mapping[int, Any] | None = None) -> None:
        """The switches as they are at frame time ``t``; ``axes``: each wand's ``WandAxis`` seen then."""
        self.t = t
        for k in self.wands:
            self.now[k] = state = self.switches.touching(k)
            axis = (axes or {}).get(k)
            if state is False:
                self.stuck.discard(k)
            elif state and axis is not None and k in self.tips and \
                    float(np.linalg.norm(axis.tip_px - self.tips[k])) > FLIGHT_BEAD_RADII * max(axis.tip_radius_px, 1.0):
                self.stuck.add(k)
            if axis is not None:
                self.tips[k] = axis.tip_px
            else:
                self.tips.pop(k, None)  # seen again elsewhere is no flight
            if state and k not in self.stuck:
                self.closed_at[k] = t
            self._pivot(k, axis)

    def _pivot(self, k: int, axis: Any) -> None:
        """Follow where wand ``k``'s tip is pinned and how far its band has swung round it since."""
        if axis is None or axis.tip_radius_px <= 0:
            return  # unseen, or its bead not measured (a tip placed from its band): nothing said either way
        held = self.pinned.get(k)
        if held is None or float(np.linalg.norm(axis.tip_px - held[0])) > PIVOT_BEAD_RADII * axis.tip_radius_px:
            held = (axis.tip_px, np.inf, -np.inf)  # the tip has moved: a new spot, a new question
        low, high = held[1], held[2]
        if axis.back_px is not None:
            along = axis.back_px - axis.tip_px
            if float(np.linalg.norm(along)) >= PIVOT_MIN_REACH_RADII * axis.tip_radius_px:
                angle = float(np.degrees(np.arctan2(along[1], along[0])))
                if np.isfinite(low):
                    angle = low + (angle - low + 180.0) % 360.0 - 180.0  # the turn, not the wrap at +-180
                low, high = min(low, angle), max(high, angle)
        self.pinned[k] = (held[0], low, high)

    def pivoted(self, wand: int) -> bool:
        """Whether the wand's band has swung ``PIVOT_DEG`` or more round its tip since the tip was pinned."""
        held = self.pinned.get(wand)
        return held is not None and held[2] - held[1] >= PIVOT_DEG

    def touching(self, wand: int) -> bool | None:
        if wand in self.stuck:
            return None
        if self.closed_at.get(wand, float("-inf")) >= self.t - self.window_s - 1e-6:
            return True
        now = self.now.get(wand, self.switches.touching(wand))
        return True if now is False and self.pivoted(wand) else now


SILENT_CASTINGS = 3  # castings in a row resting on a token with the switch open before it is doubted


def resting(result: CastingResult) -> list[int]:
    """The wands the camera read resting on a token: read as the token under the tip (a reading aimed
    from afar carries its scores; one under the tip none), or asked because the tip sat over a token
    with its switch open ("lifted")."""
    return sorted(k for k, r in result.wands.items() if (r.status == TARGET and not r.scores) or r.why == "lifted")


class SilentSwitches:
    """The record, over a night's castings, of switches that fail in play: a cable pulled out of the
    wand, a dead contact, a player whose touch is too light to close it. Such a switch says "in the
    air" while the bead rests on a token, and an open switch makes the camera doubt a right reading.
    A wand the camera reads resting on a token in ``SILENT_CASTINGS`` castings in a row without its
    switch once closing is doubted (not asked: the camera alone reads it); its next click trusts it
    again. Not thread-safe: its owner keeps it under its own lock."""

    def __init__(self) -> None:
        self._silent: dict[int, int] = {}  # wand -> castings in a row on a token without a click
        self._clicked: set[int] = set()  # wands whose switch closed since the casting began

    def doubts(self, wand: int) -> bool:
        return self._silent.get(wand, 0) >= SILENT_CASTINGS

    def began(self, closed: Iterable[int]) -> None:
        """A casting's reading starts: a switch ``closed`` now, or closing before it ends, clicked."""
        self._clicked = set(closed)

    def clicked(self, wand: int) -> bool:
        """Wand ``wand``'s switch closed: it and its cable work. True if it was doubted until now."""
        self._clicked.add(wand)
        return self._silent.pop(wand, 0) >= SILENT_CASTINGS

    def closed(self, resting: Iterable[int], known: Iterable[int]) -> bool:
        """The camera read ``resting`` wands resting on a token: each whose switch did not close
        meanwhile counts one more silent casting, one that clicked is trusted again; a switch not
        ``known`` (nothing heard of it, and no click) is no evidence either way. True when what the
        status page says of the doubted switches changed."""
        known = set(known)
        changed = False
        for wand in resting:
            if wand not in known and wand not in self._clicked:
                continue
            before = self._silent.get(wand, 0)
            after = 0 if wand in self._clicked else before + 1
            self._silent[wand] = after
            # The status page counts the silent castings of a doubted switch, and says when it is back.
            changed |= max(before, after) >= SILENT_CASTINGS and before != after
        return changed

    def doubted(self) -> dict[int, int]:
        """Wands whose switch is not trusted now, with how many castings in a row it stayed silent."""
        return {wand: n for wand, n in sorted(self._silent.items()) if n >= SILENT_CASTINGS}

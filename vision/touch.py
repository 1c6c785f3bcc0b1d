"""The tip switch: whether a wand's tip bead is pressed against something right now.

One overhead camera cannot tell a tip resting on a token from one held a few centimetres above it
(the bead looks at most a few per cent bigger; see ``under_tip``). A wand whose tip bead sits on a
small push switch says so outright: the hub reports the switch like the wand's button, and the
reading trusts "the token under the tip" at resting height only while the switch is closed.

This is vision's seam for it; the table side hands in the hub's switches, the bench its simulated
ones. ``None`` means "not known" (no switch fitted, hub unplugged, a recording): the camera alone.
"""
from __future__ import annotations

from typing import Protocol


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

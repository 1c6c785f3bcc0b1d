"""The wands' tip switches as the table side knows them: vision's ``TipSwitches`` seam, filled in
from the hub's (or the GPIO pins') TipPressed and TipLifted events.

The camera trusts "the token under the tip" at resting height only while the tip's switch is closed,
so a wrong "in the air" or "touching" costs a misread. This board therefore answers None (not known:
the camera alone decides) whenever it cannot vouch for the answer: the group has not fitted tip
switches (the ``tip_switches`` setting), the hub is unplugged, or it has been plugged back in (or has
restarted) and not yet told the tips afresh. A kicked-out cable reads as an open switch at the hub, so
what came before it is not trusted either.
"""
from __future__ import annotations

import threading
from collections.abc import Callable

from companion.inputs.events import InputEvent, TipLifted, TipPressed

Session = Callable[[], int | None]


def always_connected() -> int | None:
    """GPIO pins cannot be unplugged from the Pi the way the hub's cable can: one session for ever."""
    return 0


class WandTips:
    """``touching(wand)``: True pressed, False in the air, None not known (vision.touch.TipSwitches).

    ``fitted``: the group fitted tip switches (the table's ``tip_switches`` setting); without them an
    open switch and no switch read the same, so nothing is said. ``session()``: which connection of the
    source the events come from now, None while it is down (a hub link: its greeting count while
    connected). A state heard in another session is stale.
    """

    def __init__(self, fitted: bool, session: Session = always_connected) -> None:
        self.fitted = fitted
        self.session = session
        self._lock = threading.Lock()
        self._heard_in: int | None = None
        self._states: dict[int, tuple[bool, int]] = {}   # wand -> (touching, stamp of that change)

    def touching(self, wand: int) -> bool | None:
        if not self.fitted:
            return None
        now = self.session()
        with self._lock:
            if now is None or now != self._heard_in:
                return None
            state = self._states.get(wand)
        return None if state is None else state[0]

    def heard(self, event: InputEvent) -> None:
        """A tip event from the source's thread; anything else is not the board's business."""
        if isinstance(event, (TipPressed, TipLifted)):
            self.tip(event.wand, isinstance(event, TipPressed), event.hub_us)

    def tip(self, wand: int, touching: bool, stamp: int) -> None:
        # A line asked for again after a pulled cable may arrive after a newer one: the stamp of
        # first contact orders them (PROTOCOL.md, "Tip switches").
        session = self.session()
        with self._lock:
            if session != self._heard_in:
                self._heard_in, self._states = session, {}
            known = self._states.get(wand)
            if known is None or stamp >= known[1]:
                self._states[wand] = (touching, stamp)

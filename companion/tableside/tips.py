"""The wands' tip switches as the table side knows them: vision's ``TipSwitches`` seam, filled in
from the hub's (or the GPIO pins') TipPressed and TipLifted events.

The camera trusts "the token under the tip" at resting height only while the tip's switch is closed,
so a wrong "in the air" or "touching" costs a misread. This board therefore answers None (not known:
the camera alone decides) whenever it cannot vouch for the answer: the group has not fitted tip
switches (the ``tip_switches`` setting), the hub is unplugged, or it has been plugged back in (or has
restarted) and not yet told the tips afresh. A kicked-out cable reads as an open switch at the hub, so
what came before it is not trusted either.

A switch can also fail in play (a pulled cable, a dead contact, a touch too light to close it): then
it says "in the air" while the bead rests on a token. The board keeps vision's record of such
switches (``vision.touch.SilentSwitches``): a wand the camera reads resting on a token in
``SILENT_CASTINGS`` castings in a row without its switch once closing is no longer asked (None: the
camera alone reads it), and the status page names it. Its next click trusts it again.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from companion.inputs.events import InputEvent, TipLifted, TipPressed
from vision.touch import SilentSwitches

Session = Callable[[], int | None]


def always_connected() -> int | None:
    """GPIO pins cannot be unplugged from the Pi the way the hub's cable can: one session for ever."""
    return 0


class WandTips:
    """``touching(wand)``: True pressed, False in the air, None not known (vision.touch.TipSwitches).

    ``fitted``: the group fitted tip switches (the table's ``tip_switches`` setting); without them an
    open switch and no switch read the same, so nothing is said. ``session()``: which connection of the
    source the events come from now, None while it is down (a hub link: its greeting count while
    connected). A state heard in another session is stale. ``doubted()``: switches not trusted now
    (``SILENT_CASTINGS``); ``on_doubt``: told whenever a switch is doubted or trusted again, or a
    doubted one stays silent one more casting (the status page).
    """

    def __init__(self, fitted: bool, session: Session = always_connected,
                 on_doubt: Callable[[], None] | None = None) -> None:
        self.fitted = fitted
        self.session = session
        self.on_doubt = on_doubt or (lambda: None)
        self._lock = threading.Lock()
        self._heard_in: int | None = None
        self._states: dict[int, tuple[bool, int]] = {}   # wand -> (touching, stamp of that change)
        self._record = SilentSwitches()

    def touching(self, wand: int) -> bool | None:
        with self._lock:
            if self._record.doubts(wand):
                return None
        return self.switch(wand)

    def switch(self, wand: int) -> bool | None:
        """What the switch itself says, doubted or not (None: not known)."""
        if not self.fitted:
            return None
        now = self.session()
        with self._lock:
            if now is None or now != self._heard_in:
                return None
            state = self._states.get(wand)
        return None if state is None else state[0]

    # -- the record over castings ------------------------------------------------------------

    def casting_began(self) -> None:
        """A casting's reading starts: a switch closed now, or closing before it ends, clicked."""
        with self._lock:
            self._record.began(wand for wand, (down, _) in self._states.items() if down)

    def casting_closed(self, resting: Iterable[int]) -> None:
        """The camera read these wands resting on a token: each whose switch did not close meanwhile
        counts one more silent casting; one that clicked is trusted again."""
        resting = list(resting)
        known = [wand for wand in resting if self.switch(wand) is not None]
        with self._lock:
            changed = self._record.closed(resting, known)
        if changed:
            self.on_doubt()

    def doubted(self) -> dict[int, int]:
        """Wands whose switch is not trusted now, with how many castings in a row it stayed silent."""
        with self._lock:
            return self._record.doubted()

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
            # A click, even one heard late, proves the switch and its cable work.
            trusted_again = touching and stamp > 0 and self._record.clicked(wand)
        if trusted_again:
            self.on_doubt()

"""Each wand's own LED tells its player how the casting reads them, so no tablet is needed to find out.

After the cue every wand in the casting blinks: Incanto cannot tell yet. As the camera reads it (the
pipeline tells each wand's reading frame by frame, ``vision.decide.CastingWatch``), a wand the casting
has taken as read (held at a token for a moment after the window) is lit steady; one Incanto cannot
tell (tip hidden, lifted, between two tokens, at no token, still moving, not seen) blinks, and its
player touches down or moves the fist. While any wand blinks the casting waits, up to the pipeline's
give-up time; when it closes the wands still unsure go out (the tablet asks only for them) and the
wands read stay steady a moment more, then go out too.

The LEDs are the hub's (``LED <wand> <mode>``, firmware/PROTOCOL.md); buttons on the Pi's own pins
have none, and then nothing here is lit and the casting does not wait.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from companion.inputs.link import HubOffline
from companion.inputs.protocol import LED_BLINK, LED_OFF, LED_STEADY, MAX_WANDS
from vision.decide import TARGET, CastingResult, CastingSoFar, CastingWatch

log = logging.getLogger("incanto.tableside")

OFF, STEADY, BLINK = LED_OFF, LED_STEADY, LED_BLINK  # the hub's LED modes (firmware/PROTOCOL.md, "LED")

Light = Callable[[int, int], None]  # (wand, mode): the hub's LED command
SHOWN_S = 1.0  # how long a wand read stays lit after the casting closes


class CastingWatcher(Protocol):
    """Told when a casting's reading begins and closes (``companion.tableside.reading``)."""

    def began(self, wands: Sequence[int]) -> CastingWatch | None:
        """The casting with these wands is being read; what to tell frame by frame (None: nothing,
        and the casting does not wait for unsure wands)."""
        ...

    def closed(self, result: CastingResult | None) -> None:
        """The reading is over (``result`` None: no pictures came)."""
        ...


class WandLights:
    """Lights each wand's LED through ``light`` (the hub's ``LED`` command), sending only changes.

    ``session()``: which connection to the hub the LEDs are on now (the link's greeting count), None
    while the wands have no LEDs (no hub, or it is unplugged). A new session means a hub whose LEDs are
    not known (a restart forgets them; another program may have left them lit): every wand is sent its
    mode afresh, and the first time, every other wand is put out."""

    def __init__(self, light: Light, session: Callable[[], int | None], wands: int = MAX_WANDS,
                 shown_s: float = SHOWN_S) -> None:
        self.light, self.session, self.wands, self.shown_s = light, session, wands, shown_s
        self._castings = 0  # castings begun: a read wand's LED goes out after the close unless another began
        self._lock = threading.Lock()
        self._shown: dict[int, int] = {}
        self._session: int | None = None
        self._cleared = False

    def began(self, wands: Sequence[int]) -> CastingWatch | None:
        with self._lock:
            self._castings += 1
        if self.session() is None:
            return None
        with self._lock:  # a wand still lit from the last casting's close and not in this one goes out
            modes = {wand: OFF for wand, mode in self._shown.items() if mode != OFF}
        modes.update({wand: BLINK for wand in wands})
        if not self._cleared:  # whatever an earlier night left lit on the hub goes out
            self._cleared = True
            modes = {**{wand: OFF for wand in range(1, self.wands + 1)}, **modes}
            with self._lock:
                self._shown.clear()
        self._show(modes)
        return self.seen

    def seen(self, so_far: CastingSoFar) -> None:
        """Steady once the casting has taken the wand as read; blinking while Incanto cannot tell."""
        self._show({wand: STEADY if wand in so_far.read else BLINK for wand in so_far.readings})

    def closed(self, result: CastingResult | None) -> None:
        """Every LED goes out, but a wand the casting read stays steady ``SHOWN_S`` more: its player sees
        it was taken even when it was read on the closing frame itself."""
        read = {wand for wand, reading in result.wands.items() if reading.status == TARGET} if result else set()
        with self._lock:
            lit = [wand for wand, mode in self._shown.items() if mode != OFF]
            casting = self._castings
        self._show({wand: STEADY if wand in read else OFF for wand in lit})
        if still := [wand for wand in lit if wand in read]:
            timer = threading.Timer(self.shown_s, self._out, args=(casting, still))
            timer.daemon = True
            timer.start()

    def _out(self, casting: int, wands: list[int]) -> None:
        with self._lock:
            if casting != self._castings:  # a new casting began meanwhile: its LEDs are its own
                return
        self._show({wand: OFF for wand in wands})

    def shown(self) -> dict[int, int]:
        """The mode last sent to each wand (for the status page)."""
        with self._lock:
            return dict(self._shown)

    def _show(self, modes: Mapping[int, int]) -> None:
        session = self.session()
        with self._lock:
            if session != self._session:  # a hub reconnected or restarted: its LEDs are not known
                self._session, self._shown = session, {}
            for wand, mode in sorted(modes.items()):
                if self._shown.get(wand) == mode:
                    continue
                try:
                    self.light(wand, mode)
                except HubOffline as e:  # the cable is out: the LEDs wait for the next casting
                    log.info("wand %d's LED not set: %s", wand, e)
                    self._shown.pop(wand, None)
                    continue
                self._shown[wand] = mode

"""Each wand's own LED tells its player how the casting reads them, so no tablet is needed to find out.

After the cue every wand in the casting blinks: Incanto cannot tell yet. As the camera reads it (the
pipeline tells each wand's reading frame by frame, ``vision.decide.CastingWatch``), a wand the casting
has taken as read (at a token, or plainly at none) is lit steady; one Incanto cannot tell (tip hidden, lifted, between two
tokens, still moving, not seen) blinks, and its player touches down or moves the fist. While any wand
blinks the casting waits, up to the pipeline's give-up time; when it closes every LED goes off, and
the tablet asks only for the wands still unsure.

The LEDs are the hub's (``LED <wand> <mode>``, firmware/PROTOCOL.md); buttons on the Pi's own pins
have none, and then nothing here is lit and the casting does not wait.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from companion.inputs.link import HubOffline
from companion.inputs.protocol import LED_BLINK, LED_OFF, LED_STEADY
from vision.decide import CastingResult, CastingSoFar, CastingWatch

log = logging.getLogger("incanto.tableside")

OFF, STEADY, BLINK = LED_OFF, LED_STEADY, LED_BLINK  # the hub's LED modes (firmware/PROTOCOL.md, "LED")

Light = Callable[[int, int], None]  # (wand, mode): the hub's LED command


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

    ``lit()``: whether the wands have LEDs at all right now (a hub is connected)."""

    def __init__(self, light: Light, lit: Callable[[], bool]) -> None:
        self.light, self.lit = light, lit
        self._lock = threading.Lock()
        self._shown: dict[int, int] = {}

    def began(self, wands: Sequence[int]) -> CastingWatch | None:
        if not self.lit():
            return None
        self._show({wand: BLINK for wand in wands})
        return self.seen

    def seen(self, so_far: CastingSoFar) -> None:
        """Steady once the casting has taken the wand as read; blinking while Incanto cannot tell."""
        self._show({wand: STEADY if wand in so_far.read else BLINK for wand in so_far.readings})

    def closed(self, result: CastingResult | None) -> None:
        with self._lock:
            wands = [wand for wand, mode in self._shown.items() if mode != OFF]
        self._show({wand: OFF for wand in wands})

    def shown(self) -> dict[int, int]:
        """The mode last sent to each wand (for the status page)."""
        with self._lock:
            return dict(self._shown)

    def _show(self, modes: Mapping[int, int]) -> None:
        with self._lock:
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

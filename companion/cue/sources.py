"""Cue buttons: the cue button on a GPIO pin, the one on the wand hub and the one on the tablet.

They report the same ``Cue`` as the spoken chant, stamped with host monotonic time of the press
(a press has no last syllable: the pointing starts when the button goes down).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from companion.cue import Cue, CueError

Listener = Callable[[Cue], None]


class CueButton:
    """A button that gives the cue. ``press()`` is called by whatever notices the press: the web
    route for the tablet, the hub reader for a hub button. ``when_cue`` hears every cue."""

    def __init__(self, source: str, clock: Callable[[], float] = time.monotonic) -> None:
        if not source or not isinstance(source, str):
            raise CueError(f"a cue source needs a name; got {source!r}")
        self.source, self.clock = source, clock
        self.when_cue: Listener | None = None

    def press(self, t: float | None = None) -> Cue:
        """The button went down at host time ``t`` (now, if not known)."""
        cue = Cue(self.source, self.clock() if t is None else float(t))
        if self.when_cue is not None:
            self.when_cue(cue)
        return cue


def tablet_button(clock: Callable[[], float] = time.monotonic) -> CueButton:
    return CueButton("tablet", clock)


def hub_button(clock: Callable[[], float] = time.monotonic) -> CueButton:
    """The hub reader calls ``press(t)`` with the host time it stamped on the hub's press event."""
    return CueButton("hub", clock)


class GpioCueButton(CueButton):
    """The cue button wired to a Pi GPIO pin through gpiozero (so ``MockFactory`` drives it in tests)."""

    def __init__(self, pin: int | str, pin_factory: Any = None, clock: Callable[[], float] = time.monotonic,
                 bounce_time: float | None = 0.02) -> None:
        from gpiozero import Button

        super().__init__("gpio", clock)
        self.button = Button(pin, pin_factory=pin_factory, bounce_time=bounce_time)
        self.button.when_pressed = lambda: self.press()

    def close(self) -> None:
        self.button.close()

    def __enter__(self) -> GpioCueButton:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

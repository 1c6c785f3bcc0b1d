"""Wand buttons, a cue button, status LEDs and a buzzer wired straight to the Pi (no hub).

gpiozero devices on a pin factory chosen once: lgpio on a Raspberry Pi, gpiozero's MockFactory
elsewhere (tests, a laptop), or whatever $GPIOZERO_PIN_FACTORY names. Presses are stamped with
the host's monotonic clock in the callback, debounced as the hub does (the first edge counts and
is the stamp; bounce after it is ignored), and judged by the same race rule as the hub's.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable

from gpiozero import LED, Button, Buzzer, Device
from gpiozero.pins import Factory

from companion.inputs.events import CueHeard, InputEvent, Press, RaceArmed, Release, TipLifted, TipPressed
from companion.inputs.race import Referee
from companion.inputs.status import InputStatus

HOLDOFF_US = 8000          # the hub's holdoff: bounce after a change is ignored this long
TIP_KEY = 100              # inputs are keyed 0 (cue), 1..8 (buttons), TIP_KEY+1.. (tip switches)


@dataclass(frozen=True)
class GpioWiring:
    """BCM pin numbers; the defaults are the wiring table in hardware.md."""

    wand_buttons: tuple[int, ...] = (5, 6, 13, 19, 26, 16, 20, 21)
    wand_tips: tuple[int, ...] = (4, 17, 27, 22, 25, 8, 7, 9)   # claimed only when tip switches are fitted
    cue_button: int | None = 12
    ready_led: int | None = 23        # green: inputs ready
    trouble_led: int | None = 24      # red: something needs a look (see the status page)
    buzzer: int | None = 18


def on_raspberry_pi(model_file: Path = Path("/proc/device-tree/model")) -> bool:
    try:
        return model_file.read_text(errors="replace").startswith("Raspberry Pi")
    except OSError:
        return False


def pin_factory(name: str | None = None) -> Factory:
    """'lgpio' (a real Pi) or 'mock'; by default $GPIOZERO_PIN_FACTORY, else what this machine is."""
    name = name or os.environ.get("GPIOZERO_PIN_FACTORY") or ("lgpio" if on_raspberry_pi() else "mock")
    if name == "mock":
        from gpiozero.pins.mock import MockFactory
        return MockFactory()
    if name == "lgpio":
        try:
            from gpiozero.pins.lgpio import LGPIOFactory
        except ImportError as exc:
            raise ImportError(f"pin factory 'lgpio' needs the lgpio library (apt install python3-lgpio): {exc}") from exc
        return LGPIOFactory()
    raise ValueError(f"unknown pin factory {name!r}: use 'lgpio' or 'mock'")


def monotonic_us() -> int:
    return time.monotonic_ns() // 1000


class GpioWands:
    """The GPIO input seam: same events as the hub (Press, Release, CueHeard, race results, and with
    ``tips`` the tip switches: each wand's state at the start, stamped 0, then every change)."""

    def __init__(self, on_event: Callable[[InputEvent], None], wiring: GpioWiring = GpioWiring(),
                 factory: Factory | None = None, clock_us: Callable[[], int] = monotonic_us,
                 tips: bool = False) -> None:
        self.on_event = on_event
        self.clock_us = clock_us
        self.factory = factory or pin_factory()
        self.referee = Referee()
        self.status = InputStatus(source="gpio", connected=True, port=type(self.factory).__name__)
        self._settled: dict[int, tuple[bool, int]] = {}     # input -> (down, stamp of last change)
        self.buttons = [self._button(pin, self._wand_handlers(number))
                        for number, pin in enumerate(wiring.wand_buttons, start=1)]
        self.cue = None
        if wiring.cue_button is not None:
            self.cue = self._button(wiring.cue_button, (self._cue_pressed, self._cue_released))
        self.ready_led = self._device(LED, wiring.ready_led)
        self.trouble_led = self._device(LED, wiring.trouble_led)
        self.buzzer = self._device(Buzzer, wiring.buzzer)
        self.tips = [self._tip(pin, number) for number, pin in enumerate(wiring.wand_tips, start=1)] if tips else []
        self.show_ready(True)

    def _device(self, kind: type, pin: int | None) -> Any:
        return None if pin is None else kind(pin, pin_factory=self.factory)

    def _button(self, pin: int, handlers: tuple[Callable[[], None], Callable[[], None] | None]) -> Button:
        # Pull-up, button to ground: the same wiring as the hub's wands. gpiozero's own bounce_time
        # is left off: lgpio's debounce waits for a steady level, which would delay every stamp.
        button = Button(pin, pull_up=True, bounce_time=None, pin_factory=self.factory)
        button.when_pressed, button.when_released = handlers
        return button

    def _tip(self, pin: int, wand: int) -> Button:
        tip = self._button(pin, ((lambda: self._tip_changed(wand, True)), (lambda: self._tip_changed(wand, False))))
        # How it rests now, as the hub tells it when asked: stamped 0, older than any change to come.
        self._settled[TIP_KEY + wand] = (tip.is_pressed, -HOLDOFF_US)
        self.on_event((TipPressed if tip.is_pressed else TipLifted)(wand, 0, 0.0))
        return tip

    def _wand_handlers(self, wand: int) -> tuple[Callable[[], None], Callable[[], None]]:
        return (lambda: self._pressed(wand)), (lambda: self._released(wand))

    # Callbacks (gpiozero's thread) ---------------------------------------------------------------

    def _change(self, key: int, down: bool) -> int | None:
        """The stamp of a real change of input `key`, or None for bounce."""
        stamp = self.clock_us()
        was_down, since = self._settled.get(key, (False, -HOLDOFF_US))
        if down == was_down or stamp - since < HOLDOFF_US:
            return None
        self._settled[key] = (down, stamp)
        return stamp

    def _pressed(self, wand: int) -> None:
        stamp = self._change(wand, True)
        if stamp is None:
            return
        self.on_event(Press(wand, stamp, stamp / 1e6))
        self.status.update(presses=self.status.presses + 1)
        verdict = self.referee.press(wand, stamp)
        if verdict is not None:
            self.on_event(verdict)

    def _released(self, wand: int) -> None:
        stamp = self._change(wand, False)
        if stamp is not None:
            self.on_event(Release(wand, stamp, stamp / 1e6))

    def _tip_changed(self, wand: int, touching: bool) -> None:
        # Like a button, but never offered to the referee: a tip touching down is not a press.
        stamp = self._change(TIP_KEY + wand, touching)
        if stamp is not None:
            self.on_event((TipPressed if touching else TipLifted)(wand, stamp, stamp / 1e6))

    def _cue_pressed(self) -> None:
        stamp = self._change(0, True)
        if stamp is not None:
            self.on_event(CueHeard("gpio", stamp / 1e6))

    def _cue_released(self) -> None:
        self._change(0, False)

    # Commands ------------------------------------------------------------------------------------

    def arm(self, race: int, order: tuple[int, ...] = ()) -> RaceArmed:
        armed = self.referee.arm(race, self.clock_us(), order)
        self.on_event(armed)
        return armed

    def disarm(self) -> None:
        self.referee.disarm()

    def show_ready(self, ready: bool) -> None:
        """Green while all is well; red blinks when the status page has something to say."""
        if self.ready_led is not None:
            self.ready_led.value = ready
        if self.trouble_led is not None:
            self.trouble_led.off() if ready else self.trouble_led.blink(on_time=0.2, off_time=0.2)

    def beep(self, seconds: float = 0.15) -> None:
        if self.buzzer is not None:
            self.buzzer.blink(on_time=seconds, off_time=0, n=1)

    def close(self) -> None:
        for device in [*self.buttons, *self.tips, self.cue, self.ready_led, self.trouble_led, self.buzzer]:
            if isinstance(device, Device):
                device.close()

    def __enter__(self) -> GpioWands:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

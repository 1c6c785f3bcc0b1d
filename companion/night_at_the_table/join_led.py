"""The join code blinked on the status LED, for a Pi with no screen: each digit as that many short
flashes (0 as ten), a pause between digits, a longer one before the code starts again, until a tablet
has joined. The LED is the green "ready" LED of ``companion.inputs.gpio.GpioWiring`` (BCM 23), on
gpiozero's pin factory (the mock factory off a Pi). With the wand buttons wired to the Pi's pins that
LED already says whether the inputs are ready, so the code is not blinked there.

    digit 3, digit 1:   ▮ ▮ ▮ ___ ▮ _______  (then again)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from companion.threads import Background

FLASH_S, BETWEEN_FLASHES_S, BETWEEN_DIGITS_S, BEFORE_AGAIN_S = 0.25, 0.35, 1.2, 3.0


class Lamp(Protocol):
    def on(self) -> None: ...
    def off(self) -> None: ...


def pattern(code: str) -> list[tuple[bool, float]]:
    """The code as (lit, seconds) steps, ending dark before it starts again."""
    steps: list[tuple[bool, float]] = []
    for digit in code:
        flashes = int(digit) or 10
        for _ in range(flashes):
            steps += [(True, FLASH_S), (False, BETWEEN_FLASHES_S)]
        steps[-1] = (False, BETWEEN_DIGITS_S)
    steps[-1] = (False, BEFORE_AGAIN_S)
    return steps


def read_back(steps: list[tuple[bool, float]]) -> str:
    """The digits a person counting the flashes would read (the tests read the LED this way)."""
    digits, flashes = [], 0
    for lit, seconds in steps:
        if lit:
            flashes += 1
        elif seconds >= BETWEEN_DIGITS_S and flashes:
            digits.append(str(flashes % 10))
            flashes = 0
    return "".join(digits)


class JoinCodeLed(Background):
    """Blinks ``code()`` on ``lamp`` on its own thread while ``waiting()`` (nobody has joined yet)."""

    def __init__(self, lamp: Lamp, code: Callable[[], str], waiting: Callable[[], bool],
                 sleep: Callable[[float], None] | None = None) -> None:
        super().__init__("join-code-led", join_s=5)
        self.lamp, self.code, self.waiting = lamp, code, waiting
        self.sleep = sleep or self._stop.wait

    def blink_once(self) -> None:
        for lit, seconds in pattern(self.code()):
            if self._stop.is_set():
                break
            self.lamp.on() if lit else self.lamp.off()
            self.sleep(seconds)
        self.lamp.off()

    def run(self) -> None:
        while not self._stop.is_set() and self.waiting():
            self.blink_once()

    _run = run  # on its own thread from start(); a test may blink on its own with run()

    def stop(self) -> None:
        super().stop()
        self.lamp.off()


def status_led() -> Lamp | None:
    """The green status LED on the Pi's pins; None when gpiozero cannot open it."""
    try:
        from gpiozero import LED

        from companion.inputs.gpio import GpioWiring, pin_factory
        pin = GpioWiring().ready_led
        return None if pin is None else LED(pin, pin_factory=pin_factory())
    except Exception:  # gpiozero's errors are many (no pins, a pin in use): the LED is a nicety
        return None



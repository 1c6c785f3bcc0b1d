"""The hub's board in Python, for running the firmware's ``Hub`` in-process: the wand buttons as a bit
mask a test sets, and LEDs that are not looked at."""
from __future__ import annotations


class Buttons:
    def __init__(self) -> None:
        self.mask = 0  # bit n set: wand n+1's button held down

    def read(self) -> int:
        return self.mask


class Leds:
    def show(self, index: int, on: bool) -> None:
        pass

"""The join code blinked on the status LED: a real gpiozero LED on the mock pin factory, read back
by counting its flashes, as a person at the table would."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import LED, Device
from gpiozero.pins.mock import MockFactory

from companion.night_at_the_table.join_led import BETWEEN_DIGITS_S, JoinCodeLed, pattern, read_back


@pytest.fixture
def led() -> Iterator[LED]:
    factory = MockFactory()
    lamp = LED(23, pin_factory=factory)
    yield lamp
    lamp.close()
    Device.pin_factory = None


def watched(led: LED) -> tuple[list[tuple[bool, float]], JoinCodeLed, list[bool]]:
    """The LED's state during each pause, as the blinker leaves it (no real waiting)."""
    seen: list[tuple[bool, float]] = []
    rounds: list[bool] = [True, True, False]  # waiting twice, then a tablet has joined
    blinker = JoinCodeLed(led, lambda: "306194", lambda: rounds.pop(0), sleep=lambda s: seen.append((led.is_lit, s)))
    return seen, blinker, rounds


def test_the_led_blinks_the_code_until_a_tablet_joins(led: LED) -> None:
    seen, blinker, rounds = watched(led)
    blinker.run()
    assert rounds == []  # asked each time round, and stopped when someone joined
    once = len(pattern("306194"))
    assert read_back(seen[:once]) == "306194" and read_back(seen[once:]) == "306194" and len(seen) == 2 * once
    assert not led.is_lit  # dark when it stops


def test_zero_is_ten_flashes_and_digits_are_apart() -> None:
    steps = pattern("20")
    assert sum(lit for lit, _ in steps) == 12
    assert [s for lit, s in steps if not lit and s >= BETWEEN_DIGITS_S] == [BETWEEN_DIGITS_S, 3.0]
    assert read_back(steps) == "20"

"""Buttons, LEDs and a buzzer on the Pi's GPIO, driven through gpiozero's MockFactory pins."""
from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from companion.inputs.events import CueHeard, EarlyPress, Press, RaceArmed, RaceWon, Release
from companion.inputs.gpio import GpioWands, GpioWiring, pin_factory

WIRING = GpioWiring()
SETTLE = 0.005     # gpiozero delivers callbacks on its own thread


class Table:
    def __init__(self) -> None:
        self.factory = MockFactory()
        self.events: list[object] = []
        self.now_us = 1_000_000
        self.wands = GpioWands(self.events.append, WIRING, self.factory, clock_us=lambda: self.now_us)

    def pin(self, wand: int):  # noqa: ANN201
        return self.factory.pin(WIRING.wand_buttons[wand - 1])

    def later(self, us: int) -> None:
        self.now_us += us
        time.sleep(SETTLE)

    def tap(self, wand: int) -> None:
        self.pin(wand).drive_low()
        self.later(20_000)
        self.pin(wand).drive_high()
        self.later(20_000)


@pytest.fixture
def table() -> Iterator[Table]:
    table = Table()
    yield table
    table.wands.close()


def test_a_tap_is_a_press_and_a_release(table: Table) -> None:
    table.tap(3)
    assert table.events == [Press(3, 1_000_000, 1.0), Release(3, 1_020_000, 1.02)]


def test_contact_bounce_is_one_press(table: Table) -> None:
    pin = table.pin(2)
    for _ in range(3):
        pin.drive_low()
        table.later(300)
        pin.drive_high()
        table.later(300)
    pin.drive_low()
    table.later(30_000)
    pin.drive_high()
    table.later(1_000)
    assert [e for e in table.events if isinstance(e, Press)] == [Press(2, 1_000_000, 1.0)]
    assert [e for e in table.events if isinstance(e, Release)] == [Release(2, 1_031_800, 1.0318)]


def test_the_first_press_after_arming_wins(table: Table) -> None:
    table.wands.arm(4, order=(2, 5))
    table.tap(5)
    table.tap(2)
    assert table.events[0] == RaceArmed(4, 1_000_000)
    assert [e for e in table.events if isinstance(e, RaceWon)] == [RaceWon(5, 1_000_000, (), 4)]


def test_jumping_the_gun_locks_a_wand_out(table: Table) -> None:
    table.tap(4)
    table.wands.arm(1)
    table.tap(4)
    table.tap(6)
    assert [e for e in table.events if isinstance(e, EarlyPress)] == [EarlyPress(1, 4, 1_040_000)]
    assert [e.wand for e in table.events if isinstance(e, RaceWon)] == [6]


def test_the_cue_button_is_a_cue_from_gpio(table: Table) -> None:
    table.factory.pin(WIRING.cue_button).drive_low()
    time.sleep(SETTLE)
    assert table.events == [CueHeard("gpio", 1.0)]


def test_status_leds_and_buzzer(table: Table) -> None:
    ready, trouble = table.factory.pin(WIRING.ready_led), table.factory.pin(WIRING.trouble_led)
    assert ready.state and not trouble.state
    table.wands.show_ready(False)
    seen = set()
    for _ in range(60):
        seen.add(trouble.state)
        time.sleep(0.01)
    assert not ready.state and seen == {True, False}      # blinking
    table.wands.beep(0.2)
    time.sleep(0.05)
    assert table.factory.pin(WIRING.buzzer).state


def test_pin_factory_choice() -> None:
    assert isinstance(pin_factory("mock"), MockFactory)
    with pytest.raises(ValueError, match="'nope'"):
        pin_factory("nope")


def test_pin_factory_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert isinstance(pin_factory(), MockFactory)

import pytest
from gpiozero.pins.mock import MockFactory

from companion.cue import Cue, CueError
from companion.cue.sources import CueButton, GpioCueButton, hub_button, tablet_button


class SteppedClock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_gpio_cue_button_reports_the_press_time():
    clock, heard = SteppedClock(50.0), []
    with GpioCueButton(17, pin_factory=MockFactory(), clock=clock, bounce_time=None) as button:
        button.when_cue = heard.append
        pin = button.button.pin
        clock.now = 51.25
        pin.drive_low()  # pressed: the button pulls the pin to ground
        pin.drive_high()
        clock.now = 53.0
        pin.drive_low()
    assert heard == [Cue("gpio", 51.25), Cue("gpio", 53.0)]


def test_tablet_and_hub_buttons_give_the_same_kind_of_cue():
    clock = SteppedClock(7.5)
    tablet, hub = tablet_button(clock), hub_button(clock)
    heard = []
    tablet.when_cue = hub.when_cue = heard.append
    assert tablet.press() == Cue("tablet", 7.5, None, None)
    assert hub.press(t=6.9) == Cue("hub", 6.9)
    assert [c.source for c in heard] == ["tablet", "hub"]


def test_a_cue_source_needs_a_name():
    with pytest.raises(CueError, match="''"):
        CueButton("")

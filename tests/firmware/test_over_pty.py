"""The firmware in the real MicroPython interpreter behind a socat pty, spoken to by the host's link
as a Pico on USB would be: the LED modes it holds and the levels it drives, and its tip switches."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from companion.inputs.events import TipPressed
from companion.inputs.link import HubLink
from companion.inputs.ptypair import PtyPair

from .micropython_hub import MicroPythonHub, blinks


def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Poll until ``condition()`` holds; generous, since the machine is shared."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return bool(condition())


@pytest.fixture
def hub_and_link(pty_pair: PtyPair) -> Iterator[tuple[MicroPythonHub, HubLink]]:
    with MicroPythonHub(pty_pair.hub_end) as hub, HubLink(str(pty_pair.host_end), tips=True) as link:
        assert link.wait_connected(20), link.status.snapshot()
        yield hub, link


def test_the_firmware_holds_each_wands_led_mode_and_blinks_its_pin(hub_and_link: tuple[MicroPythonHub, HubLink]) -> None:
    hub, link = hub_and_link
    assert link.status.snapshot()["firmware"] == "0.2.0"
    link.led(1, 1)
    link.led(6, 2)
    assert wait_for(lambda: hub.snapshot()[0] == [1, 0, 0, 0, 0, 2, 0, 0])
    assert blinks(hub, 6, wait_for)
    modes, levels, flips = hub.snapshot()
    assert levels[0] == 1 and flips[0] == 1                  # steady: switched on once, never again
    link.led(6, 1)                                          # read at last: steady
    assert wait_for(lambda: hub.snapshot()[0][5] == 1 and hub.snapshot()[1][5] == 1)
    steady = hub.snapshot()[2][5]
    link.led(1, 0)
    assert wait_for(lambda: hub.snapshot()[0][0] == 0 and hub.snapshot()[1][0] == 0)
    assert hub.snapshot()[2][5] == steady and hub.errors == []


def test_a_tip_touching_down_reaches_the_host_from_the_micropython_firmware(
        hub_and_link: tuple[MicroPythonHub, HubLink]) -> None:
    hub, link = hub_and_link
    assert wait_for(lambda: link.status.snapshot()["tip_switches"] == "told")
    hub.touch(4)
    assert wait_for(lambda: any(isinstance(e, TipPressed) and e.wand == 4 for e in list(link.events.queue)))

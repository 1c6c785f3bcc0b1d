"""A hub on a real tty: the simulated hub behind a socat pty pair, or a real hub (INCANTO_RIG=hardware)."""
from __future__ import annotations

import os
import queue
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from companion.inputs.events import InputEvent
from companion.inputs.link import PORT_ENV, HubLink, find_hub_port
from companion.inputs.ptypair import PtyPair
from companion.inputs.simhub import SimHub

ON_HARDWARE = os.environ.get("INCANTO_RIG") == "hardware"


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> bool:
    """Poll until `condition()` holds; generous timeouts, since the machine is shared."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def drain(link: HubLink, settle: float = 0.3) -> list[InputEvent]:
    """Every event the link has passed on, once it has been quiet for `settle` seconds."""
    events: list[InputEvent] = []
    while True:
        try:
            events.append(link.events.get(timeout=settle))
        except queue.Empty:
            return events


@dataclass
class Rig:
    link: HubLink
    pair: PtyPair | None = None
    sim: SimHub | None = None

    def hands(self) -> SimHub:
        """The simulated hub, to press its buttons; skips on a real hub (no hands here)."""
        if self.sim is None:
            pytest.skip("pressing buttons needs the simulated hub (INCANTO_RIG is 'hardware')")
        return self.sim


@pytest.fixture
def rig(request: pytest.FixtureRequest) -> Iterator[Rig]:
    if ON_HARDWARE:
        if not (os.environ.get(PORT_ENV) or find_hub_port()):
            pytest.skip(f"INCANTO_RIG=hardware but no hub is plugged in (USB 2e8a:0005) and ${PORT_ENV} is unset")
        with HubLink() as link:
            if not link.wait_connected(5):
                pytest.skip(f"INCANTO_RIG=hardware but no hub answered: {link.status.last_error}")
            yield Rig(link)
        return
    pair = request.getfixturevalue("pty_pair")
    with SimHub(pair.hub_end) as sim, HubLink(str(pair.host_end)) as link:
        assert link.wait_connected(5), link.status.snapshot()
        yield Rig(link, pair, sim)

"""Mapping the hub's microsecond clock onto the host's monotonic clock.

Every heartbeat and pong gives one sample `arrival - hub_us`; transport only ever adds delay, so
the smallest recent sample is the best offset (the minimum filter NTP uses). A window of recent
samples follows the slow drift between the Pico's crystal and the Pi's.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable

from companion.inputs.protocol import Heartbeat, HubTime, Pong

WINDOW = 64
CLOCK_PINGS = 8                              # round trips to map the hub clock right after HELLO
CLOCK_TOKEN = "clock"


class HubClock:
    def __init__(self, window: int = WINDOW) -> None:
        self._samples: deque[float] = deque(maxlen=window)

    @property
    def count(self) -> int:
        return len(self._samples)

    def sample(self, hub_us: int, arrival: float) -> None:
        self._samples.append(arrival - hub_us / 1e6)

    def reset(self) -> None:
        """The hub rebooted: its clock started again from zero."""
        self._samples.clear()

    def to_host(self, hub_us: int, fallback: float) -> float:
        """Host monotonic time of a hub instant; `fallback` (e.g. the arrival time) if unknown."""
        if not self._samples:
            return fallback
        return hub_us / 1e6 + min(self._samples)


class ClockSync:
    """Keeps a ``HubClock`` fed from a connected hub: a few quick round trips (``PING clock``) right
    after each greeting give the mapping a good start; heartbeats, pongs and TIME answers refine it.
    ``ping(token)`` sends a PING; ``now()`` is the host clock."""

    def __init__(self, ping: Callable[[str], None], now: Callable[[], float], hub_clock: HubClock | None = None) -> None:
        self.ping, self.now = ping, now
        self.hub_clock = hub_clock or HubClock()

    def greeted(self) -> None:
        if self.hub_clock.count < CLOCK_PINGS:
            self.ping(CLOCK_TOKEN)

    def heard(self, message: Heartbeat | Pong | HubTime, fresh: bool) -> None:
        """A line carrying the hub's time; only one that came in order times the transport (a resent
        line arrives late)."""
        if fresh:
            self.hub_clock.sample(message.hub_us, self.now())
        if isinstance(message, Pong) and message.token == CLOCK_TOKEN and self.hub_clock.count < CLOCK_PINGS:
            self.ping(CLOCK_TOKEN)

    def restarted(self) -> None:
        self.hub_clock.reset()

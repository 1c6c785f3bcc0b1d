"""Mapping the hub's microsecond clock onto the host's monotonic clock.

Every heartbeat and pong gives one sample `arrival - hub_us`; transport only ever adds delay, so
the smallest recent sample is the best offset (the minimum filter NTP uses). A window of recent
samples follows the slow drift between the Pico's crystal and the Pi's.
"""
from __future__ import annotations

from collections import deque

WINDOW = 64


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

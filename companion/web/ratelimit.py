"""A token bucket per key (session or address): bursts of taps are fine, floods are refused."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

from companion.web.errors import TooManyRequests


class RateLimit:
    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._rate = per_minute / 60.0
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)

    def take(self, key: str, who: str = "") -> None:
        """Spend one request of ``key``'s allowance, or raise TooManyRequests naming ``who``."""
        now = self._clock()
        with self._lock:
            tokens, when = self._buckets.get(key, (float(self.per_minute), now))
            tokens = min(float(self.per_minute), tokens + (now - when) * self._rate)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                raise TooManyRequests(who or key, self.per_minute)
            self._buckets[key] = (tokens - 1.0, now)

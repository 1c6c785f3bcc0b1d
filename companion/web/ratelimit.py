"""A token bucket per key (session or address): bursts of taps are fine, floods are refused; and the
join code's guard, which also counts wrong codes from every address together."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

from companion.web.errors import JoiningPaused, TooManyRequests, WrongJoinCode


class RateLimit:
    KEYS = 4096  # beyond this many keys, the ones with a full bucket are forgotten (they lose nothing)

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
            if len(self._buckets) > self.KEYS:
                self._forget_full(now)

    def left(self, key: str) -> float:
        """Requests ``key`` may still make at once."""
        now = self._clock()
        with self._lock:
            tokens, when = self._buckets.get(key, (float(self.per_minute), now))
            return min(float(self.per_minute), tokens + (now - when) * self._rate)

    def _forget_full(self, now: float) -> None:
        full = [k for k, (tokens, when) in self._buckets.items() if tokens + (now - when) * self._rate >= self.per_minute]
        for key in full:
            del self._buckets[key]


class JoinGuard:
    """Guessing the join code, from one address or from many.

    Each address has its own bucket (``per_address`` a minute). Wrong codes from anywhere also spend
    one shared bucket (``failures_per_minute``); when it is empty, joining pauses for everyone, and
    each pause in a row is twice as long as the last (up to ``MAX_PAUSE_S``). So the whole network
    gets at most ``failures_per_minute`` guesses a minute at a million codes, the Pi's own screen shows
    every wrong code, and the host can change the code at once.
    """

    FIRST_PAUSE_S = 2.0
    MAX_PAUSE_S = 300.0
    QUIET_S = 600.0  # after this long without a wrong code, pauses start short again
    REMEMBERED = 20  # the most recent wrong codes shown on the Pi's screen

    def __init__(self, per_address: int, failures_per_minute: int, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.per_address = RateLimit(per_address, clock)
        self.failures = RateLimit(failures_per_minute, clock)
        self._clock, self._wall = clock, wall
        self._lock = threading.Lock()
        self._paused_until = 0.0
        self._pauses_in_a_row = 0
        self._last_failure = -float("inf")
        self.failed = 0  # wrong codes checked
        self.refused = 0  # attempts refused unchecked (an address over its limit, or a pause)
        self.addresses: set[str] = set()
        self.recent: list[dict[str, object]] = []

    def check(self, who: str) -> None:
        """Before the code is even compared: refuse while paused, or when ``who`` is over its limit."""
        with self._lock:
            wait = self._paused_until - self._clock()
            if wait > 0:
                self.refused += 1
                raise JoiningPaused(wait, self.failed)
        try:
            self.per_address.take(who, who=who)
        except TooManyRequests:
            with self._lock:
                self.refused += 1
            raise

    def wrong(self, who: str) -> None:
        """A wrong code was typed at ``who``; too many from anywhere pause joining."""
        now = self._clock()
        with self._lock:
            if now - self._last_failure > self.QUIET_S:
                self._pauses_in_a_row = 0
            self._last_failure = now
            self.failed += 1
            self.addresses.add(who)
            self.recent = [*self.recent, {"address": who, "at": self._wall()}][-self.REMEMBERED:]
            if self.failures.left("everyone") >= 1:
                self.failures.take("everyone")
            if self.failures.left("everyone") < 1:  # that was the last wrong code this minute allows
                pause = min(self.MAX_PAUSE_S, self.FIRST_PAUSE_S * 2 ** self._pauses_in_a_row)
                self._pauses_in_a_row += 1
                self._paused_until = now + pause

    def snapshot(self) -> dict[str, object]:
        """For the Pi's own screen: how many wrong codes, from where, and whether joining is paused."""
        with self._lock:
            return {"failed": self.failed, "refused": self.refused, "addresses": len(self.addresses),
                    "recent": list(self.recent), "paused_s": round(max(0.0, self._paused_until - self._clock()), 1)}

    def admit(self, who: str, join: Callable[[], str]) -> str:
        """``join()`` (which checks the code) for ``who``, within the limits; a wrong code is counted."""
        self.check(who)
        try:
            return join()
        except WrongJoinCode:
            self.wrong(who)
            raise

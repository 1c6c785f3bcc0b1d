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
    """Guessing the join code, from one address or from many, without locking the table out.

    Only wrong codes are counted, and only against the address they came from: an address has
    ``FREE_WRONG`` wrong codes (mistyping happens), then each wrong code pauses that address twice as
    long as the last (``FIRST_PAUSE_S`` up to ``MAX_PAUSE_S``); while paused, its attempts are refused
    unchecked. Wrong codes from every address together also spend one shared allowance
    (``failures_per_minute``); once it is spent, an address pauses at its first wrong code. A tablet
    that has typed no wrong code is always checked, so spam from other addresses never keeps the right
    code out; nor is the Pi's own screen ever paused. An address that sends more than ``per_address``
    wrong codes a minute pauses at once too. So ten spamming addresses get a few guesses an hour each at a million
    codes; the Pi's own screen shows every wrong code, and the host can change the code at once.
    """

    FREE_WRONG = 3
    FIRST_PAUSE_S = 2.0
    MAX_PAUSE_S = 600.0
    QUIET_S = 600.0  # after this long without a wrong code, an address starts afresh
    REMEMBERED = 20  # the most recent wrong codes shown on the Pi's screen
    ADDRESSES = 4096  # beyond this many, addresses that are neither paused nor recently wrong are forgotten

    def __init__(self, per_address: int, failures_per_minute: int, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.per_address = RateLimit(per_address, clock)
        self.failures = RateLimit(failures_per_minute, clock)
        self._clock, self._wall = clock, wall
        self._lock = threading.Lock()
        self._wrong: dict[str, tuple[int, float, float]] = {}  # address -> (wrong codes in a row, last, paused until)
        self.failed = 0  # wrong codes checked
        self.refused = 0  # attempts refused unchecked (an address over its limit, or paused)
        self.addresses: set[str] = set()
        self.recent: list[dict[str, object]] = []

    def check(self, who: str) -> None:
        """Before the code is even compared: refuse while ``who`` is paused."""
        with self._lock:
            count, _, until = self._record(who)
            wait = until - self._clock()
            if wait > 0:
                self.refused += 1
                raise JoiningPaused(wait, count, who)

    def wrong(self, who: str) -> None:
        """A wrong code was typed at ``who``: past its free ones, or once every address together has
        spent the minute's allowance, ``who`` pauses, each pause twice the last."""
        now = self._clock()
        with self._lock:
            count, _, _ = self._record(who)
            count += 1
            self.failed += 1
            if len(self.addresses) < self.ADDRESSES:
                self.addresses.add(who)
            self.recent = [*self.recent, {"address": who, "at": self._wall()}][-self.REMEMBERED:]
            for bucket, key in ((self.failures, "everyone"), (self.per_address, who)):
                if bucket.left(key) >= 1:
                    bucket.take(key)
            spent = self.failures.left("everyone") < 1 or self.per_address.left(who) < 1
            over = max(count - self.FREE_WRONG, 1 if spent else 0)
            pause = min(self.MAX_PAUSE_S, self.FIRST_PAUSE_S * 2 ** (over - 1)) if over > 0 else 0.0
            self._wrong[who] = (count, now, now + pause)
            if len(self._wrong) > self.ADDRESSES:
                self._forget(now)

    def right(self, who: str) -> None:
        """``who`` typed the right code: its mistypes are forgiven."""
        with self._lock:
            self._wrong.pop(who, None)

    def _record(self, who: str) -> tuple[int, float, float]:
        count, last, until = self._wrong.get(who, (0, -float("inf"), 0.0))
        if self._clock() - last > self.QUIET_S and until <= self._clock():
            return 0, last, 0.0
        return count, last, until

    def _forget(self, now: float) -> None:
        for who in [w for w, (_, last, until) in self._wrong.items() if until <= now and now - last > 60.0]:
            del self._wrong[who]

    def snapshot(self) -> dict[str, object]:
        """For the Pi's own screen: how many wrong codes, from where, and how many addresses are paused."""
        now = self._clock()
        with self._lock:
            waits = [until - now for _, _, until in self._wrong.values() if until > now]
            return {"failed": self.failed, "refused": self.refused, "addresses": len(self.addresses),
                    "recent": list(self.recent), "paused_addresses": len(waits),
                    "paused_s": round(max(waits, default=0.0), 1)}

    def admit(self, who: str, join: Callable[[], str], exempt: bool = False) -> str:
        """``join()`` (which checks the code) for ``who``, within its limits; a wrong code is counted.
        ``exempt``: the Pi's own screen, never paused (its wrong codes are still shown)."""
        if not exempt:
            self.check(who)
        try:
            token = join()
        except WrongJoinCode:
            if not exempt:
                self.wrong(who)
            raise
        self.right(who)
        return token

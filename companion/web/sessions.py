"""The join code and the sessions it gives: anyone may watch, a tablet with a session may change."""
from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable

from companion.web.errors import WrongJoinCode

COOKIE = "incanto_session"


class Sessions:
    def __init__(self, join_code: str, hours: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.join_code = join_code
        self._ttl = hours * 3600
        self._clock = clock
        self._lock = threading.Lock()
        self._expires: dict[str, float] = {}

    def join(self, code: str) -> str:
        """A new session token for the right code; the code is compared in constant time."""
        if not hmac.compare_digest(code.encode(), self.join_code.encode()):
            raise WrongJoinCode(f"join code {code!r} is not the one shown on the display")
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._expires[token] = self._clock() + self._ttl
        return token

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            expires = self._expires.get(token)
            if expires is not None and expires < self._clock():
                del self._expires[token]
                expires = None
        return expires is not None

    def leave(self, token: str) -> None:
        with self._lock:
            self._expires.pop(token, None)

"""The join code and the sessions it gives: anyone may watch, a tablet with a session may change.

Both live in the store beside the night, so a restart or a power cut costs no tablet a rejoin and
the code on the display stays the one the table already knows. The store keeps only a hash of each
session token; the tokens themselves exist only in the tablets' cookies.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from typing import Protocol
from collections.abc import Callable

from companion.web.errors import WrongJoinCode
from companion.web.settings import new_join_code

COOKIE = "incanto_session"
CODE_KEY = "join_code"  # where the code is kept among the store's settings
HOSTS_KEY = "host_sessions"  # the sessions the host made hosts (token hashes, JSON), kept across a restart


class SessionStore(Protocol):
    """The part of ``companion.store.Store`` sessions are kept in."""

    def sessions(self) -> dict[str, float]: ...

    def keep_session(self, token_hash: str, expires_at: float) -> None: ...

    def end_sessions(self, token_hashes: list[str] | None = None) -> None: ...

    def meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...


def hashed(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Sessions:
    """Sessions by token hash, read from the store once and written through on every change.

    ``join_code``: the code to use (one given on the command line), or None to keep the stored one;
    ``first_code`` is used when the store has none yet.
    """

    def __init__(self, store: SessionStore, hours: float, join_code: str | None = None,
                 first_code: str | None = None, clock: Callable[[], float] = time.time) -> None:
        self._store, self._ttl, self._clock = store, hours * 3600, clock
        self._lock = threading.Lock()
        self.join_code = join_code or store.meta(CODE_KEY) or first_code or new_join_code()
        if store.meta(CODE_KEY) != self.join_code:
            store.set_meta(CODE_KEY, self.join_code)
        now = clock()
        kept = store.sessions()
        self._expires = {h: e for h, e in kept.items() if e >= now}
        if expired := [h for h in kept if h not in self._expires]:
            store.end_sessions(expired)
        # The host PIN: shown only on the Pi's own screen; a joined tablet that types it becomes a host,
        # who may change the table's calibration for everyone. A new one each start.
        self.host_pin = new_join_code()
        self._hosts = set(_hashes(store.meta(HOSTS_KEY))) & set(self._expires)

    def join(self, code: str) -> str:
        """A new session token for the right code; the code is compared in constant time."""
        if not self.right_code(code):
            raise WrongJoinCode(f"join code {code!r} is not the one shown on the display")
        token = secrets.token_urlsafe(24)
        expires = self._clock() + self._ttl
        with self._lock:
            self._store.keep_session(hashed(token), expires)  # on disk before the tablet hears of it
            self._expires[hashed(token)] = expires
        return token

    def right_code(self, code: str) -> bool:
        return hmac.compare_digest(code.encode("utf-8", "replace"), self.join_code.encode())

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            expires = self._expires.get(hashed(token))
        return expires is not None and expires >= self._clock()

    def leave(self, token: str) -> None:
        with self._lock:
            self._store.end_sessions([hashed(token)])
            self._expires.pop(hashed(token), None)
            self._hosts.discard(hashed(token))

    def make_host(self, token: str, pin: str) -> None:
        """The session of ``token`` becomes a host's, given the host PIN (compared in constant time)."""
        if not hmac.compare_digest(pin.encode("utf-8", "replace"), self.host_pin.encode()):
            raise WrongJoinCode(f"host PIN {pin!r} is not the one shown on the Pi's own screen")
        with self._lock:
            self._hosts.add(hashed(token))
            self._store.set_meta(HOSTS_KEY, json.dumps(sorted(self._hosts)))

    def is_host(self, token: str | None) -> bool:
        return self.valid(token) and hashed(token or "") in self._hosts

    def rotate(self, end_sessions: bool = False) -> str:
        """A new join code (the old one stops working); ``end_sessions`` also signs every tablet out."""
        code = new_join_code()
        while code == self.join_code:
            code = new_join_code()
        with self._lock:
            self._store.set_meta(CODE_KEY, code)
            if end_sessions:
                self._store.end_sessions()
                self._expires.clear()
                self._hosts.clear()
                self._store.set_meta(HOSTS_KEY, "[]")
            self.join_code = code
        return code

    def count(self) -> int:
        now = self._clock()
        with self._lock:
            return sum(e >= now for e in self._expires.values())


def _hashes(kept: str | None) -> list[str]:
    try:
        hashes = json.loads(kept or "[]")
    except ValueError:
        return []
    return [h for h in hashes if isinstance(h, str)] if isinstance(hashes, list) else []

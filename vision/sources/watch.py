"""A camera that may come and go during a game night.

``CameraWatch`` wraps any way of opening a source. It never raises into the game: when the camera
is missing or stops giving pictures it says so in words for the display, returns no frames (so
wands are entered on the tablet meanwhile) and tries to open it again, waiting a little longer
after each failure. When the camera answers again, frames flow again.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal
from collections.abc import Callable

from vision.frames import Frame, FrameSource

State = Literal["ok", "missing", "reconnecting"]
LEVELS = {"ok": "ok", "reconnecting": "warning", "missing": "error"}  # as companion.status uses them


@dataclass(frozen=True)
class CameraStatus:
    """What the display shows about the camera."""

    state: State
    message: str
    fix: str = ""
    since: float = 0.0  # clock time the camera entered this state
    retry_at: float | None = None  # clock time of the next attempt to open it, when missing

    @property
    def level(self) -> str:
        """"ok", "warning" or "error", the levels of the status page."""
        return LEVELS[self.state]


@dataclass(frozen=True)
class Backoff:
    first_s: float = 1.0
    longest_s: float = 30.0
    failed_reads: int = 3  # reads in a row without a picture before the camera counts as gone


class CameraWatch:
    """A FrameSource that survives its camera being unplugged. ``clock`` decides when to retry;
    nothing here sleeps, so the caller's loop keeps its own pace."""

    def __init__(self, opener: Callable[[], FrameSource], name: str = "camera", *,
                 clock: Callable[[], float] = time.monotonic, backoff: Backoff | None = None,
                 on_change: Callable[[CameraStatus], None] | None = None) -> None:
        self.name, self._opener, self._clock = name, opener, clock
        self.backoff = backoff or Backoff()
        self._on_change = on_change
        self._source: FrameSource | None = None
        self._delay, self._retry_at, self._misses = self.backoff.first_s, clock(), 0
        self.status = CameraStatus("missing", f"{name} not opened yet", since=clock())
        self._try_open()

    def read(self) -> Frame | None:
        """The next picture, or None while the camera is missing (never raises)."""
        if self._source is None:
            if self._clock() >= self._retry_at:
                self._try_open()
            return None
        frame = self._read_once(self._source)
        if frame is not None:
            self._misses, self._delay = 0, self.backoff.first_s
            self._set("ok", f"{self.name} sees the table")
            return frame
        self._misses += 1
        if self._misses >= self.backoff.failed_reads:
            self._lose(f"{self.name} stopped sending pictures")
        return None

    def close(self) -> None:
        self._drop()

    def _read_once(self, source: FrameSource) -> Frame | None:
        try:
            return source.read()
        except Exception:  # a driver error mid-game is the same as no picture: never into the game
            return None

    def _try_open(self) -> None:
        try:
            self._source = self._opener()
        except Exception as e:  # noqa: BLE001 - any failure to open means "still missing"
            self._lose(f"{self.name} is not answering ({e})")
            return
        self._misses = 0
        self._set("reconnecting", f"{self.name} found, waiting for its first picture")

    def _lose(self, why: str) -> None:
        self._drop()
        now = self._clock()
        self._retry_at = now + self._delay
        wait, self._delay = self._delay, min(self._delay * 2.0, self.backoff.longest_s)
        self._set("missing", f"{why}; enter wands on the tablet meanwhile. Trying again in {wait:.0f} s.",
                  fix=f"check that the {self.name} is plugged in", retry_at=self._retry_at)

    def _drop(self) -> None:
        source, self._source = self._source, None
        if source is not None:
            try:
                source.close()
            except Exception:  # noqa: BLE001 - closing a vanished device may fail; it is gone anyway
                pass

    def _set(self, state: State, message: str, fix: str = "", retry_at: float | None = None) -> None:
        since = self.status.since if state == self.status.state else self._clock()
        changed = state != self.status.state
        self.status = CameraStatus(state, message, fix, since, retry_at)
        if changed and self._on_change is not None:
            self._on_change(self.status)

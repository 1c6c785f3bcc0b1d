"""The health of each piece of hardware, as the status page shows it.

Each device's seam reports here (camera, wand hub, cue detector, calibration); the display reads
one snapshot. A status always says what to do when something is wrong, in the table's words.
"""
from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass
from typing import Any
from collections.abc import Callable, Mapping

from companion.words.said import Said, words_of

Words = tuple[str, Mapping[str, Any]]  # a catalogue key and its values (companion.words): said in each tablet's language

OK, WARNING, ERROR, OFF = "ok", "warning", "error", "off"
LEVELS = (OK, WARNING, ERROR, OFF)


@dataclass(frozen=True)
class DeviceStatus:
    device: str  # "camera", "hub", "cue", "calibration", "gpio"
    level: str  # one of LEVELS
    message: str  # what is happening, e.g. "wand hub unplugged at 21:04"
    fix: str = ""  # what to do about it, e.g. "plug the hub's USB cable back in"
    details: dict[str, Any] | None = None
    since: float = 0.0
    words: dict[str, Any] | None = None  # ``message`` as a catalogue key and values: {"key", "values"}
    fix_words: dict[str, Any] | None = None  # ``fix`` the same way

# What to do about a table not set up: its calibration page (the status page links to the step in ``details``).
CALIBRATION_FIX = Said("device.calibration.fix", "Set the table up on the calibration page, with the camera over the table.")

class StatusBoard:
    """Thread-safe: devices report from their own threads, pages read snapshots."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._devices: dict[str, DeviceStatus] = {}
        self._listeners: list[Callable[[DeviceStatus], None]] = []

    def report(self, device: str, level: str, message: str, fix: str = "",
               details: dict[str, Any] | None = None, *, words: Words | None = None,
               fix_words: Words | None = None) -> DeviceStatus:
        if level not in LEVELS:
            raise ValueError(f"status level must be one of {LEVELS}, not {level!r}")
        # A sentence made with its catalogue words (a ``Said``) brings them along: said in the tablet's language.
        said, fix_said = _said(words) or words_of(message), _said(fix_words) or words_of(fix)
        status = DeviceStatus(device, level, message, fix, details, time.time(), said, fix_said)
        with self._lock:
            self._devices[device] = status
            listeners = list(self._listeners)
        for listener in listeners:
            listener(status)
        return status

    def snapshot(self) -> list[dict[str, Any]]:
        with self._lock:
            return [asdict(s) for s in sorted(self._devices.values(), key=lambda s: s.device)]

    def subscribe(self, listener: Callable[[DeviceStatus], None]) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)


def _said(words: Words | None) -> dict[str, Any] | None:
    return None if words is None else {"key": words[0], "values": dict(words[1])}

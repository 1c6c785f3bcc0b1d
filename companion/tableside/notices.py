"""Things the table should hear about that are not game events: a press, a race won, a reading that
needs a tap, wands that were not swapped. Each goes to the display's push stream as
``{"type": "notice", "notice": {"kind", "message", "at", ...}}`` and is kept for the status page and
tests. Pages that do not know a notice ignore it.

A notice also carries its ``words``: a catalogue key and its values (``companion.words``), so each
tablet says it in its own language; ``message`` is the English, for the log and older pages."""
from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any
from collections.abc import Callable, Mapping

Publish = Callable[[dict[str, Any]], None]
KEPT = 50


class Notices:
    def __init__(self, publish: Publish | None = None) -> None:
        self.publish = publish
        self._recent: deque[dict[str, Any]] = deque(maxlen=KEPT)
        self._lock = threading.Lock()

    def say(self, kind: str, message: str, words: tuple[str, Mapping[str, Any]] | None = None,
            **details: Any) -> dict[str, Any]:
        notice = {"kind": kind, "message": message, "at": time.time(), **details}
        if words is not None:
            notice["words"] = {"key": words[0], "values": dict(words[1])}
        with self._lock:
            self._recent.append(notice)
        if self.publish is not None:
            self.publish({"type": "notice", "notice": notice})
        return notice

    def recent(self, kind: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            return [n for n in self._recent if kind is None or n["kind"] == kind]

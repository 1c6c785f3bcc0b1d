"""What the display's status page shows about the inputs: one snapshot dict, safe to serialise."""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field, fields
from typing import Any

log = logging.getLogger("incanto.inputs")


@dataclass
class InputStatus:
    """Filled in by the link as things happen; `snapshot()` is read by the status page."""

    source: str = "hub"
    connected: bool = False
    port: str | None = None
    protocol_version: int | None = None
    firmware: str | None = None
    boot_id: str | None = None
    garbage: int = 0
    garbage_by_reason: dict[str, int] = field(default_factory=dict)
    resends: int = 0
    lines_recovered: int = 0
    lines_lost: int = 0
    duplicates: int = 0
    reconnects: int = 0
    presses: int = 0
    tip_switches: str = "off"   # "off" (not asked), "asked", "told" (the hub answered TIPS), "unsupported"
    last_error: str | None = None
    last_error_at: float | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def problem(self, message: str, level: int = logging.WARNING) -> None:
        """Record a problem for the status page and the log at once."""
        with self._lock:
            self.last_error = message
            self.last_error_at = time.time()
        log.log(level, "%s", message)

    def update(self, **changes: Any) -> None:
        with self._lock:
            for name, value in changes.items():
                if not hasattr(self, name):
                    raise AttributeError(f"no status field {name!r}")
                setattr(self, name, value)

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            values = {f.name: getattr(self, f.name) for f in fields(self) if not f.name.startswith("_")}
        return {name: dict(value) if isinstance(value, dict) else value for name, value in values.items()}

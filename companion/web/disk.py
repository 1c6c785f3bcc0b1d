"""A store that cannot be written: the refusal a tablet sees, and the line on the status page.

SQLite refuses a whole transaction when the disk fills, and the engine applies an entry only after
the store took it, so the stored game and the one on the display both stay as they were. What is
left to do is to say so: the tap is refused with what happened, the status page shows the store as
an error with what to do, and the first change saved after space was freed clears it.
"""
from __future__ import annotations

import errno
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from companion.errors import StoreError
from companion.status import ERROR, OK, StatusBoard
from companion.web.errors import DiskFull
from companion.words.said import Said

DEVICE = "store"
FREE_SPACE = ("free some space on the Pi's SD card (old videos, logs, downloads), then tap again: "
              "every change before this one is kept")


def disk_full(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "full" in str(exc)
    return isinstance(exc, OSError) and exc.errno == errno.ENOSPC


class StoreWatch:
    """Turns a failed write into a refusal and a status; a later saved change clears the status."""

    def __init__(self, status: StatusBoard, path: Path | None) -> None:
        self.status, self.path = status, path
        self.failing = False

    def refusal(self, exc: BaseException) -> StoreError:
        """The refusal for ``exc`` (a write the store could not make), after reporting it."""
        self.failing = True
        if disk_full(exc):
            message = f"the disk is full{self._free()}: the last change was not saved"
            self.status.report(DEVICE, ERROR, Said("status.store.full", "the disk is full{free}: the last change was not saved",
                                                   free=self._free()), Said("status.store.free_space", FREE_SPACE))
            return DiskFull(f"{message}; {FREE_SPACE}")
        message = f"the game's store could not be written ({type(exc).__name__}: {str(exc)[:120]})"
        self.status.report(DEVICE, ERROR, Said("status.store.not_written", "the game's store could not be written ({error})",
                                               error=f"{type(exc).__name__}: {str(exc)[:120]}"),
                           Said("status.store.not_written_fix", "restart Incanto; if it happens again, check the SD card"))
        return StoreError(message)

    def saved(self, message: dict[str, Any]) -> None:
        """Heard for every message the display pushes: an event means the store took a change again."""
        if self.failing and message.get("type") == "event":
            self.failing = False
            self.status.report(DEVICE, OK, Said("status.store.saving_again", "saving again{free}", free=self._free()))

    def _free(self) -> str:
        if self.path is None:
            return ""
        try:
            free = shutil.disk_usage(self.path.parent).free
        except OSError:
            return ""
        return f" ({free / 1e6:.1f} MB)"  # a number alone: it stands in a sentence of any language

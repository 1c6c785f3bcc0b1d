"""Backups of the night's store: a copy after every game, made with SQLite's online backup while the
display keeps writing, the last ``KEEP`` kept in ``backups/`` of the data directory; and restoring one.

    backups/incanto-20261202-2314-05-incantibus.sqlite     (newest last)

``incanto restore FILE`` puts a backup (or any Incanto store) back as the night's store, after a copy
of the store it replaces, so a wrong restore is undone by restoring that copy.
"""
from __future__ import annotations

import argparse
import logging
import os
import re
import sqlite3
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.night_at_the_table import CannotStart, data_dir

log = logging.getLogger(__name__)
FOLDER, KEEP = "backups", 10
NAME = re.compile(r"^incanto-\d{8}-\d{4}-\d{2}(-[a-z0-9_-]+)?\.sqlite$")


def backup(store: Path, folder: Path, label: str = "", keep: int = KEEP, now: float | None = None) -> Path:
    """A consistent copy of ``store`` in ``folder`` (the online backup: readers and the writer go on),
    written beside its final name and renamed, so a power cut never leaves half a backup; then only
    the newest ``keep`` are kept."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M-%S", time.localtime(now))
    target = folder / f"incanto-{stamp}{'-' + _slug(label) if label else ''}.sqlite"
    partial = target.with_suffix(".partial")
    copy_store(store, partial)
    os.replace(partial, target)
    _sync(folder)
    for old in kept(folder)[:-keep]:
        old.unlink()
    return target


def copy_store(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into a new file ``target``, on disk before returning."""
    target.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
    finally:
        dst.close()
        src.close()
    with open(target, "rb") as f:
        os.fsync(f.fileno())


def kept(folder: Path) -> list[Path]:
    """The backups in ``folder``, oldest first."""
    return sorted(p for p in folder.glob("incanto-*.sqlite") if NAME.match(p.name)) if folder.is_dir() else []


def check(path: Path) -> dict[str, Any]:
    """That ``path`` is a whole Incanto store: CannotStart naming it otherwise. Returns what it holds."""
    if not path.is_file():
        raise CannotStart(f"no file {str(path)!r} to restore")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise CannotStart(f"{str(path)!r} is damaged (SQLite's integrity check fails)")
            app = db.execute("SELECT value FROM meta WHERE key = 'app'").fetchone()
            nights = db.execute("SELECT count(*) FROM nights").fetchone()[0]
            games = db.execute("SELECT count(*) FROM games").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error as e:
        raise CannotStart(f"{str(path)!r} is not an Incanto store: {e}") from None
    if app is None or app[0] != "incanto":
        raise CannotStart(f"{str(path)!r} is not an Incanto store")
    return {"nights": nights, "games": games}


def restore(backup_file: Path, folder: Path) -> Path | None:
    """``backup_file`` becomes the night's store in ``folder``; the store it replaces is backed up first
    (returned, None when there was none). Checked before anything is touched."""
    check(backup_file)
    store = folder / data_dir.STORE
    before = backup(store, folder / FOLDER, "before-restore") if store.exists() else None
    partial = store.with_suffix(".restoring")
    copy_store(backup_file, partial)
    for leftover in (store.with_name(store.name + "-wal"), store.with_name(store.name + "-shm")):
        leftover.unlink(missing_ok=True)  # the replaced store's journal belongs to it, not to the backup
    os.replace(partial, store)
    _sync(folder)
    return before


class AfterEveryGame:
    """Listens to what the display publishes; when a game ends, backs the store up on its own thread
    (the table never waits for the copy)."""

    def __init__(self, store: Path, folder: Path, keep: int = KEEP) -> None:
        self.store, self.folder, self.keep = store, folder, keep
        self.made: list[Path] = []
        self._ended: set[int] = set()
        self._lock = threading.Lock()
        self.done = threading.Event()

    def heard(self, message: Mapping[str, Any]) -> None:
        view = message.get("game") if message.get("type") == "event" else None
        if not isinstance(view, dict) or not view.get("over"):
            return
        # Which game of the night ended: how many finished games the night's standings count (an undo and
        # redo of the last move ends the same game again, and is not backed up twice).
        ended = sum(row.get("games", 0) for row in message.get("standings") or [])
        with self._lock:
            if ended in self._ended:
                return
            self._ended.add(ended)
        self.done.clear()
        threading.Thread(target=self._backup, args=(str(view.get("game") or ""),), name="backup", daemon=True).start()

    def _backup(self, label: str) -> None:
        try:
            with self._lock:
                self.made.append(backup(self.store, self.folder, label, self.keep))
        except (OSError, sqlite3.Error) as e:
            log.warning("the backup after the game failed: %s", e)
        finally:
            self.done.set()


def _slug(label: str) -> str:
    return re.sub(r"[^a-z0-9_-]+", "-", label.lower()).strip("-")[:40]


def _sync(folder: Path) -> None:
    """The folder's entry for a renamed file on disk too (a rename is only durable once its folder is)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def main(argv: list[str]) -> int:
    """``incanto restore FILE`` / ``incanto restore --list``."""
    parser = argparse.ArgumentParser(prog="incanto restore", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path, nargs="?", help="the backup to restore (see --list)")
    parser.add_argument("--data-dir", type=Path, help="the night's data directory (default: as incanto status finds it)")
    parser.add_argument("--list", action="store_true", help="list the backups kept, oldest first")
    args = parser.parse_args(argv)
    from companion.night_at_the_table.kiosk import port_of
    from companion.night_at_the_table.status import answering, folder_of
    folder = folder_of(args.data_dir)
    try:
        if args.list or args.file is None:
            for path in kept(folder / FOLDER):
                held = check(path)
                print(f"{path}   {held['nights']} nights, {held['games']} games")
            return 0
        if answering(port_of(folder, None)):
            raise CannotStart("the display is running on this store: stop it first (sudo systemctl stop incanto), "
                              "restore, then start it again")
        held = check(args.file)
        before = restore(args.file, folder)
    except CannotStart as e:
        print(f"incanto restore: {e}", file=sys.stderr)
        return 2
    print(f"restored {args.file} ({held['nights']} nights, {held['games']} games) as {folder / data_dir.STORE}")
    if before is not None:
        print(f"the store it replaced is kept as {before}")
    return 0

"""The store: one SQLite file (WAL) holding every night, game and log entry.

Each entry is committed durably (``synchronous=FULL``) before the engine acknowledges it, so pulling
the Pi's plug loses nothing that a tablet was told about. A file that is not an Incanto store, is
damaged, or was written by another schema version is refused and never touched; a store in a folder
that is missing or read-only is refused naming the folder. A game and its setup entry are written in
one transaction; a game row without its setup entry (left by an earlier Incanto that refused a start
after writing the row) is dropped on opening, with a notice in ``Store.notices``.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any
from collections.abc import Iterator

from companion.engine.events import Event
from companion.errors import DamagedStoreError, SchemaVersionError, StoreError

SCHEMA_VERSION = 1

log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE nights (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, started_at REAL NOT NULL);
CREATE TABLE games (
    id INTEGER PRIMARY KEY, night_id INTEGER NOT NULL REFERENCES nights(id),
    game TEXT NOT NULL, started_at REAL NOT NULL);
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, kind TEXT NOT NULL,
    payload TEXT NOT NULL, action_id TEXT, at REAL NOT NULL,
    PRIMARY KEY (game_id, seq), UNIQUE (game_id, action_id));
"""

# The display's sessions, so a power cut costs no tablet a rejoin. Added beside schema version 1
# (IF NOT EXISTS): a store written before it gains the table on open, and nothing else changes.
# Only a hash of each token is kept: a copy of the file gives no one a session.
_SESSIONS = """
CREATE TABLE IF NOT EXISTS sessions (token_hash TEXT PRIMARY KEY, expires_at REAL NOT NULL);
"""


class Store:
    """One SQLite file. Safe to share between threads (one connection behind a lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self.notices: list[str] = []  # what was repaired on opening, for the table to be told
        _check_writable(self.path)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open store {str(self.path)!r}: {e}") from None
        if fresh:
            self._create()
        else:
            self._check()
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")  # each commit on disk before it returns
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SESSIONS)  # added after version 1: made on open
            self._repair()
        except sqlite3.OperationalError as e:
            self._db.close()
            raise StoreError(f"cannot write to store {str(self.path)!r}: {e}") from None

    def _create(self) -> None:
        self._db.executescript(f"""BEGIN; {_SCHEMA}
            INSERT INTO meta VALUES ('schema_version', '{SCHEMA_VERSION}'), ('app', 'incanto'); COMMIT;""")

    def _check(self) -> None:
        """Read-only checks, so a refused file is left exactly as it was."""
        where = repr(str(self.path))
        try:
            if self._db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise DamagedStoreError(f"store {where} is damaged (SQLite's quick_check failed); "
                                        "it was not modified — restore a backup or start a new store")
            has_meta = self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone()
            row = has_meta and self._db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        except sqlite3.OperationalError as e:  # locked, or a folder that cannot hold the journal: not damage
            self._db.close()
            raise StoreError(f"cannot read store {where}: {e}; it was not modified") from None
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise DamagedStoreError(f"{where} is not a readable Incanto store ({e}); it was not modified") from None
        if not row:
            self._db.close()
            raise DamagedStoreError(f"{where} has no schema version: not an Incanto store; it was not modified")
        if row[0] != str(SCHEMA_VERSION):
            self._db.close()
            raise SchemaVersionError(f"store {where} has schema version {row[0]!r}; this Incanto reads version "
                                     f"{SCHEMA_VERSION}. It was not modified.")

    def _repair(self) -> None:
        """Drop the rows of games that were never started (a game row with no setup entry, left by a
        start that an earlier Incanto refused after writing the row), so the night opens again."""
        with self._transaction():
            orphans = self._db.execute("SELECT id, game FROM games WHERE id NOT IN "
                                       "(SELECT game_id FROM events WHERE seq = 0)").fetchall()
            for game_id, game in orphans:
                self._db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
                self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
                self.notices.append(f"store {str(self.path)!r}: dropped game {game_id} ({game}), which was never "
                                    "started (it has no setup entry)")
                log.warning(self.notices[-1])

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One SQLite transaction: every write inside it is committed together, or none is.

        The connection runs in autocommit (``isolation_level=None``), where ``with connection`` opens
        no transaction at all and each INSERT commits on its own: so BEGIN and COMMIT are said here."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")  # a full disk may refuse the commit itself: rolled back too
            except BaseException:
                if self._db.in_transaction:
                    self._db.rollback()
                raise

    def db_mode(self) -> str:
        """SQLite's journal mode (``wal`` for an Incanto store)."""
        return str(self._query("PRAGMA journal_mode")[0][0])

    def sync_mode(self) -> str:
        """SQLite's ``synchronous`` setting as read back from the live connection (``full``: every
        commit is synced to disk before it returns)."""
        level = int(self._query("PRAGMA synchronous")[0][0])
        return {0: "off", 1: "normal", 2: "full", 3: "extra"}.get(level, str(level))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- nights and games ------------------------------------------------------------------

    def new_night(self, name: str) -> int:
        with self._transaction():
            return self._db.execute("INSERT INTO nights (name, started_at) VALUES (?, ?)",
                                    (name, time.time())).lastrowid or 0

    def latest_night(self) -> int | None:
        latest: int | None = self._query("SELECT max(id) FROM nights")[0][0]
        return latest

    def night(self, night_id: int) -> dict[str, Any]:
        rows = self._query("SELECT id, name, started_at FROM nights WHERE id = ?", night_id)
        if not rows:
            raise KeyError(f"no night {night_id!r} in the store")
        return {"id": rows[0][0], "name": rows[0][1], "started_at": rows[0][2]}

    def new_game(self, night_id: int, game: str, setup: Event) -> int:
        """A game and its setup entry, in one transaction: both are on disk, or neither."""
        with self._transaction():
            game_id = self._db.execute("INSERT INTO games (night_id, game, started_at) VALUES (?, ?, ?)",
                                       (night_id, game, time.time())).lastrowid or 0
            self._insert(game_id, setup)
            return game_id

    def games(self, night_id: int) -> list[dict[str, Any]]:
        rows = self._query("SELECT id, game, started_at FROM games WHERE night_id = ? ORDER BY id", night_id)
        return [{"id": r[0], "game": r[1], "started_at": r[2]} for r in rows]

    def log(self, game_id: int) -> StoredLog:
        return StoredLog(self, game_id)

    # -- entries ---------------------------------------------------------------------------

    def append(self, game_id: int, event: Event) -> None:
        """Commit one entry; when this returns it is on disk."""
        with self._transaction():
            self._insert(game_id, event)

    def _insert(self, game_id: int, event: Event) -> None:
        try:
            self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                             (game_id, event.seq, event.kind, json.dumps(event.payload), event.action_id, event.at))
        except sqlite3.IntegrityError as e:
            raise StoreError(f"entry {event.seq!r} of game {game_id!r} conflicts with the stored log: {e}") from None

    def events(self, game_id: int) -> list[Event]:
        rows = self._query("SELECT seq, kind, payload, action_id, at FROM events WHERE game_id = ? ORDER BY seq",
                           game_id)
        return [Event(seq, kind, json.loads(payload), action_id, at) for seq, kind, payload, action_id, at in rows]

    def find(self, game_id: int, action_id: str) -> Event | None:
        rows = self._query("SELECT seq, kind, payload, action_id, at FROM events WHERE game_id = ? AND action_id = ?",
                           game_id, action_id)
        return Event(rows[0][0], rows[0][1], json.loads(rows[0][2]), rows[0][3], rows[0][4]) if rows else None

    # -- the display's sessions and join code ----------------------------------------------

    def sessions(self) -> dict[str, float]:
        """Every kept session: token hash -> when it expires (seconds since the epoch)."""
        return {h: e for h, e in self._query("SELECT token_hash, expires_at FROM sessions")}

    def keep_session(self, token_hash: str, expires_at: float) -> None:
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO sessions VALUES (?, ?)", (token_hash, expires_at))

    def end_sessions(self, token_hashes: list[str] | None = None) -> None:
        """End the sessions named (every session when None)."""
        with self._transaction():
            if token_hashes is None:
                self._db.execute("DELETE FROM sessions")
            else:
                self._db.executemany("DELETE FROM sessions WHERE token_hash = ?", [(h,) for h in token_hashes])

    def meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key = ?", key)
        return str(rows[0][0]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        """A setting kept with the night (the display's join code); the schema keys are not settable."""
        if key in ("schema_version", "app"):
            raise ValueError(f"meta key {key!r} belongs to the store itself")
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def _query(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()


def _check_writable(path: Path) -> None:
    """Refuse, naming the folder, a store that could be read but never written (a game night writes
    every entry): SQLite would otherwise fail later with a message that blames the file."""
    folder = path.parent
    if not folder.is_dir():
        raise StoreError(f"cannot open store {str(path)!r}: the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(f"cannot write to store {str(path)!r}: the folder {str(folder)!r} is read-only "
                         "(SQLite keeps its journal beside the store)")
    if path.exists() and not path.is_file():
        raise StoreError(f"cannot open store {str(path)!r}: it is not a file")
    if path.exists() and not os.access(path, os.R_OK):
        raise StoreError(f"cannot read store {str(path)!r}: permission denied")
    if path.exists() and not os.access(path, os.W_OK):
        raise StoreError(f"cannot write to store {str(path)!r}: the file is read-only")


class StoredLog:
    """A game's log in the store: the engine's ``EventLog`` on disk."""

    def __init__(self, store: Store, game_id: int) -> None:
        self.store, self.game_id = store, game_id

    def events(self) -> list[Event]:
        return self.store.events(self.game_id)

    def append(self, event: Event) -> None:
        self.store.append(self.game_id, event)

    def find(self, action_id: str) -> Event | None:
        return self.store.find(self.game_id, action_id)

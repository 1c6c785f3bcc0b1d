"""A night as one JSON file: ``incanto export-night FILE`` on one Pi, ``incanto import-night FILE`` on
another. The file holds the night's name and every game's log exactly as stored (each entry with its
time), so the other Pi replays every game to the same state and the same standings.

    {"incanto_night": 1, "name": "Friday", "started_at": 1764711000.0,
     "games": [{"game": "incantibus", "started_at": ..., "entries": [{"seq": 0, "kind": "setup", ...}, ...]}]}

An import is checked whole first (each game is replayed by its rules in memory), then written in one
transaction as a new night, the latest, so the display resumes it.
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

from companion import games
from companion.engine.events import Event
from companion.engine.game import Game
from companion.engine.log import MemoryLog
from companion.errors import IncantoError
from companion.night_at_the_table import CannotStart, data_dir
from companion.store import Store

FORMAT = 1
KINDS = ("setup", "action", "undo", "redo")


def export_night(store: Store, night_id: int | None = None) -> dict[str, Any]:
    night_id = night_id if night_id is not None else store.latest_night()
    if night_id is None:
        raise CannotStart(f"no night in {str(store.path)!r} to export")
    try:
        row = store.night(night_id)
    except KeyError:
        raise CannotStart(f"no night {night_id!r} in {str(store.path)!r}") from None
    return {"incanto_night": FORMAT, "name": row["name"], "started_at": row["started_at"],
            "games": [{"game": g["game"], "started_at": g["started_at"],
                       "entries": [_entry(e) for e in store.events(g["id"])]} for g in store.games(night_id)]}


def read(path: Path) -> dict[str, Any]:
    """The night in ``path``, every game replayed by its rules: CannotStart naming the first problem."""
    try:
        night = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CannotStart(f"cannot read the night {str(path)!r}: {e}") from None
    if not isinstance(night, dict) or night.get("incanto_night") != FORMAT:
        raise CannotStart(f"{str(path)!r} is not a night exported by Incanto (incanto export-night)")
    if not isinstance(night.get("name"), str) or not isinstance(night.get("games"), list):
        raise CannotStart(f"{str(path)!r}: a night needs a 'name' and a list of 'games'")
    for number, game in enumerate(night["games"], 1):
        replay(game, f"{str(path)!r}, game {number}")
    return night


def replay(game: Any, where: str) -> Game:
    """The game rebuilt from its entries by its own rules (refusing one they do not accept)."""
    if not isinstance(game, dict) or not isinstance(game.get("entries"), list) or not isinstance(game.get("started_at"), (int, float)):
        raise CannotStart(f"{where}: a game needs 'game', 'started_at' and a list of 'entries'")
    try:
        rules = games.get(str(game.get("game")))
        log = MemoryLog()
        for entry in game["entries"]:
            log.append(_event(entry, where))
        return Game(rules, log)
    except (IncantoError, ValueError, TypeError, KeyError) as e:
        raise CannotStart(f"{where} ({game.get('game')!r}) cannot be replayed: {e}") from None


def import_night(night: dict[str, Any], store_path: Path) -> int:
    """``night`` (as ``read`` returns it) as a new night in the store at ``store_path``, in one
    transaction; returns its id. The store is made if it is new."""
    with Store(store_path):
        pass  # made, or checked and repaired, by the store itself
    db = sqlite3.connect(store_path, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        night_id = db.execute("INSERT INTO nights (name, started_at) VALUES (?, ?)",
                              (night["name"], night.get("started_at") or 0.0)).lastrowid
        for game in night["games"]:
            game_id = db.execute("INSERT INTO games (night_id, game, started_at) VALUES (?, ?, ?)",
                                 (night_id, game["game"], game["started_at"])).lastrowid
            db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                           [(game_id, e["seq"], e["kind"], json.dumps(e["payload"]), e.get("action_id"), e.get("at", 0.0))
                            for e in game["entries"]])
        db.execute("COMMIT")
    except sqlite3.Error as e:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise CannotStart(f"cannot write the night into {str(store_path)!r}: {e}") from None
    finally:
        db.close()
    return int(night_id or 0)


def _entry(event: Event) -> dict[str, Any]:
    return {"seq": event.seq, "kind": event.kind, "payload": event.payload, "action_id": event.action_id, "at": event.at}


def _event(entry: Any, where: str) -> Event:
    if not isinstance(entry, dict) or entry.get("kind") not in KINDS or not isinstance(entry.get("seq"), int) \
            or not isinstance(entry.get("payload"), dict):
        raise CannotStart(f"{where}: {json.dumps(entry)[:80]} is not a game entry (seq, kind, payload)")
    return Event(entry["seq"], entry["kind"], entry["payload"], entry.get("action_id"), float(entry.get("at") or 0.0))


def export_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="incanto export-night", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path, help="the JSON file to write")
    parser.add_argument("--night", type=int, help="which night (default: the latest)")
    parser.add_argument("--data-dir", type=Path, help="the night's data directory (default: as incanto status finds it)")
    args = parser.parse_args(argv)
    from companion.night_at_the_table.status import folder_of
    store_path = folder_of(args.data_dir) / data_dir.STORE
    try:
        if not store_path.exists():
            raise CannotStart(f"no store at {str(store_path)!r} to export from")
        with Store(store_path) as store:
            night = export_night(store, args.night)
        args.file.write_text(json.dumps(night, indent=1))
    except (CannotStart, OSError) as e:
        print(f"incanto export-night: {e}", file=sys.stderr)
        return 2
    print(f"wrote night {night['name']!r} ({len(night['games'])} games) to {args.file}")
    return 0


def import_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="incanto import-night", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path, help="a night written by incanto export-night")
    parser.add_argument("--data-dir", type=Path, help="the night's data directory (default: as incanto status finds it)")
    args = parser.parse_args(argv)
    from companion.night_at_the_table.status import folder_of
    folder = folder_of(args.data_dir)
    try:
        night = read(args.file)
        folder.mkdir(parents=True, exist_ok=True)
        night_id = import_night(night, folder / data_dir.STORE)
    except (CannotStart, OSError) as e:
        print(f"incanto import-night: {e}", file=sys.stderr)
        return 2
    print(f"imported night {night['name']!r} ({len(night['games'])} games) as night {night_id}: "
          "the display resumes it at its next start")
    return 0

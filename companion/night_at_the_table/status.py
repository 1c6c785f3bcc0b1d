"""``incanto status``: the join code and where to join, for a Pi with no screen (and anyone at a
terminal), read from the night's store without disturbing the running service.

    join code  246810
    join at    http://incanto.local:8000/join?code=246810   (or http://192.168.1.23:8000/join?code=246810)
    display    answering at http://localhost:8000/
    night      'Friday' (night 3): 2 games
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from companion.night_at_the_table import CannotStart, data_dir
from companion.night_at_the_table.address import JoinAddress, join_address
from companion.night_at_the_table.kiosk import port_of

SERVICE_DIR = Path("/var/lib/incanto")


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="incanto status", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, help=f"the night's data directory (default: yours when it holds a "
                                                      f"night, else the service's, {SERVICE_DIR})")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    return parser.parse_args(argv)


def folder_of(given: Path | None) -> Path:
    if given is not None:
        return given
    mine = data_dir.default()
    return mine if (mine / data_dir.STORE).exists() or not (SERVICE_DIR / data_dir.STORE).exists() else SERVICE_DIR


def read_store(path: Path) -> dict[str, Any]:
    """The join code and the latest night, read-only (the service keeps writing it meanwhile)."""
    if not path.exists():
        raise CannotStart(f"no night has been kept at {str(path)!r} yet (start one: incanto serve, or the service)")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            code = db.execute("SELECT value FROM meta WHERE key = 'join_code'").fetchone()
            night = db.execute("SELECT id, name FROM nights ORDER BY id DESC LIMIT 1").fetchone()
            games = db.execute("SELECT count(*) FROM games WHERE night_id = ?", (night[0],)).fetchone()[0] if night else 0
        finally:
            db.close()
    except sqlite3.Error as e:
        raise CannotStart(f"cannot read the store {str(path)!r}: {e}") from None
    return {"join_code": code[0] if code else None, "night": {"id": night[0], "name": night[1], "games": games} if night else None}


def answering(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://localhost:{port}/api/night", timeout=2) as answer:
            return bool(answer.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def status(folder: Path, where: JoinAddress | None = None) -> dict[str, Any]:
    port = port_of(folder, None)
    found = read_store(folder / data_dir.STORE)
    where = where or join_address()
    code = found["join_code"]
    path = f"/join?code={code}" if code else "/join"
    return {**found, "join_url": where.url(port, path), "lan_url": where.lan_url(port, path), "on_no_network": where.alone,
            "display": f"http://localhost:{port}/", "answering": answering(port), "data_dir": str(folder)}


def lines(shown: dict[str, Any]) -> list[str]:
    also = f"   (or {shown['lan_url']})" if shown["lan_url"] != shown["join_url"] else ""
    night = shown["night"]
    kept = f"{night['name']!r} (night {night['id']}): {night['games']} games" if night else "none yet"
    return [f"join code  {shown['join_code'] or 'none yet (the display makes one when it first starts)'}",
            f"join at    {shown['join_url']}{also}",
            *(["           the Pi is on no network: connect it to the table's Wi-Fi"] if shown["on_no_network"] else []),
            f"display    {'answering at ' + shown['display'] if shown['answering'] else 'not answering (systemctl status incanto)'}",
            f"night      {kept}"]


def main(argv: list[str]) -> int:
    args = parse(argv)
    try:
        shown = status(folder_of(args.data_dir))
    except CannotStart as e:
        print(f"incanto status: {e}", file=sys.stderr)
        return 2
    print(json.dumps(shown) if args.json else "\n".join(lines(shown)))
    return 0

"""`python -m companion replay FILE [--json] [--store FILE]`: play a game script, print the result.

A script is JSON lines (see docs/replay.md): the first line sets the game up, every other line is
an action proposed to the engine, exactly as a camera, a button or a tablet would propose it.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any
from collections.abc import Iterator

from companion.engine.game import Game
from companion.errors import IncantoError
from companion.night import Night
from companion.store import Store


class ScriptError(ValueError):
    """A line of a game script that cannot be played; names the file and line."""


def read_script(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as e:
            raise ScriptError(f"{path}:{number}: not JSON ({e.msg}): {line[:80]!r}") from None
        if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
            raise ScriptError(f"{path}:{number}: each line is an object with a 'type', not {line[:80]!r}")
        yield number, entry


def play(path: Path, store: Store) -> Game:
    """Play the script at ``path`` into a new game of ``store``; raises ScriptError at the bad line."""
    entries = read_script(path)
    try:
        number, setup = next(entries)
    except StopIteration:
        raise ScriptError(f"{path}: the script is empty") from None
    if setup["type"] != "setup":
        raise ScriptError(f"{path}:{number}: the first line must be the setup, not {setup['type']!r}")
    night = Night.resume_or_start(store, "Replay")
    try:
        game = night.start_game(setup.get("game", ""), setup.get("players", []), setup.get("options"),
                                setup.get("seed", 0))
    except (IncantoError, KeyError) as e:
        raise ScriptError(f"{path}:{number}: {e}") from None
    for number, action in entries:
        try:
            game.propose(action)
        except IncantoError as e:
            raise ScriptError(f"{path}:{number}: {e}") from None
    return game


def summary(view: dict[str, Any]) -> str:
    """The public state as a person reads it: players, wands, satchels, scores, moat, room, phase."""
    lines = [f"{view.get('game', '?')} — phase {view.get('phase', '?')}, version {view.get('version')}"]
    scores = view.get("scores", {})
    wands = view.get("wands", {})
    for player in view.get("players", []):
        name = player["name"] if isinstance(player, dict) else player
        lines.append(f"  {name:<10} wand {wands.get(name, '-')}  {scores.get(name, 0):>3} points")
        satchel = player.get("satchel") if isinstance(player, dict) else None
        if satchel:
            lines.append(f"             satchel {json.dumps(satchel, ensure_ascii=False)}")
    for key in ("room", "moat"):
        if key in view:
            lines.append(f"  {key}: {json.dumps(view[key], ensure_ascii=False)}")
    if view.get("winner"):
        lines.append(f"  winner: {view['winner']}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion replay", description=__doc__)
    parser.add_argument("script", type=Path)
    parser.add_argument("--json", action="store_true", help="print the final public state as JSON")
    parser.add_argument("--store", type=Path, help="SQLite store to write the game to (default: a temporary one)")
    args = parser.parse_args(argv)
    if not args.script.is_file():
        print(f"no game script at {str(args.script)!r}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        with Store(args.store or Path(tmp) / "replay.sqlite") as store:
            try:
                game = play(args.script, store)
            except ScriptError as e:
                print(f"replay stopped: {e}", file=sys.stderr)
                return 1
            view = game.view()
    print(json.dumps(view, indent=2, ensure_ascii=False) if args.json else summary(view))
    return 0

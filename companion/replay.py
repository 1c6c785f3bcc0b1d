"""`python -m companion replay FILE [--json] [--store FILE]`: play a game script, print the result.

A script is JSON lines (see docs/replay.md): the first line sets the game up, every other line is
an action proposed to the engine, exactly as a camera, a button or a tablet would propose it. A line
the engine refuses stops the replay (exit status 1) and the state where it stopped is printed with
the refusal; a file that is not a playable script is named in one line (exit status 2).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.engine.game import Game
from companion.errors import IllegalAction, IncantoError
from companion.night import Night
from companion.store import Store

SETUP_KEYS = ("type", "game", "players", "options", "seed", "position")


class ScriptError(IncantoError, ValueError):
    """A script that cannot be played at all; names the file and, where there is one, the line."""


@dataclass(frozen=True)
class Refusal:
    """The line the engine refused, and why: where the replay stopped."""

    line: int
    error: IncantoError

    def as_dict(self) -> dict[str, Any]:
        problems = self.error.problems if isinstance(self.error, IllegalAction) else []
        return {"line": self.line, "error": type(self.error).__name__, "message": str(self.error),
                "problems": [p.as_dict() for p in problems]}


def read_script(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in enumerate(_text(path).splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        yield number, _entry(path, number, line)


def _text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ScriptError(f"{path}: cannot read the script ({e.strerror})") from None
    if (nul := data.find(b"\0")) >= 0:
        raise ScriptError(f"{path}: not a game script: it holds binary data (a NUL byte at byte {nul})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScriptError(f"{path}: not a game script: byte {e.start} is not UTF-8 text") from None


def _entry(path: Path, number: int, line: str) -> dict[str, Any]:
    try:
        entry = json.loads(line)
    except json.JSONDecodeError as e:
        raise ScriptError(f"{path}:{number}: not JSON ({e.msg}): {line[:80]!r}") from None
    except RecursionError:
        raise ScriptError(f"{path}:{number}: nested too deep to be a line of a game script") from None
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        raise ScriptError(f"{path}:{number}: each line is an object with a 'type', not {line[:80]!r}")
    return entry


def play(path: Path, store: Store) -> tuple[Game, Refusal | None]:
    """Play the script at ``path`` into a new game of ``store``, up to the first line the engine
    refuses. Raises ScriptError when the script cannot be played at all (its file, its setup line)."""
    entries = read_script(path)
    game = _start(path, store, next(entries, None))
    for number, action in entries:
        try:
            game.propose(action)
        except IncantoError as e:
            return game, Refusal(number, e)
    return game, None


def _start(path: Path, store: Store, first: tuple[int, dict[str, Any]] | None) -> Game:
    if first is None:
        raise ScriptError(f"{path}: the script is empty")
    number, setup = first
    if setup["type"] != "setup":
        raise ScriptError(f"{path}:{number}: the first line must be the setup, not {setup['type'][:40]!r}")
    unknown = [key for key in setup if key not in SETUP_KEYS]
    if unknown:
        raise ScriptError(f"{path}:{number}: setup key {unknown[0][:40]!r} is unknown; keys are {', '.join(SETUP_KEYS)}")
    night = Night.resume_or_start(store, "Replay")
    try:
        return night.start_game(setup.get("game", ""), setup.get("players", []), setup.get("options"),
                                setup.get("seed", 0), setup.get("position"))
    except (IncantoError, ValueError) as e:
        raise ScriptError(f"{path}:{number}: {e}") from None


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


def refusal_lines(refusal: Refusal) -> str:
    """Where the replay stopped, for a person: the line, then each problem on its own line."""
    problems = refusal.as_dict()["problems"]
    lines = [f"stopped at line {refusal.line}: refused ({refusal.as_dict()['error']})"]
    lines += [f"  - {p['player'] + ': ' if p['player'] else ''}{p['message']} [rule: {p['rule']}]" for p in problems]
    return "\n".join(lines if problems else [*lines, f"  - {refusal.error}"])


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
            for notice in store.notices:
                print(f"notice: {notice}", file=sys.stderr)
            game, refusal = play(args.script, store)
            view = game.view()
    if refusal is not None:
        print(f"replay stopped: {args.script}:{refusal.line}: {refusal.error}", file=sys.stderr)
    if args.json:
        print(json.dumps({**view, "refused": refusal.as_dict()} if refusal else view, indent=2, ensure_ascii=False))
    else:
        print(summary(view) + (f"\n{refusal_lines(refusal)}" if refusal else ""))
    return 1 if refusal else 0

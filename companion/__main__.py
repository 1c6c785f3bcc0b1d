"""`python -m companion COMMAND`: the companion's command line.

    games                          the games Incanto knows
    replay FILE [--json]           play a game script and print the final public state
    demo [...]                     a simulated table on the tablets (no hardware): bots play any of the five games
    serve [--data-dir DIR] [...]   the display for a real table, its state in one data directory
    status [--data-dir DIR]        the join code and where to join (for a Pi with no screen)
    install [--root DIR]           the Pi boots into a table: the service, and the kiosk with a screen
    kiosk                          the board full screen on the Pi's own screen (started by the desktop)
    restore FILE | --list          put a backup of the store back (one is made after every game)
    export-night FILE              the latest night as one JSON file, for another Pi
    import-night FILE              a night from export-night, as this Pi's latest night
    bench engine|inputs|display|faults|table  benchmarks that print one JSON object with --json
"""
from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

from companion.errors import IncantoError

# Subcommands whose code lives elsewhere, imported only when asked for (the web stack and the
# serial stack need not load to list games or replay a script).
DELEGATES: dict[str, str] = {
    "demo": "companion.night_at_the_table.demo",
    "serve": "companion.night_at_the_table.serve",
    "status": "companion.night_at_the_table.status",
    "install": "companion.night_at_the_table.install",
    "kiosk": "companion.night_at_the_table.kiosk",
    "restore": "companion.night_at_the_table.backups",
    "export-night": "companion.night_at_the_table.night_file:export_main",
    "import-night": "companion.night_at_the_table.night_file:import_main",
    "bench engine": "companion.bench_engine",
    "bench inputs": "companion.inputs.bench",
    "bench display": "companion.web.bench",
    "bench faults": "companion.bench_faults",
    "bench table": "companion.night_at_the_table.night_bench",
}


def main(argv: list[str] | None = None) -> int:
    """Run one command; an error Incanto can name (bad input, a store it cannot use, a file it cannot
    read) is one line on stderr and exit status 2, never a traceback."""
    try:
        return _command(list(sys.argv[1:] if argv is None else argv))
    except (IncantoError, OSError, ValueError) as e:
        print(f"incanto: {e}", file=sys.stderr)
        return 2


def _command(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "bench":
        if not rest or f"bench {rest[0]}" not in DELEGATES:
            print(f"bench what? one of: engine, inputs, display, faults, table (got {rest[:1]!r})", file=sys.stderr)
            return 2
        return _delegate(DELEGATES[f"bench {rest[0]}"], rest[1:])
    if command == "demo" and "--terminal" in rest:
        from companion import demo
        return demo.main([a for a in rest if a != "--terminal"])
    if command in DELEGATES:
        return _delegate(DELEGATES[command], rest)
    if command == "games":
        return _games()
    if command == "replay":
        from companion import replay
        return replay.main(rest)
    print(f"unknown command {command!r}\n{__doc__}", file=sys.stderr)
    return 2


def _delegate(module: str, argv: list[str]) -> int:
    module, _, name = module.partition(":")  # "module:function" when the entry is not main
    entry: Callable[[list[str]], int] = getattr(importlib.import_module(module), name or "main")
    return entry(argv)


def _games() -> int:
    from companion import games
    for name in games.names():
        rules = games.get(name)
        counts = ", ".join(str(n) for n in rules.player_counts)
        print(f"{name:<14} {rules.title} ({counts} players)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

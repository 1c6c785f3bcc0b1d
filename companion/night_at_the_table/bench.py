"""``python -m companion.tableside bench [--castings N] [--json]``: castings on the simulated table.

A real Incantibus night in a temporary store; for each casting the bots choose targets, the rendered
players point at them, the cue is given and the table side reads it through the real pipeline. Prints
how long a reading took from the cue to the proposal or question, how many castings were read sure,
and how many of those matched what the players meant (a wrong one would be a guess: it must be 0).
"""
from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.cue import Cue
from companion.figures import print_figures
from companion.night import Night
from companion.night_at_the_table.rendered import RenderedTable
from companion.status import StatusBoard
from companion.store import Store
from companion.tableside import TableSide, TableSideConfig
from companion.tableside.places import standard_places
from companion.web.table import Table

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]


def measure(castings: int, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="incanto-bench-") as folder, Store(Path(folder) / "b.sqlite") as store:
        night = Night.resume_or_start(store, "Bench night")
        night.start_game("incantibus", PLAYERS, seed=seed)
        status = StatusBoard()
        table = Table(night, status)
        view = table.view()
        rendered = RenderedTable(standard_places(), PLAYERS, view["wands"], seed=seed)
        config = TableSideConfig(hub="none", camera="render", mic=False,
                                 calibration=rendered.save_calibration(Path(folder) / "calibration.json"))
        with TableSide(table, status, config, opener=lambda: rendered) as side:
            while not side.camera.sees:
                time.sleep(0.05)
            return _figures([_one(table, side, rendered, rng) for _ in range(castings)])


def _one(table: Table, side: TableSide, rendered: RenderedTable, rng: random.Random) -> dict[str, Any]:
    action = _next_cast(table, rng)
    view = table.view()
    rendered.lay_out(list(view["legal"]["tokens"]))
    rendered.hold(view["wands"])
    start = rendered.point({view["wands"][p]: t for p, t in action["targets"].items()})
    reading = side.reader.read(Cue("bench", start))
    took = time.monotonic() - start
    if reading.outcome == "asked":
        table.questions.withdraw_all()
        table.propose(action, None, None)  # the table answers; the night goes on
    meant = reading.action is not None and reading.action["targets"] == action["targets"]
    return {"outcome": reading.outcome, "seconds": took, "right": meant}


def _next_cast(table: Table, rng: random.Random) -> dict[str, Any]:
    """Play on until the rules ask for a casting (starting a new game when one ends)."""
    while True:
        game = table.game
        action = game.rules.random_action(game.state, rng)
        if action is None:
            table.start_game("incantibus", PLAYERS, seed=rng.randrange(2**31))
        elif action["type"] == "cast":
            return action
        else:
            table.propose(action, None, None)


def _figures(runs: list[dict[str, Any]]) -> dict[str, Any]:
    seconds = sorted(r["seconds"] for r in runs)
    sure = [r for r in runs if r["outcome"] == "cast"]
    return {"castings": len(runs), "read_s_median": round(statistics.median(seconds), 3),
            "read_s_max": round(seconds[-1], 3), "sure": len(sure), "asked": sum(r["outcome"] == "asked" for r in runs),
            "sure_and_right": sum(r["right"] for r in sure), "sure_and_wrong": sum(not r["right"] for r in sure),
            "other": sorted({r["outcome"] for r in runs} - {"cast", "asked"})}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.tableside bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--castings", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    figures = measure(args.castings, args.seed)
    print_figures(figures, args.json)
    return 0

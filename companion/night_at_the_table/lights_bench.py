"""``python -m companion.tableside lights [--castings N] [--json]``: what lighting the wands costs.

A watched casting (the wands' LEDs follow it) reads every wand on every frame, where an unwatched one
reads them once, when all are still. This draws castings on the simulated table (the rendered camera,
four players, the real pipeline, no hand tracker), then reads the same frames both ways and prints the
time per frame spent deciding (finding the wands in a frame costs the same either way and is left
out), the time from the cue to the close, and how many wands each way read at the token meant.
Frames are drawn first, on a clock of their own, so drawing is not measured.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from calibration.status import require_table
from companion.night_at_the_table.rendered import RenderedTable
from companion.tableside.lights import WandLights
from companion.tableside.places import standard_places
from vision.config import load_config
from vision.decide import TARGET, Casting, CastingResult
from vision.frames import Frame
from vision.pipeline import Pipeline, read_casting
from vision.paints import documented_paints

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]
ROOM = [f"r{n}" for n in range(7)]
BEFORE_S = 0.5  # frames of the table before the cue


class Frames:
    """Frames drawn once, read again as often as wanted (a ``vision.frames.FrameSource``)."""

    def __init__(self, frames: list[Frame]) -> None:
        self.frames, self.index = frames, 0

    def read(self) -> Frame | None:
        if self.index >= len(self.frames):
            return None
        self.index += 1
        return self.frames[self.index - 1]

    def close(self) -> None:
        """Nothing to release."""


def _draw(rng: random.Random, seed: int, folder: Path) -> tuple[list[Frame], float, dict[int, str], Path]:
    clock = [0.0]
    table = RenderedTable(standard_places(), PLAYERS, {p: i + 1 for i, p in enumerate(PLAYERS)}, seed=seed,
                          clock=lambda: clock[0], sleep=lambda s: clock.__setitem__(0, clock[0] + s))
    table.lay_out(ROOM)
    frames = [table.read() for _ in range(int(BEFORE_S * 30))]
    targets = {k: rng.choice(ROOM) for k in range(1, len(PLAYERS) + 1)}
    cue = table.point(targets)
    frames += [table.read() for _ in range(6 * 30)]
    path = table.save_calibration(folder / f"calibration-{seed}.json")
    return [f for f in frames if f is not None], cue, targets, path


def _read(path: Path, frames: list[Frame], cue: float, watched: bool) -> tuple[CastingResult | None, float, int]:
    """The casting read from ``frames``; the seconds spent deciding (the casting's ``observe``: finding
    the wands in each frame costs the same either way and is left out), and the frames decided on."""
    pipeline = Pipeline(require_table(path), load_config(), None, paints=documented_paints())
    make_casting = pipeline.casting
    spent: list[float] = []

    def timed_casting(*args: Any, **kwargs: Any) -> Casting:
        casting = make_casting(*args, **kwargs)
        observe = casting.observe

        def timed_observe(*a: Any, **kw: Any) -> CastingResult | None:
            start = time.perf_counter()
            try:
                return observe(*a, **kw)
            finally:
                spent.append(time.perf_counter() - start)

        casting.observe = timed_observe  # type: ignore[method-assign]
        return casting

    pipeline.casting = timed_casting  # type: ignore[method-assign]
    wands = list(range(1, len(PLAYERS) + 1))
    watch = WandLights(lambda wand, mode: None, lambda: 1).began(wands) if watched else None
    result = read_casting(pipeline, Frames(frames), cue, wands, standard_places().candidates(ROOM), tips=None,
                          watch=watch)
    return result, sum(spent), len(spent)


def measure(castings: int, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    rows = []
    with tempfile.TemporaryDirectory(prefix="incanto-lights-") as folder:
        for n in range(castings):
            frames, cue, targets, path = _draw(rng, seed + n, Path(folder))
            plain, plain_s, plain_n = _read(path, frames, cue, watched=False)
            watched, watched_s, watched_n = _read(path, frames, cue, watched=True)
            rows.append({"plain_deciding_ms": 1000 * plain_s / max(plain_n, 1),
                         "watched_deciding_ms": 1000 * watched_s / max(watched_n, 1),
                         "plain_close_s": None if plain is None else plain.decided_at - cue,
                         "watched_close_s": None if watched is None else watched.decided_at - cue,
                         "plain_read": _right(plain, targets), "watched_read": _right(watched, targets)})
    return _figures(rows)


def _right(result: CastingResult | None, targets: dict[int, str]) -> int:
    if result is None:
        return 0
    return sum(r.status == TARGET and r.target == targets[k] for k, r in result.wands.items())


def _figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def median(key: str) -> float | None:
        values = [r[key] for r in rows if r[key] is not None]
        return round(statistics.median(values), 3) if values else None

    return {"castings": len(rows), "wands": len(rows) * len(PLAYERS),
            "deciding_ms_per_frame_plain_p50": median("plain_deciding_ms"),
            "deciding_ms_per_frame_watched_p50": median("watched_deciding_ms"),
            "cue_to_close_s_plain_p50": median("plain_close_s"),
            "cue_to_close_s_watched_p50": median("watched_close_s"),
            "wands_read_right_plain": sum(r["plain_read"] for r in rows),
            "wands_read_right_watched": sum(r["watched_read"] for r in rows)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.tableside lights", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--castings", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    if args.castings < 1:
        print(f"--castings must be at least 1, not {args.castings}", file=sys.stderr)
        return 2
    figures = measure(args.castings, args.seed)
    print(json.dumps(figures) if args.json else "\n".join(f"{k}: {v}" for k, v in figures.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

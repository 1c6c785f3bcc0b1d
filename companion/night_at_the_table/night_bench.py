"""``python -m companion bench table [--castings N] [--json]``: a simulated night on this machine, as a
Raspberry Pi would run it, timed from the cue to the result on every tablet.

The parts are the ones a real night runs: the rendered table as the camera, read by the real vision
pipeline; the simulated wand hub (the hub's own firmware) behind a socat pty, whose cue button is
pressed before each casting; the display on a real uvicorn; and 4 tablets connected to its push
stream, in a second process (tablets are other devices: their work is not the Pi's). For each casting
the bots choose targets, the rendered players point, the cue is pressed, and the clock runs until
every tablet has the result: the casting's event, or the camera's question when it was unsure (then
the bench answers it as the table would, and the game goes on).

Prints ``cue_to_display_ms_p95`` (and p50, max), ``cpu_percent`` (of one core, of this whole process
over the run), ``peak_rss_mb``, the share of the CPU spent drawing the simulated camera's pictures
(a real camera draws nothing), and what the figures imply for a Raspberry Pi 4.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import statistics
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from companion.figures import print_figures
from companion.night_at_the_table import display
from companion.night_at_the_table.bench import _next_cast
from companion.night_at_the_table.demo import PLAYERS, simulated_hub, simulated_table_side
from companion.night_at_the_table.rendered import RenderedTable
from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.tableside import TableSide
from companion.tableside.places import standard_places
from companion.web.serve import running
from companion.web.settings import Settings

TABLETS = 4
PI4_SLOWER = 3.5  # a Pi 4 core (Cortex-A72, 1.5-1.8 GHz) against one core here: roughly 3-4x slower, the middle taken
PI4_CORES, PI4_MEMORY_MB = 4, 2048  # the smaller Pi 4 a group would buy
READING_WAIT_S = 10.0


# -- the tablets, in their own process ------------------------------------------------------------

def _tablets(url: str, count: int, conn: Connection) -> None:
    """``count`` tablets on the push stream; each message's arrival time and what it shows, sent back at the end."""
    import asyncio

    import websockets

    async def tablet(arrivals: list[tuple[float, str, Any]]) -> None:
        async with websockets.connect(url.replace("http://", "ws://") + "/api/stream", max_size=2**22) as ws:
            async for text in ws:
                arrived = time.time()
                message = json.loads(text)
                if message.get("type") == "event":
                    arrivals.append((arrived, "cast", ((message.get("game") or {}).get("last_cast") or {}).get("casting")))
                elif message.get("type") == "questions":
                    arrivals.append((arrived, "asked", [q.get("id") for q in message.get("questions") or []]))

    async def every() -> list[list[tuple[float, str, Any]]]:
        arrivals: list[list[tuple[float, str, Any]]] = [[] for _ in range(count)]
        tasks = [asyncio.create_task(tablet(a)) for a in arrivals]
        conn.send("connected")
        while not conn.poll():
            await asyncio.sleep(0.1)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return arrivals

    conn.send(asyncio.run(every()))


# -- the table -----------------------------------------------------------------------------------

class CameraClock:
    """CPU time the camera thread spends drawing the rendered table (a real camera's frames cost nothing to draw)."""

    def __init__(self, rendered: RenderedTable) -> None:
        self.seconds = 0.0
        draw = rendered._picture

        def timed(now: float) -> Any:
            start = time.thread_time()
            try:
                return draw(now)
            finally:
                self.seconds += time.thread_time() - start

        rendered._picture = timed  # type: ignore[method-assign]


def _cast(night_side: tuple[Any, TableSide, RenderedTable, Any], rng: random.Random) -> dict[str, Any]:
    """One casting from the cue; returns when the table has moved on, with what every tablet should show."""
    table, side, rendered, sim = night_side
    action = _next_cast(table, rng)
    view = table.view()
    rendered.lay_out(list(view["legal"]["tokens"]))
    rendered.hold(view["wands"])
    reader, before = side.reader, side.reader.count
    rendered.point({view["wands"][p]: t for p, t in action["targets"].items()})
    cued = time.time()
    sim.cue()
    deadline = time.monotonic() + READING_WAIT_S
    with reader.finished:
        while reader.count == before and time.monotonic() < deadline:
            reader.finished.wait(0.2)
        reading = reader.last if reader.count > before else None
    read_at = time.time()
    outcome = reading.outcome if reading is not None else "none"
    shown: dict[str, Any] = {"cued": cued, "read_ms": (read_at - cued) * 1000, "outcome": outcome}
    if outcome == "cast":
        shown["casting"] = table.view()["last_cast"]["casting"]
    elif outcome == "asked" and reading is not None and reading.question_id:
        shown["question"] = reading.question_id
        question = table.questions.get(reading.question_id)
        table.answer(reading.question_id, {p: action["targets"][p] for p in question.unsure}, None)
    else:  # not read: entered on a tablet, as the table would
        table.propose(action, None, None)
    rendered.hold(table.view()["wands"])  # the wands change hands after a contest
    return shown


def _shown_after(castings: list[dict[str, Any]], tablets: list[list[tuple[float, str, Any]]]) -> list[float]:
    """Per casting read by the camera: ms from the cue until the LAST tablet showed its result."""
    delays = []
    for c in castings:
        if "casting" in c:
            match = [min((t for t, kind, what in arr if kind == "cast" and what == c["casting"] and t >= c["cued"]), default=None)
                     for arr in tablets]
        elif "question" in c:
            match = [min((t for t, kind, what in arr if kind == "asked" and c["question"] in what and t >= c["cued"]), default=None)
                     for arr in tablets]
        else:
            continue
        if all(m is not None for m in match):
            delays.append((max(m for m in match if m is not None) - c["cued"]) * 1000)
    return delays


def measure(castings: int, seed: int = 1, pace_s: float = 1.0) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="incanto-bench-table-") as tmp, \
            Store(Path(tmp) / "night.sqlite") as store, simulated_hub(Path(tmp)) as (port, sim):
        if sim is None:
            raise SystemExit("bench table needs socat for the hub's pty (Debian package 'socat': make system-deps)")
        night = Night.resume_or_start(store, "Bench night")
        night.start_game("incantibus", PLAYERS, seed=seed)
        status = StatusBoard()
        app = display(night, status, Settings(join_code="424242"))
        side, rendered = simulated_table_side(app, status, Path(tmp), port, "render", standard_places())
        assert rendered is not None
        camera = CameraClock(rendered)
        with running(app) as url, side:
            while not side.camera.sees or not _hub_ready(status):
                time.sleep(0.05)
            here, there = multiprocessing.Pipe()
            tablets = multiprocessing.get_context("spawn").Process(target=_tablets, args=(url, TABLETS, there), daemon=True)
            tablets.start()
            here.recv()
            while len(app.state.hub.clients) < TABLETS:
                time.sleep(0.05)
            start_cpu, start_wall, start_camera = _cpu_s(), time.monotonic(), camera.seconds
            done = []
            for _ in range(castings):
                done.append(_cast((app.state.table, side, rendered, sim), rng))
                time.sleep(pace_s)  # the players look at the result, then the next casting
            cpu_s, wall_s, camera_s = _cpu_s() - start_cpu, time.monotonic() - start_wall, camera.seconds - start_camera
            here.send("stop")
            arrivals = here.recv()
            tablets.join(timeout=10)
    return _figures(done, arrivals, cpu_s, wall_s, camera_s, pace_s)


def _hub_ready(status: StatusBoard) -> bool:
    return any(d["device"] == "hub" and d["level"] == "ok" for d in status.snapshot())


def _cpu_s() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def _figures(done: list[dict[str, Any]], arrivals: list[list[tuple[float, str, Any]]], cpu_s: float, wall_s: float,
             camera_s: float, pace_s: float) -> dict[str, Any]:
    delays = sorted(_shown_after(done, arrivals))
    p95 = statistics.quantiles(delays, n=20, method="inclusive")[18] if len(delays) > 1 else (delays[0] if delays else None)
    cpu_percent = 100 * cpu_s / wall_s
    pi_work = 100 * (cpu_s - camera_s) / wall_s  # the Pi's own share: all but drawing the simulated camera
    peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    outcomes = {o: sum(d["outcome"] == o for d in done) for o in sorted({d["outcome"] for d in done})}
    pi4_core = pi_work * PI4_SLOWER
    return {
        "castings": len(done), "outcomes": outcomes, "tablets": TABLETS, "timed": len(delays), "pace_s": pace_s,
        "cue_to_display_ms_p50": round(statistics.median(delays), 1) if delays else None,
        "cue_to_display_ms_p95": round(p95, 1) if p95 is not None else None,
        "cue_to_display_ms_max": round(delays[-1], 1) if delays else None,
        # of which the camera's reading (the cue until the table side has its answer), seen from here
        "cue_to_reading_ms_p50": round(statistics.median(d["read_ms"] for d in done), 1) if done else None,
        "cpu_percent": round(cpu_percent, 1), "camera_drawing_cpu_percent": round(100 * camera_s / wall_s, 1),
        "peak_rss_mb": round(peak_rss_mb, 1),
        "load_average_1min": round(os.getloadavg()[0], 2),  # other work on this machine: the figures are noisier above 1 per core
        "pi4_cpu_percent_of_one_core": round(pi4_core, 1),
        "pi4_cpu_percent_of_all_cores": round(pi4_core / PI4_CORES, 1),
        "pi4": (f"On a Raspberry Pi 4 (4 cores each ~{PI4_SLOWER}x slower than one here, {PI4_MEMORY_MB} MB): the table's own "
                f"work ({round(pi_work, 1)}% of a core here, without drawing the simulated camera) scales to ~{round(pi4_core)}% "
                f"of one core, {round(pi4_core / PI4_CORES)}% of the Pi; {round(peak_rss_mb)} MB of memory is "
                f"{round(100 * peak_rss_mb / PI4_MEMORY_MB)}% of a 2 GB Pi. If all of the cue-to-tablet time were "
                f"computation, its p95 would be at most ~{round((p95 or 0) * PI4_SLOWER)} ms there "
                f"(part of it is waiting for camera frames at 30 a second, which does not scale)."),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion bench table", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--castings", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between castings (default %(default)s)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    figures = measure(args.castings, args.seed, args.pace)
    print_figures(figures, args.json)
    return 0


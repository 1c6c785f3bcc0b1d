"""`python -m vision bench [--json] [--quick | --heldout] [--workers N]`: the camera pipeline measured
the way a group uses it.

Every table is set up with the calibration tool's own commands on rendered pictures (``vision.bench.rig``):
a chessboard for the camera, the marker sheet for the table, a person's taps for the places (tokens laid
by hand up to 10 mm off their printed places, taps 3-5 px off the token as seen), the wands held on the
table for their paints. The pipeline knows only the profile and the places file those commands wrote;
each table has its own camera (height, tilt, lens), paints drawn around the documented ones (hue,
saturation, bead size) and brightly coloured tokens, some close to a paint. Castings are in motion:
wands come in after the cue, and in some castings hands already hold wands over the table (over
tokens) in the second before it. Every casting drawn is measured: a hidden tip is reported (by how much
of it was in view), never drawn again.

The wands have tip switches (``hardware.md``, "Tip switch"), simulated with a push switch's physics and
faults (``vision.bench.tips``): the push's share along the wand must reach the rated force, closing is
0-3 frames late, and a wand's fault (dead, stuck closed, tired spring) lasts the whole night at its
table. The same frames are also read as a table without switches reads them (``_camera_alone``).

The wands have lights (the hub's LEDs): every casting is watched, and a wand not yet read keeps
blinking and is waited for. The players watch their lights as people would (``vision.bench.players``):
three in four look once they have pointed, act about a second after coming to rest, and adjust blind of
what the camera sees (a resting tip stays and the fist moves; a tip in the air touches down on the token
meant). A question is asked only for what is still unsure when the casting closes.

Sets (4 wands each):
  nominal     the table card's pose: tip resting on the token, the wand held as the player likes
  hard        the same with light changes, blur, defocus, noise, JPEG and sleeves over wands
  crowded     the table card's pose with 2-4 wands touching one token side by side
  distance    pointing from 30-250 mm away, up to 150 mm up
  natural     tip just over the token, the wand leaning back 15-55 degrees toward the player
  upright     wands held nearly upright over the token: the fist often hides the tip
  confusable  tokens coloured like the paints, and arms passing over tips
  motion      nominal castings with late re-aims, the hand tracker in the loop: latency and speed

Seeds: the full run and ``--quick`` use the development seeds of ``vision/bench/seeds.json`` (tune on
these only). ``--heldout`` draws fresh seeds from a secret at run time, prints that seed after the run,
and measures at least 16 tables and 1,024 wands per set; every rate comes with its 95 % interval.
"""
from __future__ import annotations

import json
import math
import os
import resource
import secrets
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from vision.bench.casting import (BENCH_SEED_BASE, Timings, WandOutcome, by_bins, evaluate, outcomes, percentile,
                                  run_scene, summary)
from vision.bench.rig import SetUpTable, set_up
from vision.bench.tips import FAULT_RATES, FRICTION, PRESS_N, RATED_N, HubTips, SceneTips, SwitchTally, table_faults
from vision.config import VisionConfig, load_config
from vision.decide import MISSING, UNSURE
from vision.pipeline import Pipeline, hand_tracker
from vision.render.scene import make_scene
from vision.render.table import bright_colours, recoloured
from vision.targets import Candidate
from vision.touch import SilentSwitches

__all__ = ["BENCH_SEED_BASE", "WandOutcome", "by_bins", "evaluate", "outcomes", "run_scene", "summary", "main", "run",
           "Plan", "wilson"]
SEEDS = Path(__file__).with_name("seeds.json")
# set name -> (scene kind, hard, share of tips an arm passes over, tokens coloured like the paints)
SETS = {"nominal": ("hover", False, 0.0, False), "hard": ("hover", True, 0.0, False),
        "crowded": ("crowded", False, 0.0, False),
        "distance": ("distance", False, 0.0, False), "natural": ("natural", False, 0.0, False),
        "upright": ("upright", False, 0.0, False), "confusable": ("hover", False, 0.3, True)}
EARLY = 0.3  # share of castings in which some hands hold their wands over the table before the cue
DISTANCE_BINS_MM = (0, 20, 30, 40, 60, 100, 150, 200, 260)
HEIGHT_BINS_MM = (0, 20, 30, 40, 60, 100, 151)
VISIBLE_BINS = (0.0, 0.2, 0.5, 0.9, 1.01)  # share of the tip bead in view at the deciding frame
HELDOUT_TABLES, HELDOUT_PER_SET = 16, 16  # 16 tables x 16 castings x 4 wands = 1,024 wands per set
# key -> (at least / at most, bound): the floors
FLOORS: dict[str, tuple[str, float]] = {
    "castings_automatic_nominal": (">=", 0.97), "castings_automatic_crowded": (">=", 0.95),
    "castings_automatic_hard": (">=", 0.9), "silent_errors_nominal": ("<=", 0.002),
    "silent_errors_crowded": ("<=", 0.002), "silent_errors_hard": ("<=", 0.005),
    "silent_errors_natural": ("<=", 0.005), "silent_errors_upright": ("<=", 0.005),
    "silent_errors_confusable": ("<=", 0.005), "silent_errors_distance": ("<=", 0.01)}


@dataclass(frozen=True)
class Plan:
    """Which tables and castings a run measures."""

    seeds: str  # "development" or "held-out"
    rigs: tuple[int, ...]
    castings_base: int
    per_set: int  # castings per set and table
    motion: int  # motion castings per table
    workers: int = 1
    secret: int | None = None  # the held-out run's seed, drawn at run time

    @classmethod
    def development(cls, quick: bool = False, workers: int = 2) -> Plan:
        seeds = json.loads(SEEDS.read_text())["development"]
        rigs = tuple(seeds["rigs"][:1] if quick else seeds["rigs"][:8])
        return cls("development", rigs, int(seeds["castings_base"]), 2 if quick else 16, 1 if quick else 4,
                   1 if quick else workers)

    @classmethod
    def heldout(cls, secret: int, workers: int = 2) -> Plan:
        rng = np.random.default_rng(secret)
        rigs = tuple(int(s) for s in rng.integers(10**9, 2**40, HELDOUT_TABLES))
        return cls("held-out", rigs, int(rng.integers(10**9, 2**40)), HELDOUT_PER_SET, 4, workers, secret)


def heldout_secret() -> int:
    """A seed no file holds and nobody has seen: from the system's secret random source."""
    return secrets.randbits(48)


def wilson(successes: int, n: int, z: float = 1.96) -> list[float] | None:
    """The binomial 95 % interval (Wilson score) of ``successes`` in ``n``; None when n is 0."""
    if n <= 0:
        return None
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def places_told(table: SetUpTable, legal: tuple[str, ...]) -> list[Candidate]:
    """The casting's legal targets as the places file says they lie."""
    return [Candidate(i, p.x_mm, p.y_mm, p.radius_mm) for i in legal if (p := table.places.get(i)) is not None]


@dataclass
class TableRun:
    """What one table's night gave: per set, each casting's wands (with switches and camera alone)."""

    castings: dict[str, list[list[WandOutcome]]] = field(default_factory=lambda: {n: [] for n in SETS})
    alone: dict[str, list[list[WandOutcome]]] = field(default_factory=lambda: {n: [] for n in SETS})
    switches: dict[str, SwitchTally] = field(default_factory=lambda: {n: SwitchTally() for n in SETS})
    motion: list[list[WandOutcome]] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    timings: Timings = field(default_factory=lambda: Timings([], []))
    motion_timings: Timings = field(default_factory=lambda: Timings([], []))
    images: list[np.ndarray] = field(default_factory=list)
    retakes: int = 0
    faults: dict[int, str] = field(default_factory=dict)


def cast_on(table: SetUpTable, pipeline: Pipeline, seed: int, name: str, timings: Timings, faults: dict[int, str],
            silent: SilentSwitches,
            reaim: float = 0.0, camera_only: list[list[WandOutcome]] | None = None,
            switches: SwitchTally | None = None) -> tuple[list[WandOutcome], float | None]:
    """One casting of set ``name`` on ``table``, read with the wands' tip switches (``silent``: the night's
    record of switches silent on a token, as the table side keeps it) and lights its players watch
    (``vision.bench.players``); ``camera_only`` collects the same casting as read without switches,
    ``switches`` the switches' own figures."""
    kind, hard, cover, confusable = SETS[name]
    rig = table.rig
    if confusable:
        rng = np.random.default_rng(seed)
        rig = type(rig)(rig.camera, rig.paints, recoloured(rig.layout, bright_colours([p.hue for p in rig.paints.values()],
                                                                                       0.85), rng))
    scene = make_scene(seed, kind, hard, motion=True, reaim=reaim, rig=rig, cover_tips=cover, early=EARLY)
    tips = SceneTips(scene, faults)
    hub = HubTips(tips, silent)
    alone: list[WandOutcome] = []
    result, found, latency = run_scene(pipeline, scene, 0.0, timings, places_told(table, scene.layout.legal), hub,
                                       alone if camera_only is not None else None, players=True)
    if result is not None:
        hub.closed(result)
    if camera_only is not None:
        camera_only.append(alone)
    if switches is not None:
        switches.add(tips)
    return found, latency


_HANDS: list[object | None] = []


def _hands() -> object | None:
    """One hand tracker per process (loading MediaPipe takes a while)."""
    if not _HANDS:
        _HANDS.append(hand_tracker())
    return _HANDS[0]


def run_table(plan: Plan, r: int, config: VisionConfig | None = None) -> TableRun:
    """The ``r``-th table of ``plan``: set up by the calibration tool, then every set's castings read by
    one pipeline (as one table runs all night), and the motion castings with the hand tracker."""
    config = config or load_config()
    rig_seed = plan.rigs[r]
    out = TableRun(faults=table_faults(rig_seed))
    with tempfile.TemporaryDirectory(prefix="incanto-bench-") as tmp:
        table = set_up(rig_seed, Path(tmp) / str(rig_seed))
    out.retakes = table.retakes
    pipeline = Pipeline(table.profile, config)
    silent = SilentSwitches()  # one hub all night: a switch silent on a token is doubted, as the table side does
    for j in range(plan.per_set):
        for s, name in enumerate(SETS):  # the sets interleaved, as a night mixes them
            found, _ = cast_on(table, pipeline, plan.castings_base + s * 100_000 + r * 1000 + j, name, out.timings,
                               out.faults, silent, camera_only=out.alone[name], switches=out.switches[name])
            out.castings[name].append(found)
    hands = _hands()
    for j in range(plan.motion):
        seed = plan.castings_base + 900_000 + r * 1000 + j
        found, latency = cast_on(table, Pipeline(table.profile, config, hands), seed, "nominal", out.motion_timings,
                                 out.faults, silent, reaim=0.33)
        out.motion.append(found)
        out.latencies_ms += [latency * 1000] if latency is not None else []
        if j < 2:
            out.images.append(make_scene(seed, "hover", motion=True, rig=table.rig).render(12)[0].image)
    return out


def mediapipe_ms(images: list[np.ndarray]) -> float | None:
    """Median ms of one MediaPipe hand-landmark pass per 640x480 frame, or None without vision.hands."""
    try:
        from vision.hands import HandsConfig, LegacyHands
    except ImportError:
        return None
    times = []
    with LegacyHands(HandsConfig(views=("plain",), look_behind=False)) as model:
        model.detect(images[0])  # the first call loads the graph
        for image in images:
            t0 = time.perf_counter()
            model.detect(image)
            times.append((time.perf_counter() - t0) * 1000)
    return float(np.median(times))


def _worker_init() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import cv2
    cv2.setNumThreads(1)


def run_tables(plan: Plan) -> list[TableRun]:
    """Every table of ``plan``, in a pool of ``plan.workers`` processes (one table each at a time)."""
    started, n = time.perf_counter(), len(plan.rigs)

    def done(count: int) -> None:  # a long run says how far it is, on stderr (stdout is the report)
        print(f"vision bench: {count}/{n} tables, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)

    if plan.workers <= 1:
        out = []
        for r in range(n):
            out.append(run_table(plan, r))
            done(r + 1)
        return out
    with ProcessPoolExecutor(plan.workers, mp_context=get_context("spawn"), initializer=_worker_init) as pool:
        futures = [pool.submit(run_table, plan, r) for r in range(n)]
        for count, _ in enumerate(as_completed(futures), 1):
            done(count)
        return [f.result() for f in futures]


def _rates(report: dict, suffix: str, castings: list[list[WandOutcome]]) -> None:
    """Every rate of one set's castings, each with its 95 % interval, under ``<rate>_<suffix>``."""
    wands = [o for c in castings for o in c]
    n = len(wands)
    counts = {"accuracy": sum(o.right for o in wands), "silent_errors": sum(o.silent_error for o in wands),
              "unsure": sum(o.status == UNSURE for o in wands), "missing": sum(o.status == MISSING for o in wands)}
    for key, k in counts.items():
        report[f"{key}_{suffix}"] = round(k / n, 4) if n else None
        report[f"{key}_{suffix}_ci95"] = wilson(k, n)
    automatic = sum(all(o.status not in (UNSURE, MISSING) for o in c) for c in castings)
    report[f"castings_automatic_{suffix}"] = round(automatic / len(castings), 4) if castings else None
    report[f"castings_automatic_{suffix}_ci95"] = wilson(automatic, len(castings))


def _camera_alone_key(key: str, name: str) -> str:
    return key.replace(f"_{name}", f"_{name}_camera_alone", 1)


def floors(report: dict) -> dict[str, dict]:
    """Every floor of the issue with the run's value and whether it is met."""
    out: dict[str, dict] = {}
    for key, (op, bound) in FLOORS.items():
        value = report.get(key)
        met = value is not None and (value >= bound if op == ">=" else value <= bound)
        out[key] = {"floor": f"{op} {bound}", "value": value, "met": bool(met)}
    for name in SETS:
        value, alone = report.get(f"accuracy_{name}"), report.get(f"accuracy_{name}_camera_alone")
        met = value is not None and alone is not None and value >= alone
        out[f"accuracy_{name}"] = {"floor": f">= accuracy_{name}_camera_alone ({alone})", "value": value,
                                   "met": bool(met)}
    return out


def summarise(plan: Plan, tables: list[TableRun]) -> dict:
    """Every figure of the bench as one dict."""
    report: dict = {"seeds": plan.seeds, "tables": len(plan.rigs), "castings_per_set": len(plan.rigs) * plan.per_set,
                    "wands_per_casting": 4}
    report["camera_retakes"] = sum(t.retakes for t in tables)
    for name in SETS:
        castings = [c for t in tables for c in t.castings[name]]
        alone = [c for t in tables for c in t.alone[name]]
        _rates(report, name, castings)
        report[f"wands_{name}"] = sum(len(c) for c in castings)
        report[f"castings_{name}"] = len(castings)
        part: dict = {}
        _rates(part, name, alone)
        report.update({_camera_alone_key(k, name): v for k, v in part.items()})
        wands = [o for c in castings for o in c]
        report[f"by_tip_visible_{name}"] = by_bins(wands, "tip_visible", VISIBLE_BINS)
        # How often a blinking light made a player adjust the wand, and how those wands ended.
        moved = [o for o in wands if o.adjusted]
        report[f"players_adjusted_{name}"] = {"wands": len(moved), "share": round(len(moved) / max(len(wands), 1), 4),
                                              "right": sum(o.right for o in moved),
                                              "silent_errors": sum(o.silent_error for o in moved)}
    for name in ("nominal", "distance", "natural"):
        wands = [o for t in tables for c in t.castings[name] for o in c]
        report[f"by_tip_distance_{name}"] = by_bins(wands, "tip_distance_mm", DISTANCE_BINS_MM)
        report[f"by_tip_height_{name}"] = by_bins(wands, "tip_height_mm", HEIGHT_BINS_MM)
    hidden = [o for t in tables for name in SETS for c in t.castings[name] for o in c if o.tip_visible < 0.2]
    report["hidden_tips"] = {"wands": len(hidden), "silent_errors": round(summary(hidden)["silent_errors"], 4)}
    switches: dict = {"rated_n": RATED_N, "press_n": list(PRESS_N), "friction": list(FRICTION),
                      "fault_rates": FAULT_RATES, "faults": {}}
    for t in tables:
        for fault in t.faults.values():
            switches["faults"][fault] = switches["faults"].get(fault, 0) + 1
    for name in SETS:
        tally = SwitchTally()
        for t in tables:
            tally.merge(t.switches[name])
        switches[name] = {"resting": tally.resting, "clicked_when_resting":
                          round(tally.clicked / tally.resting, 4) if tally.resting else None,
                          "lifted": tally.lifted, "closed_when_lifted":
                          round(tally.closed_lifted / tally.lifted, 4) if tally.lifted else None}
    report["tip_switches"] = switches
    motion = [c for t in tables for c in t.motion]
    _rates(report, "motion", motion)
    latencies = [v for t in tables for v in t.latencies_ms]
    report["cue_to_decision_ms_p95"] = percentile(latencies, 95)
    report["cue_to_decision_ms_p50"] = percentile(latencies, 50)
    wand = [v for t in tables for v in t.timings.wand + t.motion_timings.wand]
    pipeline = [v for t in tables for v in t.motion_timings.pipeline]
    report["wand_stage_ms_p50"] = percentile(wand, 50)
    report["pipeline_ms_p50"] = percentile(pipeline, 50)
    report["pipeline_ms_p95"] = percentile(pipeline, 95)
    images = [i for t in tables for i in t.images]
    mp = mediapipe_ms(images) if images else None
    report["mediapipe_ms_p50"] = round(mp, 2) if mp is not None else None
    report["pipeline_over_mediapipe"] = round(report["pipeline_ms_p50"] / mp, 3) if mp and report["pipeline_ms_p50"] else None
    report["floors"] = floors(report)
    report["floors_met"] = all(f["met"] for f in report["floors"].values())
    return report


def run(plan: Plan) -> dict:
    """Measure ``plan``: its tables set up and read, the figures, the wall time."""
    started = time.perf_counter()
    report = summarise(plan, run_tables(plan))
    report["workers"] = plan.workers
    report["wall_s"] = round(time.perf_counter() - started, 1)
    report["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    if plan.secret is not None:
        report["seed"] = plan.secret  # told only now, after the run
    return report


USAGE = "usage: python -m vision bench [--json] [--quick | --heldout] [--workers N]"


def parse(argv: Sequence[str]) -> tuple[bool, bool, bool, int] | str:
    """(json, quick, heldout, workers) from the arguments, or the one-line error."""
    flags, workers, args = set(), 2, list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("--json", "--quick", "--heldout"):
            flags.add(arg)
        elif arg == "--workers":
            value = args.pop(0) if args else ""
            if not value.isdigit() or int(value) < 1:
                return f"python -m vision bench: --workers takes a whole number of processes >= 1, got {value!r}"
            workers = int(value)
        else:
            return f"python -m vision bench: unknown argument {arg!r} ({USAGE})"
    if {"--quick", "--heldout"} <= flags:
        return "python -m vision bench: --quick and --heldout exclude each other (a held-out run is full size)"
    return "--json" in flags, "--quick" in flags, "--heldout" in flags, workers


def main(argv: list[str]) -> int:
    parsed = parse(argv)
    if isinstance(parsed, str):
        print(parsed, file=sys.stderr)
        return 2
    as_json, quick, heldout, workers = parsed
    plan = Plan.heldout(heldout_secret(), workers) if heldout else Plan.development(quick, workers)
    report = run(plan)
    if as_json:
        print(json.dumps(report))
        if plan.secret is not None:
            print(f"held-out seed (drawn for this run, told after it): {plan.secret}", file=sys.stderr)
    else:
        for key, value in report.items():
            if key != "floors":
                print(f"{key:36s} {json.dumps(value)}")
        for key, f in report["floors"].items():
            print(f"floor {key:30s} {f['floor']:44s} {json.dumps(f['value']):8s} {'met' if f['met'] else 'NOT MET'}")
        if plan.secret is not None:
            print(f"held-out seed (drawn for this run, told after it): {plan.secret}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

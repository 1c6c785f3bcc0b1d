"""`python -m vision bench [--json] [--quick]`: the camera pipeline measured the way a group uses it.

Every table is set up with the calibration tool's own commands on rendered pictures (``vision.bench.rig``):
a chessboard for the camera, the marker sheet for the table, taps for the places (tokens laid by hand
up to 10 mm off their printed places), the wands held on the table for their paints. The pipeline
knows only the profile and the places file those commands wrote; each table has its own camera
(height, tilt, lens), paints drawn around the documented ones (hue, saturation, bead size) and
brightly coloured tokens, some close to a paint. Castings are in motion: wands come in after the cue.

The wands have tip switches (``hardware.md``, "Tip switch"), simulated from the renderer's truth with a
real switch's faults (``vision.bench.tips``: light touches that do not close it, switches stuck
closed). The same frames are also read as a table without switches reads them: ``camera_only``.

Sets (4 wands each):
  nominal     the table card's pose: tip resting on the token, the wand held as the player likes
  hard        the same with light changes, blur, defocus, noise, JPEG and sleeves over wands
  distance    pointing from 30-250 mm away, up to 150 mm up
  natural     tip just over the token, the wand leaning back 15-55 degrees toward the player
  upright     wands held nearly upright over the token: the fist often hides the tip
  confusable  tokens coloured like the paints, and arms passing over tips
  motion      nominal castings with late re-aims, the hand tracker in the loop: latency and speed

Seeds: ``vision/bench/heldout.json``; the full run uses the held-out seeds, ``--quick`` the
development seeds (fewer tables and castings).
"""
from __future__ import annotations

import json
import resource
import sys
import tempfile
from pathlib import Path

import numpy as np

from vision.bench.casting import (BENCH_SEED_BASE, Timings, WandOutcome, by_bins, evaluate, outcomes, percentile,
                                  run_scene, summary)
from vision.bench.rig import SetUpTable, set_up
from vision.bench.tips import MISSED, STUCK, SceneTips
from vision.config import VisionConfig, load_config
from vision.pipeline import Pipeline, hand_tracker
from vision.render.scene import make_scene
from vision.render.table import bright_colours, recoloured
from vision.targets import Candidate

__all__ = ["BENCH_SEED_BASE", "WandOutcome", "by_bins", "evaluate", "outcomes", "run_scene", "summary", "main", "run"]
SEEDS = Path(__file__).with_name("heldout.json")
# set name -> (scene kind, hard, share of tips an arm passes over, tokens coloured like the paints)
SETS = {"nominal": ("hover", False, 0.0, False), "hard": ("hover", True, 0.0, False),
        "distance": ("distance", False, 0.0, False), "natural": ("natural", False, 0.0, False),
        "upright": ("upright", False, 0.0, False), "confusable": ("hover", False, 0.3, True)}
DISTANCE_BINS_MM = (0, 20, 30, 40, 60, 100, 150, 200, 260)
HEIGHT_BINS_MM = (0, 20, 30, 40, 60, 100, 151)


def places_told(table: SetUpTable, legal: tuple[str, ...]) -> list[Candidate]:
    """The casting's legal targets as the places file says they lie."""
    return [Candidate(i, p.x_mm, p.y_mm, p.radius_mm) for i in legal if (p := table.places.get(i)) is not None]


def cast_on(table: SetUpTable, seed: int, name: str, config: VisionConfig, timings: Timings,
            hands: object | None = None, reaim: float = 0.0, camera_only: list[WandOutcome] | None = None
            ) -> tuple[list[WandOutcome], float | None]:
    """One casting of set ``name`` on ``table``, read with the wands' tip switches; ``camera_only``
    collects the same casting as read without them."""
    kind, hard, cover, confusable = SETS[name]
    rig = table.rig
    if confusable:
        rng = np.random.default_rng(seed)
        rig = type(rig)(rig.camera, rig.paints, recoloured(rig.layout, bright_colours([p.hue for p in rig.paints.values()],
                                                                                       0.85), rng))
    scene = make_scene(seed, kind, hard, motion=True, reaim=reaim, rig=rig, cover_tips=cover)
    pipeline = Pipeline(table.profile, config, hands)
    _, found, latency = run_scene(pipeline, scene, 0.0, timings, places_told(table, scene.layout.legal),
                                  SceneTips(scene), camera_only)
    return found, latency


def mediapipe_ms(images: list[np.ndarray]) -> float | None:
    """Median ms of one MediaPipe hand-landmark pass per 640x480 frame, or None without vision.hands."""
    try:
        from vision.hands import HandsConfig, LegacyHands
    except ImportError:
        return None
    import time
    times = []
    with LegacyHands(HandsConfig(views=("plain",), look_behind=False)) as model:
        model.detect(images[0])  # the first call loads the graph
        for image in images:
            t0 = time.perf_counter()
            model.detect(image)
            times.append((time.perf_counter() - t0) * 1000)
    return float(np.median(times))


def run(quick: bool = False) -> dict:
    """Every figure of the bench as one dict."""
    seeds = json.loads(SEEDS.read_text())["development" if quick else "heldout"]
    rigs, base = seeds["rigs"][:3] if quick else seeds["rigs"], seeds["castings_base"]
    per_rig = 4 if quick else 8
    config = load_config()
    report: dict = {"seeds": "development" if quick else "held-out", "tables": len(rigs), "castings_per_set": len(rigs) * per_rig}
    timings, motion_timings = Timings([], []), Timings([], [])
    sets: dict[str, list[WandOutcome]] = {name: [] for name in SETS}
    alone: dict[str, list[WandOutcome]] = {name: [] for name in SETS}
    motion: list[WandOutcome] = []
    latencies: list[float] = []
    hands = hand_tracker()
    images = []
    with tempfile.TemporaryDirectory(prefix="incanto-bench-") as tmp:
        for r, rig_seed in enumerate(rigs):
            table = set_up(rig_seed, Path(tmp) / str(rig_seed))
            report["camera_retakes"] = report.get("camera_retakes", 0) + table.retakes
            for s, name in enumerate(SETS):
                for j in range(per_rig):
                    sets[name] += cast_on(table, base + s * 100_000 + r * 1000 + j, name, config, timings,
                                          camera_only=alone[name])[0]
            for j in range(2 if quick else 5):
                seed = base + 900_000 + r * 1000 + j
                found, latency = cast_on(table, seed, "nominal", config, motion_timings, hands, reaim=0.33)
                motion += found
                latencies += [latency * 1000] if latency is not None else []
                images.append(make_scene(seed, "hover", motion=True, rig=table.rig).render(12)[0].image)
    for name, found in sets.items():
        stats = summary(found)
        for key in ("accuracy", "silent_errors", "unsure", "missing"):
            report[f"{key}_{name}"] = round(stats[key], 4)
        report[f"wands_{name}"] = stats["wands"]
    report["tip_switches"] = {"missed_touches": MISSED, "stuck_closed": STUCK}
    report["camera_only"] = {name: {key: round(summary(found)[key], 4)
                                    for key in ("accuracy", "silent_errors", "unsure", "missing")}
                             for name, found in alone.items()}
    for name in ("nominal", "distance", "natural"):
        report[f"by_tip_distance_{name}"] = by_bins(sets[name], "tip_distance_mm", DISTANCE_BINS_MM)
        report[f"by_tip_height_{name}"] = by_bins(sets[name], "tip_height_mm", HEIGHT_BINS_MM)
    hidden = [o for name in ("natural", "upright", "confusable") for o in sets[name] if o.tip_visible < 0.2]
    report["hidden_tips"] = {"wands": len(hidden), "silent_errors": round(summary(hidden)["silent_errors"], 4)}
    report["accuracy_motion"] = round(summary(motion)["accuracy"], 4)
    report["silent_errors_motion"] = round(summary(motion)["silent_errors"], 4)
    report["cue_to_decision_ms_p95"] = percentile(latencies, 95)
    report["cue_to_decision_ms_p50"] = percentile(latencies, 50)
    report["wand_stage_ms_p50"] = percentile(timings.wand + motion_timings.wand, 50)
    report["pipeline_ms_p50"] = percentile(motion_timings.pipeline, 50)
    report["pipeline_ms_p95"] = percentile(motion_timings.pipeline, 95)
    mp = mediapipe_ms(images)
    report["mediapipe_ms_p50"] = round(mp, 2) if mp is not None else None
    report["pipeline_over_mediapipe"] = round(report["pipeline_ms_p50"] / mp, 3) if mp and report["pipeline_ms_p50"] else None
    if hands is not None:
        hands.close()  # type: ignore[attr-defined]
    report["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return report


def main(argv: list[str]) -> int:
    report = run(quick="--quick" in argv)
    if "--json" in argv:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:28s} {json.dumps(value)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

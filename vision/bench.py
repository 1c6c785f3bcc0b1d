"""`python -m vision bench`: accuracy and speed of the pointing pipeline on held-out rendered castings.

Seeds: development and the tests use seeds below ``BENCH_SEED_BASE``; the bench draws its castings
from ``BENCH_SEED_BASE`` upward, seeds never looked at while tuning. Every figure comes from one run.

Sets (4 wands, 640x480, 30 frames/s):
  hover     the table's convention (tip within 30 mm of the token's centre, at most 40 mm up), steady light
  hard      hover, with light changes, motion blur, defocus, sensor noise, JPEG, sleeves over wands and
            tips up to half hidden
  distance  pointing from 30-250 mm away and up to 150 mm up, steady light
  motion    hover castings as they happen: wands raised, brought down after the cue, some re-aimed
            late; used for the decision latency and with the hand tracker running in the pipeline
"""
from __future__ import annotations

import json
import resource
import sys
import time
from dataclasses import dataclass
from collections.abc import Iterable

import numpy as np

from vision.config import VisionConfig, load_config
from vision.decide import TARGET, CastingResult
from vision.pipeline import Pipeline, hand_tracker
from vision.render.scene import Scene, make_scene

BENCH_SEED_BASE = 7_000_000
SETS = {"hover": ("hover", False), "hard": ("hover", True), "distance": ("distance", False)}
DISTANCE_BINS_MM = (0, 20, 30, 40, 60, 100, 150, 200, 260)
HEIGHT_BINS_MM = (0, 20, 30, 40, 60, 100, 151)


@dataclass(frozen=True)
class WandOutcome:
    """One wand of one rendered casting, judged against the renderer's truth."""

    strength: int
    truth: str | None
    status: str
    target: str | None
    tip_distance_mm: float
    tip_height_mm: float
    tip_visible: float
    axis: str | None

    @property
    def right(self) -> bool:
        return self.status == TARGET and self.target == self.truth

    @property
    def silent_error(self) -> bool:
        return self.status == TARGET and self.target != self.truth


@dataclass
class Timings:
    """Milliseconds per frame: the wand stage alone, and the whole per-frame pipeline."""

    wand: list[float]
    pipeline: list[float]


def run_scene(pipeline: Pipeline, scene: Scene, cue_at: float, timings: Timings | None = None
              ) -> tuple[CastingResult | None, list[WandOutcome], float | None]:
    """Feed the scene's frames to a casting. Returns the result, every wand's outcome and the decision
    latency: seconds from the last wand's settling to the decision, including the deciding frame's
    processing. A casting the frames do not decide counts every wand as unsure."""
    casting = pipeline.casting(cue_at, list(scene.gestures), scene.candidates)
    for i in range(scene.frames):
        frame, truth = scene.render(i)
        t0 = time.perf_counter()
        sightings = pipeline.find(frame.image)
        t1 = time.perf_counter()
        result = casting.observe(frame.t, pipeline.look(frame, sightings).axes)
        t2 = time.perf_counter()
        if timings is not None:
            timings.wand.append((t1 - t0) * 1000)
            timings.pipeline.append((t2 - t0) * 1000)
        if result is not None:
            return result, outcomes(result, truth), frame.t + (t2 - t0) - scene.last_settle
    return None, [WandOutcome(k, w.target, "unsure", None, w.tip_distance_mm, w.tip_height_mm, w.tip_visible, None)
                  for k, w in truth.wands.items()], None


def outcomes(result: CastingResult, truth) -> list[WandOutcome]:
    """Each wand's verdict next to the truth of the deciding frame."""
    return [WandOutcome(k, truth.wands[k].target, r.status, r.target, truth.wands[k].tip_distance_mm,
                        truth.wands[k].tip_height_mm, truth.wands[k].tip_visible, r.axis_source)
            for k, r in result.wands.items()]


def evaluate(seeds: Iterable[int], kind: str, hard: bool, config: VisionConfig | None = None, look: str = "caps",
             timings: Timings | None = None) -> list[WandOutcome]:
    """Still castings (wands already pointing when the frames start): every wand's outcome."""
    config = config or load_config()
    found: list[WandOutcome] = []
    for seed in seeds:
        scene = make_scene(seed, kind, hard, look)
        found += run_scene(Pipeline(scene.calibration, config), scene, cue_at=-1.0, timings=timings)[1]
    return found


def summary(found: list[WandOutcome]) -> dict[str, float]:
    """Fractions of wands: right, silent errors (wrong and not marked unsure), unsure, missing, none."""
    n = max(len(found), 1)
    return {"wands": len(found), "accuracy": sum(o.right for o in found) / n,
            "silent_errors": sum(o.silent_error for o in found) / n,
            "unsure": sum(o.status == "unsure" for o in found) / n,
            "missing": sum(o.status == "missing" for o in found) / n,
            "none": sum(o.status == "none" for o in found) / n}


def by_bins(found: list[WandOutcome], attr: str, edges: tuple[float, ...]) -> dict[str, dict[str, float]]:
    """Accuracy and silent errors per bin of tip distance or tip height (mm)."""
    out = {}
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = [o for o in found if lo <= getattr(o, attr) < hi]
        if sel:
            s = summary(sel)
            out[f"{lo}-{hi}"] = {"wands": s["wands"], "accuracy": round(s["accuracy"], 4),
                                 "silent_errors": round(s["silent_errors"], 4)}
    return out


def motion_set(seeds: Iterable[int], config: VisionConfig, hands: object | None, timings: Timings
               ) -> tuple[list[WandOutcome], list[float]]:
    """Castings in motion (a third of the wands re-aimed late): outcomes and decision latencies (ms)."""
    found, latencies = [], []
    for seed in seeds:
        scene = make_scene(seed, "hover", False, motion=True, reaim=0.33)
        _, got, latency = run_scene(Pipeline(scene.calibration, config, hands), scene, 0.0, timings)
        found += got
        if latency is not None:
            latencies.append(latency * 1000)
    return found, latencies


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


def run(quick: bool = False) -> dict:
    """Every figure of the bench as one dict."""
    config = load_config()
    n = 40 if quick else 150
    report: dict = {"seeds": f"{BENCH_SEED_BASE}+ (development uses seeds below {BENCH_SEED_BASE})",
                    "scenes_per_set": n}
    timings = Timings([], [])
    sets = {}
    for offset, (name, (kind, hard)) in enumerate(SETS.items()):
        seeds = range(BENCH_SEED_BASE + offset * 100_000, BENCH_SEED_BASE + offset * 100_000 + n)
        sets[name] = evaluate(seeds, kind, hard, config, timings=timings)
    for name, found in sets.items():
        s = summary(found)
        suffix = "nominal" if name == "hover" else name
        report[f"accuracy_{suffix}"] = round(s["accuracy"], 4)
        report[f"silent_errors_{suffix}"] = round(s["silent_errors"], 4)
        report[f"unsure_{suffix}"] = round(s["unsure"], 4)
        report[f"missing_{suffix}"] = round(s["missing"], 4)
    for name in ("hover", "distance"):
        report[f"by_tip_distance_{name}"] = by_bins(sets[name], "tip_distance_mm", DISTANCE_BINS_MM)
        report[f"by_tip_height_{name}"] = by_bins(sets[name], "tip_height_mm", HEIGHT_BINS_MM)

    # Motion: latency, late re-aims, and the per-frame cost with the hand tracker in the loop.
    hands = hand_tracker()
    motion_timings = Timings([], [])
    base = BENCH_SEED_BASE + 900_000
    found, latencies = motion_set(range(base, base + (12 if quick else 40)), config, hands, motion_timings)
    report["accuracy_motion"] = round(summary(found)["accuracy"], 4)
    report["silent_errors_motion"] = round(summary(found)["silent_errors"], 4)
    report["cue_to_decision_ms_p95"] = round(float(np.percentile(latencies, 95)), 1) if latencies else None
    report["cue_to_decision_ms_p50"] = round(float(np.percentile(latencies, 50)), 1) if latencies else None
    report["wand_stage_ms_p50"] = round(float(np.median(timings.wand + motion_timings.wand)), 2)
    report["pipeline_ms_p50"] = round(float(np.median(motion_timings.pipeline)), 2)
    report["pipeline_ms_p95"] = round(float(np.percentile(motion_timings.pipeline, 95)), 2)
    images = [make_scene(base + i, "hover", False, motion=True).render(12)[0].image for i in range(20 if quick else 40)]
    mp = mediapipe_ms(images)
    report["mediapipe_ms_p50"] = round(mp, 2) if mp is not None else None
    report["pipeline_over_mediapipe"] = round(report["pipeline_ms_p50"] / mp, 3) if mp else None
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

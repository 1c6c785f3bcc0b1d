"""`python -m vision markers [--json] [--quick]`: the wand-marker options measured on the same castings.

Each casting is rendered once per option with identical poses: the chosen fluorescent caps (tip bead
and band), the same beads made of LEDs lit by the wand hub, and a printed ArUco flag; all go through
the same scoring and decision. Sets: hover in steady light; in dim or glaring coloured light (light
level 0.35-0.6 or 1.4-1.8); in a dark room (0.12-0.3); and with the hard set's blur, noise, JPEG and
occlusion.
"""
from __future__ import annotations

import dataclasses
import json
import sys
import time

import numpy as np

from vision.bench.casting import BENCH_SEED_BASE, WandOutcome, outcomes, summary
from vision.config import VisionConfig, load_config
from vision.markers_aruco import FlagFinder
from vision.pipeline import Pipeline
from vision.render import effects
from vision.render.scene import LOOKS, Scene, make_scene

SEED_BASE = BENCH_SEED_BASE + 500_000


def harsh_light(scene: Scene, rng: np.random.Generator, dark: bool = False) -> Scene:
    """The same casting under a dim or glaring, coloured light; ``dark``: a room lit at 12-30 %."""
    gain = rng.uniform(0.35, 0.6) if rng.random() < 0.5 else rng.uniform(1.4, 1.8)
    gain = rng.uniform(0.12, 0.3) if dark else gain
    warm = rng.uniform(-1, 1)
    light = effects.Conditions(gain=gain, tint=(1 - 0.2 * warm, 1.0, 1 + 0.2 * warm), noise=2.5, jpeg=85)
    return dataclasses.replace(scene, conditions=(light, light), _background=None)


def run_option(scene: Scene, look: str, config: VisionConfig) -> tuple[list[WandOutcome], list[float], float]:
    """One casting read through one marker option: outcomes, detection times (ms per frame) and the
    fraction of wand-frames in which the wand was identified."""
    scene = dataclasses.replace(scene, look=look, frames=30, _background=None)
    pipeline = Pipeline(scene.calibration, config)
    flags = FlagFinder(pipeline.geo) if look == "aruco" else None
    casting = pipeline.casting(-1.0, list(scene.gestures), scene.candidates)
    times, seen = [], []
    for i in range(scene.frames):
        frame, truth = scene.render(i)
        t0 = time.perf_counter()
        axes = {k: a for k, (a, _) in flags.find(frame.image).items()} if flags else pipeline.look(frame).axes
        times.append((time.perf_counter() - t0) * 1000)
        seen.append(len(axes) / len(scene.gestures))
        result = casting.observe(frame.t, axes)
        if result is not None:
            return outcomes(result, truth), times, float(np.mean(seen))
    return [WandOutcome(k, w.target, "unsure", None, w.tip_distance_mm, w.tip_height_mm, w.tip_visible, None)
            for k, w in truth.wands.items()], times, float(np.mean(seen))


def compare(n: int) -> dict:
    config = load_config()
    report: dict = {"castings_per_set": n, "wands_per_casting": 4}
    sets = {"steady": (False, ""), "harsh_light": (False, "harsh"), "dark_room": (False, "dark"), "hard": (True, "")}
    for s_i, (name, (hard, light)) in enumerate(sets.items()):
        rng = np.random.default_rng(s_i)
        found: dict[str, list[WandOutcome]] = {look: [] for look in LOOKS}
        times: dict[str, list[float]] = {look: [] for look in LOOKS}
        seen: dict[str, list[float]] = {look: [] for look in LOOKS}
        for seed in range(SEED_BASE + s_i * 10_000, SEED_BASE + s_i * 10_000 + n):
            scene = make_scene(seed, "hover", hard)
            scene = harsh_light(scene, rng, dark=light == "dark") if light else scene
            for look in found:
                got, t, frac = run_option(scene, look, config)
                found[look] += got
                times[look] += t
                seen[look].append(frac)
        for look in found:
            s = summary(found[look])
            report[f"{look}_{name}"] = {"accuracy": round(s["accuracy"], 4), "silent_errors": round(s["silent_errors"], 4),
                                        "missing": round(s["missing"], 4), "unsure": round(s["unsure"], 4),
                                        "identified_per_frame": round(float(np.mean(seen[look])), 4),
                                        "detect_ms_p50": round(float(np.median(times[look])), 2)}
    return report


def main(argv: list[str]) -> int:
    report = compare(12 if "--quick" in argv else 60)
    print(json.dumps(report) if "--json" in argv else json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

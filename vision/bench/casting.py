"""One rendered casting read by the pipeline and judged against the renderer's truth."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from collections.abc import Iterable

import numpy as np

from vision.config import VisionConfig, load_config
from vision.decide import TARGET, CastingResult, CastingSoFar
from vision.pipeline import Pipeline
from vision.bench.players import Players
from vision.bench.tips import HubTips, SceneTips
from vision.render.scene import FPS, FrameTruth, Scene, make_scene
from vision.targets import Candidate

BENCH_SEED_BASE = 7_000_000  # tests and development use seeds below this
BEFORE_CUE = (-27, -21, -15, -9, -3)  # frames before the cue (at 30 frames/s) that show the table


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
    adjusted: int = 0  # times its player adjusted the wand because its light kept blinking

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


def run_scene(pipeline: Pipeline, scene: Scene, cue_at: float, timings: Timings | None = None,
              candidates: list[Candidate] | None = None, tips: SceneTips | HubTips | None = None,
              camera_only: list[WandOutcome] | None = None, players: bool = False
              ) -> tuple[CastingResult | None, list[WandOutcome], float | None]:
    """Feed the scene's frames to a casting. Castings in motion (``cue_at`` 0: wands come in after the
    cue) first show the pipeline the table in the second before the cue. Returns the result, every
    wand's outcome and the decision latency: seconds from the last wand's settling to the decision,
    including the deciding frame's processing. A casting the frames do not decide counts every wand as
    unsure. ``candidates``: the places the pipeline is told (default: the renderer's own tokens).
    ``tips``: the wands' tip switches (None: the camera alone); ``camera_only`` collects, from the same
    frames, every wand's outcome as a table without tip switches reads it. ``players``: the wands have
    lights, the casting is watched, and the players adjust a wand that keeps blinking
    (``vision.bench.players``); the frames are then drawn for as long as a player may still act."""
    if cue_at >= 0:
        for i in BEFORE_CUE:
            pipeline.see_table(scene.render(i)[0])
    pipeline.freeze_table()
    told = candidates if candidates is not None else scene.candidates
    give_up_s = cue_at + pipeline.cfg.decide.give_up_ms / 1000
    people = None
    if players:
        scene = replace(scene, gestures=dict(scene.gestures))  # the players move the wands of this copy
        people = Players(scene, give_up_s)
    casting = pipeline.casting(cue_at, list(scene.gestures), told, tips, people.watch if people else None)
    alone = pipeline.casting(cue_at, list(scene.gestures), told, watch=_unlit if people else None) \
        if camera_only is not None else None
    # The scene's last frame stands for the seconds after it, until the casting gives up waiting; a
    # player who adjusts the wand, or may still, draws the frames on until the wand has come to rest.
    tail_s = scene.frames / FPS - scene.last_settle
    last_frame = int(math.ceil(give_up_s * FPS))
    horizon = scene.frames
    truth = None
    i = 0
    while i < horizon:
        if people is not None:
            people.act(i / FPS)
            until = max(people.waiting_until() or 0.0, people.last_rest() + tail_s)
            horizon = max(horizon, min(int(math.ceil(until * FPS)) + 1, last_frame))
        last = i == horizon - 1
        frame, truth = scene.render(i)
        if tips is not None:
            tips.see(truth)
        t0 = time.perf_counter()
        sightings = pipeline.find(frame.image)
        t1 = time.perf_counter()
        axes = pipeline.look(frame, sightings).axes
        result = casting.observe(frame.t, axes, timed_out=last)
        t2 = time.perf_counter()
        if alone is not None and alone.result is None and camera_only is not None:
            # Once the casting being measured closes, the frames end: the table without switches is read
            # as they leave the wands.
            if (alone_result := alone.observe(frame.t, axes, timed_out=last or result is not None)) is not None:
                camera_only += outcomes(alone_result, truth)
        if timings is not None:
            timings.wand.append((t1 - t0) * 1000)
            timings.pipeline.append((t2 - t0) * 1000)
        if result is not None:
            waited = None if last and result.decided_at == frame.t else \
                frame.t + (t2 - t0) - (people.last_rest() if people is not None else scene.last_settle)
            return result, outcomes(result, truth, people.adjusted if people else None), waited
        i += 1
    assert truth is not None
    undecided = [WandOutcome(k, w.target, "unsure", None, w.tip_distance_mm, w.tip_height_mm, w.tip_visible, None)
                 for k, w in truth.wands.items()]
    if alone is not None and alone.result is None and camera_only is not None:
        camera_only += undecided
    return None, undecided, None


def _unlit(_: CastingSoFar) -> None:
    """The table without switches is read watched as well (its wands have lights); its readings move no
    player: the players follow the lights of the table being measured."""


def outcomes(result: CastingResult, truth: FrameTruth, adjusted: dict[int, int] | None = None) -> list[WandOutcome]:
    """Each wand's verdict next to the truth of the deciding frame (``adjusted``: how often each wand's
    player adjusted it)."""
    return [WandOutcome(k, truth.wands[k].target, r.status, r.target, truth.wands[k].tip_distance_mm,
                        truth.wands[k].tip_height_mm, truth.wands[k].tip_visible, r.axis_source,
                        (adjusted or {}).get(k, 0))
            for k, r in result.wands.items()]


def evaluate(seeds: Iterable[int], kind: str, hard: bool, config: VisionConfig | None = None, look: str = "caps",
             timings: Timings | None = None) -> list[WandOutcome]:
    """Castings in motion on scenes with a perfect profile (the renderer's own camera and paints): every
    wand's outcome. For tests of the pipeline's parts; the bench never uses the renderer's profile."""
    config = config or load_config()
    found: list[WandOutcome] = []
    for seed in seeds:
        scene = make_scene(seed, kind, hard, look, motion=True)
        found += run_scene(Pipeline(scene.calibration, config), scene, 0.0, timings)[1]
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


def percentile(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 2) if values else None

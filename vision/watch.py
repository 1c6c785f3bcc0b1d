"""`python -m vision watch --source SOURCE [--out DIR]`: the annotated view of what the pipeline sees.

Shows every wand (tip, axis, strength), the candidate tokens with their scores, and each casting's
decision. With a screen (DISPLAY set) it opens a window; without one, or with --out, it writes
annotated images to DIR (default artifacts/watch/), and with --video FILE also an MP4.

SOURCE: ``render:hover`` or ``render:distance`` (seeded rendered castings, see vision.render.source),
a video file, a folder of images, or a camera index (through ``vision.sources``). Real sources need
the table's calibration (the file named in the vision configuration) and, for scores, the legal
targets as a JSON list of {"id", "x_mm", "y_mm", "radius_mm"} given with --tokens.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.config import REPO_ROOT, load_config
from vision.decide import TARGET, CastingResult
from vision.frames import FrameSource
from vision.pipeline import FrameView, Pipeline, hand_tracker, open_pipeline
from vision.table_geometry import UncalibratedTable

WAND_BGR = {1: (0, 220, 245), 2: (40, 245, 0), 3: (245, 80, 0), 4: (230, 0, 245)}
STATUS_BGR = {"target": (60, 220, 60), "unsure": (0, 200, 255), "missing": (80, 80, 255), "none": (180, 180, 180)}


def annotate(image: np.ndarray, pipeline: Pipeline, view: FrameView, candidates: list[dict],
             result: CastingResult | None) -> np.ndarray:
    """(H,W,3) uint8 BGR -> a copy with tokens, wands, axes, per-wand best token and the decision."""
    out = image.copy()
    for c in candidates:
        _token(out, pipeline, c)
    for k, axis in view.axes.items():
        colour = WAND_BGR.get(k, (255, 255, 255))
        tip = tuple(int(v) for v in np.round(axis.tip_px))
        cv2.circle(out, tip, 9, colour, 2, cv2.LINE_AA)
        if axis.back_px is not None:
            back = axis.back_px
            ahead = axis.tip_px + (axis.tip_px - back) / max(np.linalg.norm(axis.tip_px - back), 1e-6) * 40
            cv2.line(out, tuple(int(v) for v in np.round(back)), tuple(int(v) for v in np.round(ahead)), colour, 1, cv2.LINE_AA)
        label = f"{k} ({axis.source})"
        if candidates:
            scores = pipeline.score(axis, candidates)
            best = scores.ranked[0]
            label = f"{k}: {best[0]} {scores.posterior[best[0]]:.2f}"
        _text(out, label, (tip[0] + 11, tip[1] - 6), colour)
    if result is not None:
        _decision(out, result)
    return out


def _token(out: np.ndarray, pipeline: Pipeline, c: dict) -> None:
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    ring = np.c_[c["x_mm"] + c["radius_mm"] * np.cos(a), c["y_mm"] + c["radius_mm"] * np.sin(a), np.zeros(24)]
    px = np.round(pipeline.geo.project(ring)).astype(np.int32)
    cv2.polylines(out, [px], True, (255, 255, 255), 1, cv2.LINE_AA)
    centre = px.mean(axis=0).astype(int)
    _text(out, str(c["id"]), (int(centre[0]) - 12, int(centre[1]) + 26), (255, 255, 255), 0.33)


def _decision(out: np.ndarray, result: CastingResult) -> None:
    y = 18
    for k, w in sorted(result.wands.items()):
        what = w.target if w.status == TARGET else w.status
        _text(out, f"wand {k}: {what}  ({w.confidence:.2f})", (8, y), STATUS_BGR[w.status], 0.5)
        y += 18


def _text(out: np.ndarray, text: str, at: tuple[int, int], colour, scale: float = 0.4) -> None:
    cv2.putText(out, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(out, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)


class Display:
    """Where annotated frames go: a window, a folder of PNGs, and/or an MP4."""

    def __init__(self, out: Path | None, video: Path | None, screen: bool) -> None:
        self.out, self.video, self.screen = out, video, screen
        self.writer: cv2.VideoWriter | None = None
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)

    def show(self, image: np.ndarray, index: int) -> bool:
        """False when the viewer closed the window (q or Esc)."""
        if self.out is not None:
            cv2.imwrite(str(self.out / f"frame_{index:05d}.png"), image)
        if self.video is not None:
            if self.writer is None:
                self.video.parent.mkdir(parents=True, exist_ok=True)
                self.writer = cv2.VideoWriter(str(self.video), cv2.VideoWriter.fourcc(*"mp4v"), 30.0, image.shape[1::-1])
            self.writer.write(image)
        if self.screen:
            cv2.imshow("Incanto vision", image)
            return cv2.waitKey(1) & 0xFF not in (ord("q"), 27)
        return True

    def close(self) -> None:
        if self.writer is not None:
            self.writer.release()
        if self.screen:
            cv2.destroyAllWindows()


def watch_rendered(spec: str, display: Display, max_frames: int) -> int:
    """Rendered castings: each scene brings its own calibration, legal targets and cue."""
    from vision.render.source import open_rendered

    source = open_rendered(spec)
    pipeline, casting, scene = None, None, None
    shown = 0
    try:
        while shown < max_frames and (frame := source.read()) is not None:
            if source.scene is not None and source.scene is not scene:
                scene = source.scene
                pipeline = Pipeline(scene.calibration, load_config())
                casting = pipeline.casting(source.cue_at, list(scene.gestures), scene.candidates)
            if scene is None or pipeline is None or casting is None:
                raise RuntimeError("a rendered frame came before its scene")
            view = pipeline.look(frame)
            result = casting.observe(frame.t, view.axes)
            if not display.show(annotate(frame.image, pipeline, view, scene.candidates, result), frame.index):
                break
            shown += 1
    finally:
        source.close()
    return shown


def watch_camera(spec: str, display: Display, max_frames: int, config: Path | None, tokens: Path | None) -> int:
    """A real source through vision.sources, with the table's calibration."""
    from vision.sources import open_source

    pipeline = open_pipeline(config, hands=hand_tracker())
    candidates = json.loads(tokens.read_text()) if tokens else []
    source: FrameSource = open_source(int(spec) if spec.isdigit() else spec)
    shown = 0
    try:
        while shown < max_frames and (frame := source.read()) is not None:
            view = pipeline.look(frame)
            if not display.show(annotate(frame.image, pipeline, view, candidates, None), frame.index):
                break
            shown += 1
    finally:
        source.close()
    return shown


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision watch", description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True, help="render:hover, render:distance, a video, a folder or a camera index")
    parser.add_argument("--out", type=Path, help="folder for annotated images (default artifacts/watch/ without a screen)")
    parser.add_argument("--video", type=Path, help="also write an MP4 here")
    parser.add_argument("--frames", type=int, default=600, help="stop after this many frames")
    parser.add_argument("--config", type=Path, help="vision configuration (defaults: vision/config.default.json)")
    parser.add_argument("--tokens", type=Path, help="legal targets (JSON list) for real sources")
    args = parser.parse_args(argv)
    screen = bool(os.environ.get("DISPLAY")) and args.out is None
    out = args.out if args.out is not None or screen else REPO_ROOT / "artifacts" / "watch"
    display = Display(out, args.video, screen)
    try:
        if args.source.startswith("render:"):
            shown = watch_rendered(args.source, display, args.frames)
        else:
            shown = watch_camera(args.source, display, args.frames, args.config, args.tokens)
    except UncalibratedTable as e:
        print(f"cannot watch: {e}", file=sys.stderr)
        return 2
    finally:
        display.close()
    where = f" into {out}" if out is not None else ""
    print(f"watched {shown} frames{where}")
    return 0

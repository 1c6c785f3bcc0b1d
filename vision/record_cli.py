"""`python -m vision record` and `python -m vision read`: keep a night's frames and cues, and read every
casting of a recording again.

    python -m vision record --source SPEC --out DIR [--profile FILE] [--places FILE] [--seconds N] [--every S]
        Frames at a reduced rate (one every S seconds, 0.5 by default), whole around each cue. Cues: a
        rendered source says when its castings start (and where its players meant to point: the
        answers); with a camera, press Enter at each "In-can-to!".
    python -m vision read --recording DIR [--places FILE] [--profile FILE] [--json]
        Every casting of the recording, read with its own profile and places unless others are given,
        and scored against what the table answered (answers.jsonl): right / wrong / unsure per wand,
        per casting and overall. JSON: {"castings": [...], "score": {...}}.
"""
from __future__ import annotations

import argparse
import json
import queue
import sys
import threading
import time
from pathlib import Path

from vision.config import ConfigError
from vision.profile import ProfileError, save_places, save_profile
from vision.recording import Answer, Cue, Recorder, RecordingError, overall, read_recording
from vision.sources.errors import BadSourceSpec, SourceUnavailable


def record(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision record", description="keep a night's frames and cues")
    parser.add_argument("--source", required=True, help="picamera2, camera:N, a video, a folder or render:...")
    parser.add_argument("--out", type=Path, required=True, help="the recording's folder")
    parser.add_argument("--profile", type=Path, help="the table's profile to keep with the frames")
    parser.add_argument("--places", type=Path, help="the places file to keep with the frames")
    parser.add_argument("--seconds", type=float, default=4 * 3600.0, help="stop after this long (the source's time)")
    parser.add_argument("--every", type=float, default=0.5, help="seconds between frames kept away from a cue")
    args = parser.parse_args(argv)
    try:
        kept, cues = _record(args)
    except (BadSourceSpec, SourceUnavailable, OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"kept {kept} frames and {cues} cues in {args.out}")
    return 0


def _record(args: argparse.Namespace) -> tuple[int, int]:
    from vision.sources import open_source

    source = open_source(args.source)
    rendered = hasattr(source, "rig")
    if rendered and args.profile is None:  # a rendered table brings its own profile and places
        args.out.mkdir(parents=True, exist_ok=True)
        save_profile(source.profile(), args.out / "profile.json")  # type: ignore[attr-defined]
        save_places(source.places(), args.out / "places.json")  # type: ignore[attr-defined]
    presses = None if rendered else _enter_presses()
    cues, last_cue, start = 0, None, None
    with Recorder(args.out, args.profile, args.places, args.every) as recorder:
        try:
            while (frame := source.read()) is not None:
                start = frame.t if start is None else start
                if frame.t - start > args.seconds:
                    break
                cue_at = getattr(source, "cue_at", None) if rendered else _pressed(presses)
                if cue_at is not None and cue_at != last_cue:
                    wands = tuple(sorted(source.scene.gestures)) if rendered else (1, 2, 3, 4)  # type: ignore[attr-defined]
                    legal = tuple(source.scene.layout.legal) if rendered else None  # type: ignore[attr-defined]
                    recorder.cue(Cue(float(cue_at), wands, legal))
                    if rendered:  # the rendered players say where they meant to point, as the table would
                        truth = {k: g.target for k, g in source.scene.gestures.items()}  # type: ignore[attr-defined]
                        recorder.answer(Answer(float(cue_at), truth))
                    last_cue, cues = cue_at, cues + 1
                recorder.add(frame)
        finally:
            source.close()
        return recorder.frames, cues


def _enter_presses() -> queue.Queue[float]:
    """Times (monotonic, the camera's clock) at which Enter was pressed."""
    presses: queue.Queue[float] = queue.Queue()

    def listen() -> None:
        for _ in sys.stdin:
            presses.put(time.monotonic())
    threading.Thread(target=listen, daemon=True).start()
    return presses


def _pressed(presses: queue.Queue[float] | None) -> float | None:
    try:
        return presses.get_nowait() if presses is not None else None
    except queue.Empty:
        return None


def read(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision read", description="read every casting of a recording")
    parser.add_argument("--recording", type=Path, required=True)
    parser.add_argument("--places", type=Path, help="places file (default: the recording's own)")
    parser.add_argument("--profile", type=Path, help="profile (default: the recording's own)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        castings = read_recording(args.recording, args.places, args.profile)
        readings = [c.as_dict() for c in castings]
        score = overall([c.score for c in castings if c.score is not None])
    except (RecordingError, ProfileError, ConfigError, SourceUnavailable, BadSourceSpec, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"castings": readings, "score": score}))
        return 0
    for c in castings:
        decided = c.result.as_dicts() if c.result is not None else []
        wands = ", ".join(f"wand {w['wand']}: {w['target'] or w['status']}" for w in decided)
        judged = "" if c.score is None else "  [" + ", ".join(f"{k}: {v}" for k, v in c.score.wands.items()) + "]"
        print(f"cue at {c.cue.t:.2f} s: {wands or 'not decided'}{judged}")
    if score["wands"]:
        print(f"against the table's answers: {score['right']} right, {score['wrong']} wrong, {score['unsure']} asked "
              f"of {score['wands']} wands in {score['castings']} castings")
    return 0

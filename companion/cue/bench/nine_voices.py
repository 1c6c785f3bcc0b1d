"""The cue's tuning figures over all nine dev voices, with why each missed chant was missed.

`python -m companion.cue.bench.nine_voices loud|babble10|near [--cache DIR]`:

- ``loud``: two unseen styles of each dev voice in each room at 20 and 15 dB, seeds 101 and 303
  (216 chants), the bench's own ``detection_trials`` draws;
- ``babble10``: babble at 10 dB, three styles a voice on seed 101 and four on seed 303 (63 chants);
- ``near``: an hour of the nine voices' near misses over table noise (seed 7, the bench's
  ``false_triggers`` with its near-miss offset), and what fired.

For each missed chant, every phrase cut near it is printed with the model's score, the distance to
the nearest take and how many times further its nearest near miss was. Dev voices only: the
held-out panel is never read here. Nothing here is used at the table.
"""
from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.cue.bench import (DEV_VOICES, ROOMS, Scene, TalkRun, _trial, chant_in_noise, enrol_chorus,
                                 false_triggers, listen, talk_pool, unseen_styles)
from companion.cue.bench.chorus import CHANT, NEAR_MISSES, Take
from companion.cue.config import CueConfig
from companion.cue.detector import ChantDetector, Verdict

NEAR_S = (1.5, 1.0)  # phrases this long before and after a missed chant's end are shown with it


@dataclass(frozen=True)
class Tally:
    heard: int
    chants: int
    threshold: float
    misses: tuple[str, ...]  # one line per missed chant: who, how, where, and the phrases near it


def chants_heard(scene: Scene, per_voice: int, snrs: Sequence[float], rooms: Sequence[str] = ROOMS,
                 config: CueConfig = CueConfig()) -> Tally:
    """The bench's detection trials (the same draws from ``scene.seed``), counted, each miss explained."""
    with tempfile.TemporaryDirectory(prefix="incanto-nine-") as tmp:
        book = enrol_chorus(scene, Path(tmp) / "book", config)
    rng = np.random.default_rng(scene.seed)
    pool = talk_pool(scene)
    heard, chants, misses = 0, 0, []
    for voice in scene.voices:
        for speed, pitch in unseen_styles(rng, per_voice):
            for room in rooms:
                for snr in snrs:
                    mix, truth = chant_in_noise(scene, Take(CHANT, voice, speed, pitch), snr, pool, rng, room)
                    detector = ChantDetector(book, config)
                    seen: list[Verdict] = []
                    detector.when_phrase = seen.append
                    trial = _trial(voice, snr, listen(detector, mix, 0.0), truth, room)
                    chants += 1
                    heard += trial.heard
                    if not trial.heard:
                        near = [v for v in seen if v.phrase.t_end > truth - NEAR_S[0] and v.phrase.t_start < truth + NEAR_S[1]]
                        misses.append(f"{voice} ({speed}, {pitch}) {room} {snr:g} dB, ends at {truth:.2f} s: "
                                      + ("; ".join(map(_why, near)) or "no phrase cut near it"))
    return Tally(heard, chants, book.threshold, tuple(misses))


def _why(verdict: Verdict) -> str:
    score = "off" if verdict.score is None else f"{verdict.score:.3f}"
    ratio = verdict.near_miss_distance / verdict.distance if np.isfinite(verdict.distance) and verdict.distance > 0 else None
    margin = "" if ratio is None or not np.isfinite(ratio) else f", near miss {ratio:.2f} x further"
    return (f"[{verdict.phrase.t_start:.2f}-{verdict.phrase.t_end:.2f} s] model {score}, "
            f"takes at {verdict.distance:.2f}{margin}")


def near_miss_hour(cache: Path, config: CueConfig = CueConfig(), hours: float = 1.0) -> TalkRun:
    """False cues in ``hours`` of the nine voices' near misses over table noise."""
    scene = Scene(cache, DEV_VOICES, 7)
    with tempfile.TemporaryDirectory(prefix="incanto-nine-") as tmp:
        book = enrol_chorus(scene, Path(tmp) / "book", config)
    return false_triggers(scene, book, config, 3600.0 * hours, NEAR_MISSES, 2)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.cue.bench.nine_voices", description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("loud", "babble10", "near"))
    parser.add_argument("--cache", type=Path, default=Path("var/cue/bench-speech"), help="synthesised speech kept here")
    args = parser.parse_args(argv)
    if args.what == "near":
        run = near_miss_hour(args.cache)
        print(f"near misses of the nine dev voices: {run.false_triggers} false cues in {run.hours:.2f} h "
              f"({run.phrases} phrases, processor share {run.listening_s / (run.hours * 3600.0):.4f})")
        for fired in run.fired:
            print("  fired:", fired)
        return 0
    runs = ([(101, 2, (20.0, 15.0), ROOMS), (303, 2, (20.0, 15.0), ROOMS)] if args.what == "loud"
            else [(101, 3, (10.0,), ("babble",)), (303, 4, (10.0,), ("babble",))])
    heard = chants = 0
    for seed, per_voice, snrs, rooms in runs:
        tally = chants_heard(Scene(args.cache, DEV_VOICES, seed), per_voice, snrs, rooms)
        heard, chants = heard + tally.heard, chants + tally.chants
        print(f"seed {seed}: {tally.heard} of {tally.chants} heard (threshold {tally.threshold:.2f})")
        for miss in tally.misses:
            print("  missed:", miss)
    print(f"{args.what}: {heard} of {chants} heard ({heard / chants:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

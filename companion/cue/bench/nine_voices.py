"""The cue's tuning figures over all nine dev voices, with why each missed chant was missed.

`python -m companion.cue.bench.nine_voices loud|babble10|near|talk|quick|dev|spent [--cache DIR] [--finder]`
(``--finder``: with the chant finder on):

- ``loud``: two unseen styles of each dev voice in each room at 20 and 15 dB, seeds 101 and 303
  (216 chants), the bench's own ``detection_trials`` draws;
- ``babble10``: babble at 10 dB, three styles a voice on seed 101 and four on seed 303 (63 chants);
- ``near``: an hour of the nine voices' near misses over table noise (seed 7, the bench's
  ``false_triggers`` with its near-miss offset), and what fired;
- ``talk``: an hour of the nine voices' table talk and near misses (seed 7, the bench's own talk
  figure, ``false_triggers`` as ``--panel dev`` listens), and what fired;
- ``quick``: the quick dev bench's own chants (``--panel dev --quick``: its three voices, two styles
  each, every room at 20, 15, 10 and 5 dB, seed 7), its detection figures, and why each chant it
  misses at 10 dB and up was missed (its talk is not listened to: that is the bench's to count);
- ``dev``: the same for the whole dev bench's chants (``--panel dev``: nine voices, six styles each,
  648 chants);
- ``spent``: the same for the spent panel's chants (``--panel spent``: voices the model never heard).

For each missed chant, every phrase cut near it is printed with the model's score, the distance to
the nearest take and how many times further its nearest near miss was. Dev voices only: the
held-out panel is never read here. Nothing here is used at the table.
"""
from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from companion.cue.bench import (DEV_SEED, DEV_VOICES, LOW_SNR_DB, LOWEST_SNR_DB, ROOMS, SNRS_DB, Scene, TalkRun, _trial,
                                 TRUE_END_DB, chant_in_noise, enrol_chorus, false_triggers, listen, panel_voices, talk_pool,
                                 unseen_styles)
from companion.cue.bench.chorus import CHANT, NEAR_MISSES, Take, say
from companion.cue.bench.table_noise import spoken_span
from companion.cue.config import CueConfig
from companion.cue.detector import ChantDetector, Verdict
from companion.cue.features import SAMPLE_RATE, chant_features
from companion.cue.phrases import Phrase
from companion.cue.templates import closest

NEAR_S = (1.5, 1.0)  # phrases this long before and after a missed chant's end are shown with it


@dataclass(frozen=True)
class Tally:
    heard: int
    chants: int
    threshold: float
    misses: tuple[str, ...]  # one line per missed chant: who, how, where, and the phrases near it
    # (room, dB) -> (heard, chants)
    by_room: dict[tuple[str, float], tuple[int, int]] = field(default_factory=dict)

    def rate(self, snrs: Sequence[float], rooms: Sequence[str] = ROOMS) -> float | None:
        """The share heard at ``snrs`` in ``rooms``, rounded as the bench rounds (None: no chant)."""
        counts = [self.by_room[k] for k in self.by_room if k[1] in snrs and k[0] in rooms]
        chants = sum(n for _, n in counts)
        return round(sum(h for h, _ in counts) / chants, 4) if chants else None


def chants_heard(scene: Scene, per_voice: int, snrs: Sequence[float], rooms: Sequence[str] = ROOMS,
                 config: CueConfig = CueConfig(), explained_from_db: float = -np.inf) -> Tally:
    """The bench's detection trials (the same draws from ``scene.seed``), counted, each miss at
    ``explained_from_db`` and up explained."""
    with tempfile.TemporaryDirectory(prefix="incanto-nine-") as tmp:
        book = enrol_chorus(scene, Path(tmp) / "book", config)
    rng = np.random.default_rng(scene.seed)
    pool = talk_pool(scene)
    heard, chants, misses = 0, 0, []
    by_room: dict[tuple[str, float], tuple[int, int]] = {}
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
                    was = by_room.get((room, snr), (0, 0))
                    by_room[(room, snr)] = (was[0] + trial.heard, was[1] + 1)
                    if not trial.heard and snr >= explained_from_db:
                        near = [v for v in seen if v.phrase.t_end > truth - NEAR_S[0] and v.phrase.t_start < truth + NEAR_S[1]]
                        misses.append(f"{voice} ({speed}, {pitch}) {room} {snr:g} dB, ends at {truth:.2f} s: "
                                      + ("; ".join(_why(v, detector) for v in near) or "no phrase cut near it")
                                      + _on_the_chant(detector, mix, Take(CHANT, voice, speed, pitch), truth, scene.cache))
    return Tally(heard, chants, book.threshold, tuple(misses), by_room)


def _why(verdict: Verdict, detector: ChantDetector | None = None) -> str:
    score = "off" if verdict.score is None else f"{verdict.score:.3f}"
    if detector is not None and verdict.take is None and not np.isfinite(verdict.distance):
        # Ruled out by the model before any take was asked: how near the takes and the near
        # misses were all the same, so a miss says which stage lost it.
        features = chant_features(verdict.phrase.audio, detector.book.feature_config)
        cfg = detector.config
        _, distance = closest(detector.chants, features, cfg.band, cfg.max_stretch)
        _, near = closest(detector.near_misses, features, cfg.band, cfg.max_stretch)
        verdict = replace(verdict, distance=distance, near_miss_distance=near)
        score += " (ruled out)"
    found = ""
    if detector is not None and detector.finder is not None:
        # Where the chant finder hears the chant, judged with its word as the detector judges it.
        best = max(p for _, _, p in detector.finder.windows(verdict.phrase.audio))
        found = f"; finder {best:.3f}"
        judged = [(detector.judge(cut, score=p), cut) for cut, p in detector.found(verdict.phrase)]
        for window, cut in sorted(judged, key=lambda j: j[0].distance)[:1]:
            found += f" at [{cut.t_start:.2f}-{cut.t_end:.2f} s], takes at {window.distance:.2f}{_further(window)}"
    return (f"[{verdict.phrase.t_start:.2f}-{verdict.phrase.t_end:.2f} s] model {score}, "
            f"takes at {verdict.distance:.2f}{_further(verdict)}{found}")


def _further(verdict: Verdict) -> str:
    """How many times further than the takes the nearest near miss was, when both were measured."""
    if not (np.isfinite(verdict.distance) and verdict.distance > 0):
        return ""
    ratio = verdict.near_miss_distance / verdict.distance
    return f", near miss {ratio:.2f} x further" if np.isfinite(ratio) else ""


def _on_the_chant(detector: ChantDetector, mix: np.ndarray, take: Take, truth: float, cache: Path) -> str:
    """How the takes judge a cut exactly on the chant (its clean take's speech, -30 dB, with the
    cutter's margin either side) with the model all but sure (0.99): whether finding the chant
    would be enough, or the takes and near misses turn it away wherever it is cut."""
    clean = say(take, cache)
    first, last = spoken_span(clean, -30.0)
    at = truth - spoken_span(clean, TRUE_END_DB)[1]
    margin = detector.config.voice.margin_s
    a, b = (round((at + t) * SAMPLE_RATE) for t in (first - margin, last + margin))
    verdict = detector.judge(Phrase(mix[max(0, a) : b], max(0, a) / SAMPLE_RATE, at + last, 0.0), score=0.99)
    return (f" || cut on the chant, model at 0.99: takes at {verdict.distance:.2f}{_further(verdict)}"
            + (", the chant" if verdict.is_chant else ", not the chant"))


def near_miss_hour(cache: Path, config: CueConfig = CueConfig(), hours: float = 1.0, talk: bool = False) -> TalkRun:
    """False cues in ``hours`` of the nine voices' near misses over table noise (with ``talk``: of
    their table talk and near misses, as the bench's talk figure listens to them)."""
    scene = Scene(cache, DEV_VOICES, DEV_SEED)
    with tempfile.TemporaryDirectory(prefix="incanto-nine-") as tmp:
        book = enrol_chorus(scene, Path(tmp) / "book", config)
    if talk:
        return false_triggers(scene, book, config, 3600.0 * hours)
    return false_triggers(scene, book, config, 3600.0 * hours, NEAR_MISSES, 2)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.cue.bench.nine_voices", description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("loud", "babble10", "near", "talk", "quick", "dev", "spent"))
    parser.add_argument("--cache", type=Path, default=Path("var/cue/bench-speech"), help="synthesised speech kept here")
    parser.add_argument("--finder", action="store_true", help="with the chant finder on (``chant_finder``)")
    args = parser.parse_args(argv)
    config = CueConfig(chant_finder=args.finder)
    if args.what in ("near", "talk"):
        run = near_miss_hour(args.cache, config, talk=args.what == "talk")
        print(f"{'near misses' if args.what == 'near' else 'table talk'} of the nine dev voices: "
              f"{run.false_triggers} false cues in {run.hours:.2f} h "
              f"({run.phrases} phrases, processor share {run.listening_s / (run.hours * 3600.0):.4f})")
        for fired in run.fired:
            print("  fired:", fired)
        return 0
    if args.what in ("quick", "dev", "spent"):
        _, voices, seed = panel_voices("spent" if args.what == "spent" else "dev")
        quick = chants_heard(Scene(args.cache, voices[:3] if args.what == "quick" else voices, seed),
                             2 if args.what == "quick" else 6, SNRS_DB + (LOW_SNR_DB, LOWEST_SNR_DB),
                             config=config, explained_from_db=LOW_SNR_DB)
        print(f"{args.what} bench chants (threshold {quick.threshold:.3f}): cue_detection_rate {quick.rate(SNRS_DB)}, "
              f"_10db {quick.rate((LOW_SNR_DB,))}, _10db_babble {quick.rate((LOW_SNR_DB,), ('babble',))}, "
              f"_5db {quick.rate((LOWEST_SNR_DB,))}")
        for miss in quick.misses:
            print("  missed:", miss)
        return 0
    runs = ([(101, 2, (20.0, 15.0), ROOMS), (303, 2, (20.0, 15.0), ROOMS)] if args.what == "loud"
            else [(101, 3, (10.0,), ("babble",)), (303, 4, (10.0,), ("babble",))])
    heard = chants = 0
    for seed, per_voice, snrs, rooms in runs:
        tally = chants_heard(Scene(args.cache, DEV_VOICES, seed), per_voice, snrs, rooms, config)
        heard, chants = heard + tally.heard, chants + tally.chants
        print(f"seed {seed}: {tally.heard} of {tally.chants} heard (threshold {tally.threshold:.2f})")
        for miss in tally.misses:
            print("  missed:", miss)
    print(f"{args.what}: {heard} of {chants} heard ({heard / chants:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

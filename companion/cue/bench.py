"""How well the spoken cue works, measured on synthetic players at a synthetic table.

`python -m companion.cue.bench [--quick] [--json]`. Every player (an espeak-ng voice) enrols three
clean takes; the threshold is chosen from those alone. Detection is then measured on held-out
takes (other speeds and pitches) mixed into table noise at several levels, false triggers on a long
stream of table talk and near-miss phrases over table noise, and timing against where the clean
chant's last syllable ends in the mix.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.cue import Cue, templates
from companion.cue.chorus import CHANT, NEAR_MISSES, TABLE_TALK, VOICES, Take, say
from companion.cue.config import CueConfig
from companion.cue.detector import ChantDetector, Verdict
from companion.cue.features import SAMPLE_RATE
from companion.cue.table_noise import mix_at, spoken_span, table_noise
from companion.cue.templates import ChantBook
from companion.figures import print_figures

# (speed, pitch) of the enrolment takes: everyday voice, lower and slower, higher and quicker,
# as the enrol command asks players to do.
ENROL_STYLES = ((140, 50), (160, 40), (175, 65))
HELD_OUT_STYLES = ((115, 35), (130, 70), (190, 40), (210, 62), (150, 85))
SNRS_DB = (25.0, 20.0, 15.0)
STRESS_SNR_DB = 10.0  # chatter nearly as loud as the caller: reported, not part of the headline rate
HIT_WINDOW_S = 0.3  # a cue this close to the chant's end counts as hearing it
BLOCK = 512


@dataclass(frozen=True)
class Scene:
    """Where the synthetic audio is cached and which players sit at the table."""

    cache: Path
    voices: tuple[str, ...] = VOICES
    seed: int = 7


def enrol_chorus(scene: Scene, folder: Path, config: CueConfig = CueConfig()) -> ChantBook:
    """Every voice enrols three clean takes; returns the book with its chosen threshold."""
    book = templates.empty()
    for voice in scene.voices:
        takes = [say(Take(CHANT, voice, s, p), scene.cache) for s, p in ENROL_STYLES]
        book = templates.enrol(folder, voice, takes, config.threshold_factor, config.features)
    return book


def talk_pool(scene: Scene, voices: Sequence[str] = ("en-us", "en+f3", "en-029", "en-gb-scotland")) -> list[np.ndarray]:
    """Phrases for the background chatter, by voices that may or may not be players."""
    return [say(Take(text, v, 165), scene.cache) for text in TABLE_TALK for v in voices]


def listen(detector: ChantDetector, audio: np.ndarray, t0: float) -> list[Cue]:
    """Feed (n,) audio through the detector in microphone-sized blocks starting at host time t0."""
    cues = []
    for start in range(0, len(audio), BLOCK):
        cues += detector.hear(audio[start : start + BLOCK], t0 + start / SAMPLE_RATE)
    return cues + detector.flush()


def chant_in_noise(scene: Scene, take: Take, snr_db: float, pool: Sequence[np.ndarray],
                   rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """(n,) table noise with the take spoken 1.5 s in, and the true end of its last syllable
    in seconds from the start of the mix (from the clean take's own envelope)."""
    clean = say(take, scene.cache)
    # Off the detector's 10 ms grid, so timing is measured rather than aligned by construction.
    at = int(1.5 * SAMPLE_RATE) + int(rng.integers(0, 160))
    background = table_noise(len(clean) + 3 * SAMPLE_RATE, pool, rng)
    return mix_at(background, clean, at, snr_db), at / SAMPLE_RATE + spoken_span(clean)[1]


@dataclass(frozen=True)
class Trial:
    voice: str
    snr_db: float
    heard: bool
    right_player: bool
    timing_error_ms: float | None


def detection_trials(scene: Scene, book: ChantBook, config: CueConfig, styles: Sequence[tuple[int, int]],
                     snrs: Sequence[float]) -> Iterator[Trial]:
    rng = np.random.default_rng(scene.seed)
    pool = talk_pool(scene)
    for voice in scene.voices:
        for speed, pitch in styles:
            for snr in snrs:
                mix, truth = chant_in_noise(scene, Take(CHANT, voice, speed, pitch), snr, pool, rng)
                yield _trial(voice, snr, listen(ChantDetector(book, config), mix, 0.0), truth)


def _trial(voice: str, snr: float, cues: list[Cue], truth: float) -> Trial:
    hits = [c for c in cues if abs(c.t_end - truth) <= HIT_WINDOW_S]
    if not hits:
        return Trial(voice, snr, False, False, None)
    best = min(hits, key=lambda c: abs(c.t_end - truth))
    return Trial(voice, snr, True, best.player == voice, abs(best.t_end - truth) * 1000.0)


def talk_stream(scene: Scene, seconds: float, snr_db: float, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Minute-long chunks of players talking (table talk and near misses, never the chant) over
    table noise: each phrase ``snr_db`` above the noise, with pauses of 0.2-1.5 s."""
    pool = talk_pool(scene)
    texts = TABLE_TALK + NEAR_MISSES * 2  # near misses twice as often as any one line of talk
    left = seconds
    while left > 0:
        n = int(min(60.0, left) * SAMPLE_RATE)
        chunk = table_noise(n, pool, rng)
        at = int(rng.uniform(0.2, 1.0) * SAMPLE_RATE)
        while True:
            take = Take(texts[rng.integers(len(texts))], scene.voices[rng.integers(len(scene.voices))],
                        int(rng.integers(120, 200)), int(rng.integers(30, 75)))
            phrase = say(take, scene.cache)
            if at + len(phrase) > n:
                break
            chunk = mix_at(chunk, phrase, at, snr_db)
            at += len(phrase) + int(rng.uniform(0.2, 1.5) * SAMPLE_RATE)
        yield chunk
        left -= n / SAMPLE_RATE


@dataclass(frozen=True)
class TalkRun:
    false_triggers: int
    hours: float
    phrases: int  # phrases cut from the talk and matched against the book
    nearest: float  # the talk phrase that came closest to the chant: the margin under the threshold
    listening_s: float  # processor time spent listening (cutting and matching, not synthesis)


def false_triggers(scene: Scene, book: ChantBook, config: CueConfig, seconds: float, snr_db: float = 20.0) -> TalkRun:
    """Cues heard in ``seconds`` of talk without the chant, the hours that covered and the cost."""
    detector, t, cues, busy = ChantDetector(book, config), 0.0, 0, 0.0
    phrases: list[Verdict] = []
    detector.when_phrase = phrases.append
    rng = np.random.default_rng(scene.seed + 1)
    for chunk in talk_stream(scene, seconds, snr_db, rng):
        started = time.process_time()
        for start in range(0, len(chunk), BLOCK):
            cues += len(detector.hear(chunk[start : start + BLOCK], t + start / SAMPLE_RATE))
        busy += time.process_time() - started
        t += len(chunk) / SAMPLE_RATE
    cues += len(detector.flush())
    nearest = min((v.distance for v in phrases), default=float("inf"))
    return TalkRun(cues, t / 3600.0, len(phrases), nearest, busy)


def measure(quick: bool = False) -> dict[str, object]:
    """The cue's figures: detection rate, false triggers per hour, median timing error, and details."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="incanto-cue-bench-") as tmp:
        scene = Scene(Path(tmp) / "speech", VOICES[:6] if quick else VOICES)
        config = CueConfig()
        book = enrol_chorus(scene, Path(tmp) / "book", config)
        styles = HELD_OUT_STYLES[:2] if quick else HELD_OUT_STYLES
        trials = list(detection_trials(scene, book, config, styles, SNRS_DB))
        stress = list(detection_trials(scene, book, config, styles, (STRESS_SNR_DB,)))
        talk = false_triggers(scene, book, config, 360.0 if quick else 3660.0)
    figures = _figures(trials, talk, book, len(scene.voices), len(styles), time.perf_counter() - started)
    figures["cue_detection_rate_stress_10db"] = round(float(np.mean([t.heard for t in stress])), 4)
    return figures


def _figures(trials: list[Trial], talk: TalkRun, book: ChantBook, voices: int, styles: int,
             seconds: float) -> dict[str, object]:
    heard = [t for t in trials if t.heard]
    errors = [t.timing_error_ms for t in heard if t.timing_error_ms is not None]
    return {
        "cue_detection_rate": round(len(heard) / len(trials), 4),
        "cue_false_triggers_per_hour": round(talk.false_triggers / talk.hours, 3),
        "cue_timing_error_ms_p50": round(float(np.median(errors)), 1) if errors else None,
        "cue_timing_error_ms_p90": round(float(np.percentile(errors, 90)), 1) if errors else None,
        "cue_detection_rate_by_snr_db": {str(s): round(np.mean([t.heard for t in trials if t.snr_db == s]), 4)
                                         for s in sorted({t.snr_db for t in trials}, reverse=True)},
        "cue_right_player_rate": round(np.mean([t.right_player for t in heard]), 4) if heard else None,
        "voices": voices, "enrolment_takes_per_voice": len(ENROL_STYLES), "held_out_takes": len(trials),
        "held_out_styles_per_voice": styles, "talk_hours": round(talk.hours, 3),
        "false_triggers": talk.false_triggers, "talk_phrases_matched": talk.phrases,
        "templates": len(book.templates), "threshold": round(book.threshold, 3),
        "talk_nearest_distance": round(talk.nearest, 3),
        # Processor seconds per second of sound while listening to talk: under 1 keeps up.
        "listening_cpu_per_audio_second": round(talk.listening_s / (talk.hours * 3600.0), 4),
        "bench_seconds": round(seconds, 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = argparse.ArgumentParser(prog="python -m companion.cue.bench", description=__doc__.splitlines()[0])
    args.add_argument("--quick", action="store_true", help="fewer voices and six minutes of talk")
    args.add_argument("--json", action="store_true", help="print one JSON object")
    parsed = args.parse_args(argv)
    figures = measure(parsed.quick)
    print_figures(figures, parsed.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

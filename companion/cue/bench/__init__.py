"""How well the spoken cue works, measured on synthetic players at a synthetic table.

`python -m companion.cue.bench [--panel dev|held-out] [--quick] [--json]`. Each player (a voice of a
speech engine) enrols as the enrol command asks: four takes of the chant (everyday, lower and slower,
higher and quicker, everyday again) and three near misses. Detection is then measured on unseen
takes (other speeds and pitches) inside table noise (chatter, pink or brown room noise, dice) at 20,
15 and 10 dB; false cues on long streams of table talk, and of near misses only; timing against the
end of the clean chant's last syllable at -40 dB.

The headline figures come from the held-out panel (``held_out.json``: an engine none of the
detector's defaults was tuned on); the dev panel (espeak-ng and festival voices) is for tuning.
Nothing here is used at the table.
"""
from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from companion.cue import Cue, templates
from companion.cue.bench.chorus import CHANT, NEAR_MISSES, TABLE_TALK, VOICES, Take, engine_of, say
from companion.cue.bench.table_noise import mix_at, spoken_span, table_noise
from companion.cue.config import CueConfig
from companion.cue.detector import ChantDetector, Verdict
from companion.cue.enrol import NEAR_MISS_PROMPTS
from companion.cue.features import SAMPLE_RATE
from companion.cue.templates import ChantBook

HELD_OUT_FILE = Path(__file__).with_name("held_out.json")
DEV_VOICES: tuple[str, ...] = VOICES[:6] + ("festival:kal", "festival:ked", "festival:slt")
# (speed, pitch) of the enrolment takes, as the enrol command asks players to say them.
ENROL_STYLES = ((150, 50), (125, 38), (178, 64), (155, 45))
SNRS_DB = (20.0, 15.0)
LOW_SNR_DB = 10.0
TRUE_END_DB = -40.0  # the last syllable ends where the clean take falls 40 dB under its peak
HIT_WINDOW_S = 0.3  # a cue this close to the chant's end counts as hearing it
BLOCK = 512


@dataclass(frozen=True)
class Scene:
    """Where the synthetic audio is cached, which players sit at the table and the seed of the run."""

    cache: Path
    voices: tuple[str, ...] = DEV_VOICES
    seed: int = 7
    talkers: tuple[str, ...] = field(default=())  # voices of the chatter; the players when empty

    @property
    def chatterers(self) -> tuple[str, ...]:
        return self.talkers or self.voices


def held_out_panel() -> tuple[str, tuple[str, ...], int]:
    """(engine, voices, seed) fixed in ``held_out.json`` before tuning."""
    data = json.loads(HELD_OUT_FILE.read_text())
    return data["engine"], tuple(data["voices"]), int(data["seed"])


def enrol_chorus(scene: Scene, folder: Path, config: CueConfig = CueConfig(), near_misses: bool = True) -> ChantBook:
    """Every voice enrols its four takes (and its near misses); returns the book."""
    book = templates.empty()
    for voice in scene.voices:
        takes = [say(Take(CHANT, voice, s, p), scene.cache) for s, p in ENROL_STYLES]
        negatives = [say(Take(text, voice), scene.cache) for text in NEAR_MISS_PROMPTS] if near_misses else []
        book = templates.enrol(folder, voice, takes, config.threshold_factor, config.features, negatives)
    return book


def talk_pool(scene: Scene) -> list[np.ndarray]:
    """Phrases for the background chatter."""
    return [say(Take(text, v, 165), scene.cache) for text in TABLE_TALK for v in scene.chatterers[:4]]


def listen(detector: ChantDetector, audio: np.ndarray, t0: float) -> list[Cue]:
    """Feed (n,) audio through the detector in microphone-sized blocks starting at host time t0."""
    cues = []
    for start in range(0, len(audio), BLOCK):
        cues += detector.hear(audio[start : start + BLOCK], t0 + start / SAMPLE_RATE)
    return cues + detector.flush()


def unseen_styles(rng: np.random.Generator, count: int) -> list[tuple[int, int]]:
    """(speed, pitch) pairs away from every enrolment style: slower, quicker, lower, higher."""
    styles: list[tuple[int, int]] = []
    while len(styles) < count:
        speed, pitch = int(rng.integers(105, 215)), int(rng.integers(22, 88))
        if all(abs(speed - s) > 8 or abs(pitch - p) > 8 for s, p in ENROL_STYLES):
            styles.append((speed, pitch))
    return styles


def chant_in_noise(scene: Scene, take: Take, snr_db: float, pool: Sequence[np.ndarray],
                   rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """(n,) table noise with the take spoken 1.5 s in, and the true end of its last syllable
    in seconds from the start of the mix (-40 dB on the clean take's own envelope)."""
    clean = say(take, scene.cache)
    # Off the detector's 10 ms grid, so timing is measured rather than aligned by construction.
    at = int(1.5 * SAMPLE_RATE) + int(rng.integers(0, 160))
    hum = "pink" if rng.random() < 0.5 else "brown"
    background = table_noise(len(clean) + 3 * SAMPLE_RATE, pool, rng, hum)
    return mix_at(background, clean, at, snr_db), at / SAMPLE_RATE + spoken_span(clean, TRUE_END_DB)[1]


@dataclass(frozen=True)
class Trial:
    voice: str
    snr_db: float
    heard: bool
    right_player: bool
    timing_error_ms: float | None  # signed: positive when the cue said the chant ended later than it did


def detection_trials(scene: Scene, book: ChantBook, config: CueConfig, per_voice: int,
                     snrs: Sequence[float]) -> Iterator[Trial]:
    rng = np.random.default_rng(scene.seed)
    pool = talk_pool(scene)
    for voice in scene.voices:
        for speed, pitch in unseen_styles(rng, per_voice):
            for snr in snrs:
                mix, truth = chant_in_noise(scene, Take(CHANT, voice, speed, pitch), snr, pool, rng)
                yield _trial(voice, snr, listen(ChantDetector(book, config), mix, 0.0), truth)


def _trial(voice: str, snr: float, cues: list[Cue], truth: float) -> Trial:
    hits = [c for c in cues if abs(c.t_end - truth) <= HIT_WINDOW_S]
    if not hits:
        return Trial(voice, snr, False, False, None)
    best = min(hits, key=lambda c: abs(c.t_end - truth))
    return Trial(voice, snr, True, best.player == voice, (best.t_end - truth) * 1000.0)


def talk_stream(scene: Scene, seconds: float, texts: Sequence[str], rng: np.random.Generator,
                snrs: Sequence[float] = (20.0, 15.0, 10.0)) -> Iterator[np.ndarray]:
    """Minute-long chunks of players saying ``texts`` (never the chant) over table noise, each
    minute at the next of ``snrs`` above the noise, with pauses of 0.2-1.5 s."""
    pool = talk_pool(scene)
    left, minute = seconds, 0
    while left > 0:
        n = int(min(60.0, left) * SAMPLE_RATE)
        snr = snrs[minute % len(snrs)]
        chunk = table_noise(n, pool, rng, "pink" if minute % 2 else "brown")
        at = int(rng.uniform(0.2, 1.0) * SAMPLE_RATE)
        while True:
            take = Take(texts[rng.integers(len(texts))], scene.voices[rng.integers(len(scene.voices))],
                        int(rng.choice((125, 150, 180))), int(rng.choice((35, 50, 65))))
            phrase = say(take, scene.cache)
            if at + len(phrase) > n:
                break
            chunk = mix_at(chunk, phrase, at, snr)
            at += len(phrase) + int(rng.uniform(0.2, 1.5) * SAMPLE_RATE)
        yield chunk
        left -= n / SAMPLE_RATE
        minute += 1


@dataclass(frozen=True)
class TalkRun:
    false_triggers: int
    hours: float
    phrases: int  # phrases cut from the talk and matched against the book
    listening_s: float  # processor time spent listening (cutting and matching, not synthesis)
    fired: tuple[str, ...] = ()  # what the false cues were (the phrase's nearest near miss, if any)


def false_triggers(scene: Scene, book: ChantBook, config: CueConfig, seconds: float,
                   texts: Sequence[str] = TABLE_TALK + NEAR_MISSES, seed_offset: int = 1) -> TalkRun:
    """Cues heard in ``seconds`` of talk without the chant, the hours that covered and the cost."""
    detector, t, cues, busy = ChantDetector(book, config), 0.0, 0, 0.0
    phrases: list[Verdict] = []
    detector.when_phrase = phrases.append
    rng = np.random.default_rng(scene.seed + seed_offset)
    for chunk in talk_stream(scene, seconds, texts, rng):
        started = time.process_time()
        for start in range(0, len(chunk), BLOCK):
            cues += len(detector.hear(chunk[start : start + BLOCK], t + start / SAMPLE_RATE))
        busy += time.process_time() - started
        t += len(chunk) / SAMPLE_RATE
    cues += len(detector.flush())
    return TalkRun(cues, t / 3600.0, len(phrases), busy)


def measure(quick: bool = False, panel: str = "held-out", talk_hours: float = 1.0) -> dict[str, object]:
    """The cue's figures on one panel of voices: detection at 20/15 dB and at 10 dB, false cues per
    hour on ``talk_hours`` of table talk and on half as long of near misses only, timing error,
    processor share, and details."""
    started = time.perf_counter()
    engine, voices, seed = held_out_panel() if panel == "held-out" else ("espeak-ng+festival", DEV_VOICES, 7)
    with tempfile.TemporaryDirectory(prefix="incanto-cue-bench-") as tmp:
        scene = Scene(Path(tmp) / "speech", voices[:3] if quick else voices, seed)
        config = CueConfig()
        book = enrol_chorus(scene, Path(tmp) / "book", config)
        per_voice = 3 if quick else 10
        trials = list(detection_trials(scene, book, config, per_voice, SNRS_DB + (LOW_SNR_DB,)))
        stranger = unenrolled_caller_rate(scene, Path(tmp) / "one", config)
        talk = false_triggers(scene, book, config, 300.0 if quick else 3600.0 * talk_hours)
        near = false_triggers(scene, book, config, 300.0 if quick else 1800.0 * talk_hours, NEAR_MISSES, seed_offset=2)
    figures = _figures(trials, talk, near, book)
    figures["cue_unenrolled_caller_rate"] = stranger
    figures.update({"cue_panel": panel, "cue_engine": engine, "cue_held_out_engine": held_out_panel()[0],
                    "cue_voices": list(scene.voices), "cue_bench_seconds": round(time.perf_counter() - started, 1)})
    return figures


def unenrolled_caller_rate(scene: Scene, folder: Path, config: CueConfig) -> float | None:
    """Only the first voice enrolled: how often the others' chants (two styles each, 20 dB) are heard."""
    one = replace(scene, voices=scene.voices[:1])
    book = enrol_chorus(one, folder, config)
    rng = np.random.default_rng(scene.seed + 3)
    pool = talk_pool(scene)
    heard = []
    for voice in scene.voices[1:]:
        for speed, pitch in unseen_styles(rng, 2):
            mix, truth = chant_in_noise(scene, Take(CHANT, voice, speed, pitch), 20.0, pool, rng)
            heard.append(_trial(voice, 20.0, listen(ChantDetector(book, config), mix, 0.0), truth).heard)
    return round(float(np.mean(heard)), 4) if heard else None


def _rate(trials: Sequence[Trial]) -> float | None:
    return round(float(np.mean([t.heard for t in trials])), 4) if trials else None


def _figures(trials: list[Trial], talk: TalkRun, near: TalkRun, book: ChantBook) -> dict[str, object]:
    loud = [t for t in trials if t.snr_db != LOW_SNR_DB]
    errors = [abs(t.timing_error_ms) for t in trials if t.timing_error_ms is not None]
    signed = [t.timing_error_ms for t in trials if t.timing_error_ms is not None]
    heard = [t for t in trials if t.heard]
    cpu = (talk.listening_s + near.listening_s) / ((talk.hours + near.hours) * 3600.0)
    return {
        "cue_detection_rate": _rate(loud),
        "cue_detection_rate_10db": _rate([t for t in trials if t.snr_db == LOW_SNR_DB]),
        "cue_false_triggers_per_hour": round(talk.false_triggers / talk.hours, 3),
        "cue_false_triggers_per_hour_near_miss": round(near.false_triggers / near.hours, 3),
        "cue_timing_error_ms_p50": round(float(np.median(errors)), 1) if errors else None,
        "cue_timing_error_ms_p95": round(float(np.percentile(errors, 95)), 1) if errors else None,
        "cue_timing_bias_ms": round(float(np.median(signed)), 1) if signed else None,
        "cue_detection_rate_by_snr_db": {str(s): _rate([t for t in trials if t.snr_db == s])
                                         for s in sorted({t.snr_db for t in trials}, reverse=True)},
        "cue_right_player_rate": round(float(np.mean([t.right_player for t in heard])), 4) if heard else None,
        "cue_trials": len(trials), "cue_talk_hours": round(talk.hours, 3), "cue_near_miss_hours": round(near.hours, 3),
        "cue_false_triggers": talk.false_triggers, "cue_false_triggers_near_miss": near.false_triggers,
        "cue_talk_phrases": talk.phrases + near.phrases, "cue_threshold": round(book.threshold, 3),
        "cue_enrolment_warnings": list(book.warnings),
        # Processor seconds per second of sound while listening, on this machine: under 1 keeps up.
        "cue_cpu_share": round(cpu, 4),
    }


__all__ = ["CHANT", "Scene", "Take", "chant_in_noise", "enrol_chorus", "engine_of", "false_triggers", "listen",
           "measure", "say", "talk_pool"]

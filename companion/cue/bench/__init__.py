"""How well the spoken cue works, measured on synthetic players in a loud synthetic room.

`python -m companion.cue.bench [--panel dev|held-out|spent] [--quick] [--talk-hours H] [--json]`. Each
player (a voice of a speech engine) enrols as a player would, through the enrol command's own path:
four WAV files of the chant (everyday, lower and slower, higher and quicker, everyday again) and
three of near misses, each with a second of the room's hiss before and after. Detection is then
measured on unseen takes (other speeds and pitches) at 20, 15, 10 and 5 dB in each of three rooms:
stationary noise (pink hiss or brown rumble), babble (three to five others talking at once) and
clatter (dice and cups). False cues on hours of table talk with near misses in it, and of near
misses only, at 20 and 10 dB over the table's mixed noise; timing against the end of the clean
chant's last syllable at -40 dB.

The headline figures come from the held-out panel (``held_out.json``: an engine neither the chant
model was trained on nor any default tuned on); the dev panel (espeak-ng and festival voices, which
the model was trained on) is for tuning, and the spent panel (the last held-out engine, whose
figures were read long ago: flite) shows while tuning how voices the model never heard fare.
Nothing here is used at the table.
"""
from __future__ import annotations

import json
import tempfile
from concurrent.futures import Future, ProcessPoolExecutor
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from companion.cue import Cue, CueError, templates
from companion.cue.audio import write_wav
from companion.cue.bench.chorus import CHANT, NEAR_MISSES, TABLE_TALK, VOICES, Take, engine_of, say
from companion.cue.bench.table_noise import babble, clatter, mix_at, pink_noise, spoken_span, stationary, table_noise
from companion.cue.config import CueConfig
from companion.cue.detector import ChantDetector, Verdict
from companion.cue.enrol import NEAR_MISS_PROMPTS, enrol_player, takes_from_wavs
from companion.cue.features import SAMPLE_RATE
from companion.cue.templates import ChantBook

HELD_OUT_FILE = Path(__file__).with_name("held_out.json")
DEV_VOICES: tuple[str, ...] = VOICES[:6] + ("festival:kal", "festival:ked", "festival:slt")
DEV_SEED = 7
# (speed, pitch) of the enrolment takes, as the enrol command asks players to say them.
ENROL_STYLES = ((150, 50), (125, 38), (178, 64), (155, 45))
SNRS_DB = (20.0, 15.0)
LOW_SNR_DB = 10.0
LOWEST_SNR_DB = 5.0
ROOMS = ("stationary", "babble", "clatter")  # the noise under each chant, measured apart
TALK_SNRS_DB = (20.0, 10.0)
TRUE_END_DB = -40.0  # the last syllable ends where the clean take falls 40 dB under its peak
HIT_WINDOW_S = 0.3  # a cue this close to the chant's end counts as hearing it
BLOCK = 512


@dataclass(frozen=True)
class Scene:
    """Where the synthetic audio is cached, which players sit at the table and the seed of the run."""

    cache: Path
    voices: tuple[str, ...] = DEV_VOICES
    seed: int = DEV_SEED
    talkers: tuple[str, ...] = field(default=())  # voices of the chatter; the players when empty

    @property
    def chatterers(self) -> tuple[str, ...]:
        return self.talkers or self.voices


def held_out_panel() -> tuple[str, tuple[str, ...], int]:
    """(engine, voices, seed) fixed in ``held_out.json`` before tuning."""
    data = json.loads(HELD_OUT_FILE.read_text())
    return data["engine"], tuple(data["voices"]), int(data["seed"])


def spent_panel() -> tuple[str, tuple[str, ...], int]:
    """(engine, voices, seed) of the last held-out panel already spent, with the dev panel's seed.

    Its engine is one the chant model never trained on: while tuning, it shows what the dev
    panel's voices (which the model heard) flatter. Its held-out figures were read long ago, so it
    is development data now; it is never the headline."""
    last = json.loads(HELD_OUT_FILE.read_text())["spent"][-1]
    return last["engine"], tuple(last["voices"]), DEV_SEED


def panel_voices(panel: str) -> tuple[str, tuple[str, ...], int]:
    """(engine, voices, seed) of ``panel``: "held-out", "dev" or "spent"."""
    if panel == "held-out":
        return held_out_panel()
    if panel == "spent":
        return spent_panel()
    return "espeak-ng+festival", DEV_VOICES, DEV_SEED


def enrol_chorus(scene: Scene, folder: Path, config: CueConfig = CueConfig(), near_misses: bool = True,
                 refused: list[str] | None = None) -> ChantBook:
    """Every voice enrols as a player does: its four takes and near misses written as WAV files with
    a second of room hiss around each, read back by the enrol command's own path. A voice whose
    takes are refused is listed in ``refused`` (with why) and left out of the book; returns the book."""
    config = config.model_copy(update={"templates_dir": folder})
    rng = np.random.default_rng(scene.seed + 11)
    book = templates.empty()
    for voice in scene.voices:
        files = folder.parent / f"{folder.name}-wav" / voice.replace(":", "-")
        files.mkdir(parents=True, exist_ok=True)
        takes = [_recorded(say(Take(CHANT, voice, s, p), scene.cache), files / f"take{k + 1}.wav", rng)
                 for k, (s, p) in enumerate(ENROL_STYLES)]
        negatives = [_recorded(say(Take(text, voice), scene.cache), files / f"near{k + 1}.wav", rng)
                     for k, text in enumerate(NEAR_MISS_PROMPTS)] if near_misses else []
        try:
            book = enrol_player(voice, takes_from_wavs(takes, config.voice),
                                config, takes_from_wavs(negatives, config.voice) if negatives else [])
        except CueError as e:
            if refused is None:
                raise
            refused.append(f"{voice}: {e}")
    return book if book.templates else templates.load(folder)


def _recorded(clean: np.ndarray, path: Path, rng: np.random.Generator) -> Path:
    """``clean`` as a WAV file a phone would make: a second of room hiss (-60 to -50 dBFS) either
    side, the speech peaking at -6 dBFS."""
    audio = pink_noise(len(clean) + 2 * SAMPLE_RATE, rng) * 10 ** (rng.uniform(-60.0, -50.0) / 20)
    audio[SAMPLE_RATE : SAMPLE_RATE + len(clean)] += clean * (0.5 / (np.max(np.abs(clean)) + 1e-9))
    write_wav(path, audio)
    return path


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


def room_noise(kind: str, n: int, pool: Sequence[np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """(n,) unit-RMS background: one of ``ROOMS``, or "table" (chatter, hum and dice at once)."""
    if kind == "stationary":
        return stationary(n, rng)
    if kind == "babble":
        return babble(n, pool, rng, talkers=int(rng.integers(3, 6)))
    if kind == "clatter":
        return clatter(n, rng)
    if kind == "table":
        return table_noise(n, pool, rng, "pink" if rng.random() < 0.5 else "brown")
    raise ValueError(f"unknown room {kind!r}; known: {ROOMS + ('table',)!r}")


def chant_in_noise(scene: Scene, take: Take, snr_db: float, pool: Sequence[np.ndarray],
                   rng: np.random.Generator, kind: str = "table") -> tuple[np.ndarray, float]:
    """(n,) room noise of ``kind`` with the take spoken 1.5 s in, and the true end of its last
    syllable in seconds from the start of the mix (-40 dB on the clean take's own envelope)."""
    clean = say(take, scene.cache)
    # Off the detector's 10 ms grid, so timing is measured rather than aligned by construction.
    at = int(1.5 * SAMPLE_RATE) + int(rng.integers(0, 160))
    background = room_noise(kind, len(clean) + 3 * SAMPLE_RATE, pool, rng)
    return mix_at(background, clean, at, snr_db), at / SAMPLE_RATE + spoken_span(clean, TRUE_END_DB)[1]


@dataclass(frozen=True)
class Trial:
    voice: str
    snr_db: float
    room: str
    heard: bool
    right_player: bool
    timing_error_ms: float | None  # signed: positive when the cue said the chant ended later than it did


def detection_trials(scene: Scene, book: ChantBook, config: CueConfig, per_voice: int, snrs: Sequence[float],
                     rooms: Sequence[str] = ROOMS) -> Iterator[Trial]:
    rng = np.random.default_rng(scene.seed)
    pool = talk_pool(scene)
    for voice in scene.voices:
        for speed, pitch in unseen_styles(rng, per_voice):
            for room in rooms:
                for snr in snrs:
                    mix, truth = chant_in_noise(scene, Take(CHANT, voice, speed, pitch), snr, pool, rng, room)
                    yield _trial(voice, snr, listen(ChantDetector(book, config), mix, 0.0), truth, room)


def _trial(voice: str, snr: float, cues: list[Cue], truth: float, room: str = "table") -> Trial:
    hits = [c for c in cues if abs(c.t_end - truth) <= HIT_WINDOW_S]
    if not hits:
        return Trial(voice, snr, room, False, False, None)
    best = min(hits, key=lambda c: abs(c.t_end - truth))
    return Trial(voice, snr, room, True, best.player == voice, (best.t_end - truth) * 1000.0)


def talk_stream(scene: Scene, seconds: float, texts: Sequence[str], rng: np.random.Generator,
                snrs: Sequence[float] = TALK_SNRS_DB, said: list[tuple[float, float, str]] | None = None
                ) -> Iterator[np.ndarray]:
    """Minute-long chunks of players saying ``texts`` (never the chant) over table noise, each
    minute at the next of ``snrs`` above the noise, with pauses of 0.2-1.5 s. What was said is
    appended to ``said`` as (start s, end s, "voice: text") from the stream's start."""
    pool = talk_pool(scene)
    left, minute, t0 = seconds, 0, 0.0
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
            if said is not None:
                said.append((t0 + at / SAMPLE_RATE, t0 + (at + len(phrase)) / SAMPLE_RATE, f"{take.voice}: {take.text}"))
            at += len(phrase) + int(rng.uniform(0.2, 1.5) * SAMPLE_RATE)
        yield chunk
        left -= n / SAMPLE_RATE
        t0 += n / SAMPLE_RATE
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
    phrases, fired = [0], []
    said: list[tuple[float, float, str]] = []

    def heard(verdict: Verdict) -> None:  # counted, not kept: hours of phrases would fill the memory
        phrases[0] += 1
        if verdict.is_chant:
            p = verdict.phrase
            words = [text for a, b, text in said[-40:] if a < p.t_end and b > p.t_start] or ["the room"]
            fired.append(f"{p.t_end:.1f} s, {' + '.join(repr(w) for w in words)}: {verdict.player} at {verdict.distance:.2f} "
                         f"(threshold {detector.threshold:.2f}, near miss at {verdict.near_miss_distance:.2f}), model "
                         f"{verdict.score if verdict.score is None else round(verdict.score, 3)}")
    detector.when_phrase = heard
    rng = np.random.default_rng(scene.seed + seed_offset)
    for chunk in talk_stream(scene, seconds, texts, rng, said=said):
        started = time.process_time()
        for start in range(0, len(chunk), BLOCK):
            cues += len(detector.hear(chunk[start : start + BLOCK], t + start / SAMPLE_RATE))
        busy += time.process_time() - started
        t += len(chunk) / SAMPLE_RATE
        del said[:-40]
    cues += len(detector.flush())
    return TalkRun(cues, t / 3600.0, phrases[0], busy, tuple(fired))


def measure(quick: bool = False, panel: str = "held-out", talk_hours: float | None = None,
            config: CueConfig = CueConfig(), jobs: int = 1, cache: Path | None = None) -> dict[str, object]:
    """The cue's figures on one panel of voices: detection at 20, 15, 10 and 5 dB in each room,
    false cues per hour on ``talk_hours`` of table talk and as long of near misses only (four hours,
    five minutes when ``quick``), timing error, processor share, and details. ``cache`` keeps the
    synthesised speech for the next run (a fresh folder each run when None)."""
    started = time.perf_counter()
    engine, voices, seed = panel_voices(panel)
    with tempfile.TemporaryDirectory(prefix="incanto-cue-bench-") as tmp:
        scene = Scene(cache or Path(tmp) / "speech", voices[:3] if quick else voices, seed)
        refused: list[str] = []
        book = enrol_chorus(scene, Path(tmp) / "book", config, refused=refused)
        per_voice = 2 if quick else 6
        seconds = talk_seconds(quick, talk_hours)
        # The two long talks may run beside the chants in processes of their own (``jobs``): the
        # same work, the same seeds, the same figures, sooner.
        with ProcessPoolExecutor(max_workers=2) if jobs > 1 else _Here() as pool:
            talk_run = pool.submit(false_triggers, scene, book, config, seconds)
            near_run = pool.submit(false_triggers, scene, book, config, seconds, NEAR_MISSES, 2)
            trials = list(detection_trials(scene, book, config, per_voice, SNRS_DB + (LOW_SNR_DB, LOWEST_SNR_DB)))
            stranger = unenrolled_caller_rate(scene, Path(tmp) / "one", config)
            talk, near = talk_run.result(), near_run.result()
    figures = _figures(trials, talk, near, book)
    figures["cue_unenrolled_caller_rate"] = stranger
    figures.update({"cue_panel": panel, "cue_engine": engine, "cue_held_out_engine": held_out_panel()[0],
                    "cue_voices": list(scene.voices), "cue_enrolment_refused": refused,
                    "cue_settings_changed": _changed(config),
                    "cue_bench_seconds": round(time.perf_counter() - started, 1)})
    return figures


def talk_seconds(quick: bool, talk_hours: float | None) -> float:
    """How long each talk is listened to: ``talk_hours`` when given, else a game night (four
    hours), or five minutes when ``quick``."""
    if talk_hours is not None:
        return 3600.0 * talk_hours
    return 300.0 if quick else 4 * 3600.0


def unenrolled_caller_rate(scene: Scene, folder: Path, config: CueConfig) -> float | None:
    """Only the first voice enrolled: how often the others' chants (two styles each, 20 dB) are heard."""
    one = replace(scene, voices=scene.voices[:1])
    book = enrol_chorus(one, folder, config)
    rng = np.random.default_rng(scene.seed + 3)
    pool = talk_pool(scene)
    heard = []
    for voice in scene.voices[1:]:
        for speed, pitch in unseen_styles(rng, 2):
            mix, truth = chant_in_noise(scene, Take(CHANT, voice, speed, pitch), 20.0, pool, rng, "babble")
            heard.append(_trial(voice, 20.0, listen(ChantDetector(book, config), mix, 0.0), truth).heard)
    return round(float(np.mean(heard)), 4) if heard else None


class _Here:
    """Runs what is submitted at once, in this process: ``ProcessPoolExecutor``'s shape, one job."""

    def __enter__(self) -> _Here:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, work: Callable[..., TalkRun], *args: object) -> Future[TalkRun]:
        done: Future[TalkRun] = Future()
        done.set_result(work(*args))
        return done


def _changed(config: CueConfig) -> dict[str, object]:
    """The settings measured that are not the defaults (the table runs the defaults)."""
    default, given = CueConfig().to_dict(), config.to_dict()
    return {k: v for k, v in given.items() if v != default[k] and k != "templates_dir"}


def _rate(trials: Sequence[Trial]) -> float | None:
    return round(float(np.mean([t.heard for t in trials])), 4) if trials else None


def _figures(trials: list[Trial], talk: TalkRun, near: TalkRun, book: ChantBook) -> dict[str, object]:
    loud = [t for t in trials if t.snr_db in SNRS_DB]
    timed = [t for t in trials if t.snr_db >= LOW_SNR_DB and t.timing_error_ms is not None]
    errors = [abs(t.timing_error_ms) for t in timed if t.timing_error_ms is not None]
    signed = [t.timing_error_ms for t in timed if t.timing_error_ms is not None]
    lowest = [abs(t.timing_error_ms) for t in trials if t.snr_db == LOWEST_SNR_DB and t.timing_error_ms is not None]
    heard = [t for t in trials if t.heard]
    cpu = (talk.listening_s + near.listening_s) / ((talk.hours + near.hours) * 3600.0)
    at = {s: [t for t in trials if t.snr_db == s] for s in sorted({t.snr_db for t in trials}, reverse=True)}
    return {
        "cue_detection_rate": _rate(loud),
        "cue_detection_rate_10db": _rate(at.get(LOW_SNR_DB, [])),
        "cue_detection_rate_10db_babble": _rate([t for t in at.get(LOW_SNR_DB, []) if t.room == "babble"]),
        "cue_detection_rate_5db": _rate(at.get(LOWEST_SNR_DB, [])),
        "cue_false_triggers_per_hour": round(talk.false_triggers / talk.hours, 3),
        "cue_false_triggers_per_hour_near_miss": round(near.false_triggers / near.hours, 3),
        # Over the chants heard at 10 dB and above; at 5 dB apart.
        "cue_timing_error_ms_p50": round(float(np.median(errors)), 1) if errors else None,
        "cue_timing_error_ms_p95": round(float(np.percentile(errors, 95)), 1) if errors else None,
        "cue_timing_error_ms_p95_5db": round(float(np.percentile(lowest, 95)), 1) if lowest else None,
        "cue_timing_bias_ms": round(float(np.median(signed)), 1) if signed else None,
        "cue_detection_rate_by_snr_db": {str(s): _rate(ts) for s, ts in at.items()},
        "cue_detection_rate_by_room": {room: {str(s): _rate([t for t in ts if t.room == room]) for s, ts in at.items()}
                                       for room in sorted({t.room for t in trials})},
        "cue_missed": [f"{t.voice} {t.room} {t.snr_db:g} dB" for t in trials if not t.heard and t.snr_db >= LOW_SNR_DB],
        "cue_right_player_rate": round(float(np.mean([t.right_player for t in heard])), 4) if heard else None,
        "cue_trials": len(trials), "cue_talk_hours": round(talk.hours, 3), "cue_near_miss_hours": round(near.hours, 3),
        "cue_false_triggers": talk.false_triggers, "cue_false_triggers_near_miss": near.false_triggers,
        "cue_false_trigger_phrases": list(talk.fired + near.fired),
        "cue_talk_phrases": talk.phrases + near.phrases, "cue_threshold": round(book.threshold, 3),
        "cue_enrolment_warnings": list(book.warnings),
        # Processor seconds per second of sound while listening, on this machine: under 1 keeps up.
        "cue_cpu_share": round(cpu, 4),
    }


__all__ = ["CHANT", "Scene", "Take", "chant_in_noise", "enrol_chorus", "engine_of", "false_triggers", "listen",
           "measure", "say", "talk_pool"]

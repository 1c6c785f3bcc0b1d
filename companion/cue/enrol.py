"""Recording a player's own chant: a few takes, cut from the microphone or read from WAV files,
become that player's templates in the chant book, with the near misses the same player says
("Incantibus", "incantation", "can't go") beside them as words that are not the cue.

Every take is checked before anything is saved: clipped, too quiet, too short, cut off at the start
of a file, or unlike the player's other takes. A bad take refuses the whole enrolment with every reason at once, so a player's
book is never built from takes that would loosen its threshold.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from companion.cue import CueError, dtw
from companion.cue.audio import read_wav
from companion.cue.config import CueConfig, VoiceActivityConfig
from companion.cue.features import SAMPLE_RATE, chant_features
from companion.cue.microphone import Source
from companion.cue.phrases import Phrase, PhraseCutter
from companion.cue.templates import ChantBook, enrol

# What each player says after the chant: the game's own name and the words most like the chant.
NEAR_MISS_PROMPTS: tuple[str, ...] = ("Incantibus", "Incantation", "Can't go")
MIN_TAKES = 2
CLIPPED = 0.99  # a sample this near full scale was clipped by the sound card
CLIPPED_SHARE = 0.001
QUIET_PEAK = 10 ** (-32 / 20)  # a take peaking under -32 dBFS is mostly the room
SHORT_S = 0.3  # the three syllables take longer than this, even called quickly
# A file whose first 5 ms are this near its peak began mid-vowel. Synthetic voices start their first
# sound abruptly (up to 8 dB under the peak in the first 5 ms), so the bar is close to the peak;
# subtler cuts are found as takes unlike the others (``ODD_TAKE``).
CUT_DB = -4.0
ONSET = 80  # 5 ms
ODD_TAKE = 2.0  # a take this many times further from the others than the median take is not like them
PAD_S = 0.6  # quiet put around a file's audio: the cutter needs a breath of background first


def take_problems(audio: np.ndarray) -> list[str]:
    """What is wrong with one take of (n,) 16 kHz audio, as phrases a player can act on."""
    problems, peak = [], float(np.max(np.abs(audio))) if len(audio) else 0.0
    if np.mean(np.abs(audio) >= CLIPPED) > CLIPPED_SHARE:
        problems.append("clipped (too loud or too near the microphone)")
    if peak < QUIET_PEAK:
        problems.append(f"too quiet (peak {20 * np.log10(peak + 1e-12):.0f} dBFS; speak up or move nearer)")
    elif spoken_seconds(audio) < SHORT_S:
        problems.append(f"too short ({spoken_seconds(audio):.2f} s of speech; say all three syllables)")
    return problems


def spoken_seconds(audio: np.ndarray) -> float:
    """How long the take is within 30 dB of its loudest 10 ms."""
    levels = _levels_db(audio)
    if len(levels) == 0:
        return 0.0
    loud = np.flatnonzero(levels >= levels.max() - 30.0)
    return float(loud[-1] - loud[0] + 1) * 0.01


def _levels_db(audio: np.ndarray) -> np.ndarray:
    n = len(audio) // 160
    power = np.mean(audio[: n * 160].astype(np.float64).reshape(n, 160) ** 2, axis=1)
    return 10.0 * np.log10(power + 1e-12)


def starts_cut_off(audio: np.ndarray) -> bool:
    """The file's first 5 ms are nearly as loud as its loudest 10 ms: it was cut inside a word (a
    file trimmed at the start of speech begins at the quiet edge of the first sound)."""
    levels = _levels_db(audio)
    first = 10.0 * np.log10(np.mean(audio[:ONSET].astype(np.float64) ** 2) + 1e-12)
    return len(levels) > 1 and first >= levels.max() + CUT_DB


def cut_takes(source: Source, wanted: int | None = None, voice: VoiceActivityConfig = VoiceActivityConfig(),
              on_take: Callable[[int], None] | None = None) -> list[np.ndarray]:
    """The phrases heard from ``source``, each as (n,) float32 audio; stops after ``wanted``."""
    cutter, takes = PhraseCutter(voice), []
    for block, t_first in source.blocks():
        for phrase in cutter.feed(block, t_first):
            takes.append(phrase.audio)
            if on_take is not None:
                on_take(len(takes))
        if wanted is not None and len(takes) >= wanted:
            return takes[:wanted]
    return takes + [p.audio for p in cutter.flush()]


def padded(audio: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
    """(n,) audio with ``PAD_S`` of faint hiss either side: a file trimmed tight to the chant then
    cuts the same as one recorded with a breath around it."""
    rng = rng or np.random.default_rng(0)
    # As loud as the file's own quietest stretch, so the join makes no step the cutter would hear.
    levels = _levels_db(audio)
    quiet = max(10 ** (float(np.percentile(levels, 5)) / 20), 1e-5) if len(levels) else 1e-5
    pad = int(PAD_S * SAMPLE_RATE)
    hiss = (quiet * rng.standard_normal(len(audio) + 2 * pad)).astype(np.float32)
    hiss[pad : pad + len(audio)] += audio
    return hiss


def takes_from_wavs(paths: Iterable[Path | str], voice: VoiceActivityConfig = VoiceActivityConfig()) -> list[np.ndarray]:
    """Every take in the given WAV files: one file is one take (with the room's noise and a breath
    around it, or trimmed tight), unless it holds clearly separate chants. Every file's problems are
    reported together, each naming the file and the take."""
    takes, problems = [], []
    for path in paths:
        found, trouble = _takes_of(path, voice)
        takes += found
        problems += [f"{str(path)!r}{p}" for p in trouble]
    if problems:
        raise CueError("; ".join(problems))
    return takes


# A phrase this far under the file's loudest is a breath, a chair or the room, not a take.
UNDER_LOUDEST_DB = 18.0
# Chants with this much quiet between them are separate takes; closer sounds are one take (a slow
# caller's pause between syllables, a click after the chant).
SEPARATE_S = 0.6
TAIL_S = 0.3


def _takes_of(path: Path | str, voice: VoiceActivityConfig) -> tuple[list[np.ndarray], list[str]]:
    audio = read_wav(path)
    if starts_cut_off(audio) and len(audio) and float(np.max(np.abs(audio))) >= QUIET_PEAK:  # a quiet room is no word
        return [], [": starts in the middle of a word (cut off); record or trim it with a little quiet before the chant"]
    room = padded(audio)
    cutter = PhraseCutter(voice)
    phrases = cutter.feed(room, 0.0) + cutter.flush()
    if not phrases:
        return [], [f": {p}" for p in take_problems(audio)] or [": no speech heard: is it silent or too quiet?"]
    spans = _chant_spans(phrases, voice.margin_s, len(room) / SAMPLE_RATE)
    found = [room[int(a * SAMPLE_RATE) : int(b * SAMPLE_RATE)] for a, b in spans]
    trouble = [f", take {k + 1} of {len(found)} ({a - PAD_S:.1f}-{b - PAD_S:.1f} s): {p}"
               for k, ((a, b), take) in enumerate(zip(spans, found)) for p in take_problems(take)]
    return found, trouble


def _chant_spans(phrases: Sequence[Phrase], margin_s: float, length_s: float) -> list[tuple[float, float]]:
    """(start, end) seconds of each take among the phrases cut from a file: the phrases near the
    loudest, joined unless set apart by ``SEPARATE_S`` of quiet; breaths and room noise left out.
    Each take keeps ``TAIL_S`` after where the cutter ended it: the last syllable's fade under the
    voice's band is part of the chant, and the detector learns from it when a chant ends."""
    peaks = [float(np.max(_levels_db(p.audio))) if len(p.audio) >= 160 else -120.0 for p in phrases]
    loud = [p for p, peak in zip(phrases, peaks) if peak >= max(peaks) - UNDER_LOUDEST_DB]
    spans = [(loud[0].t_start, loud[0].t_end)]
    for phrase in loud[1:]:
        if phrase.t_start + margin_s - spans[-1][1] < SEPARATE_S:
            spans[-1] = (spans[-1][0], phrase.t_end)
        else:
            spans.append((phrase.t_start, phrase.t_end))
    starts = [a for a, _ in spans[1:]] + [length_s]
    return [(a, min(b + TAIL_S, nxt)) for (a, b), nxt in zip(spans, starts)]


def check_takes(takes: Sequence[np.ndarray], what: str = "take") -> None:
    """Refuse takes from the microphone that are clipped, too quiet or too short, naming each."""
    problems = [f"{what} {k + 1}: {p}" for k, take in enumerate(takes) for p in take_problems(take)]
    if problems:
        raise CueError("; ".join(problems) + "; record again")


def check_alike(takes: Sequence[np.ndarray], config: CueConfig) -> None:
    """Refuse a take much further from the player's other takes than they are from each other: cut
    off, another word, or the room's noise. Needs three takes to tell which one is odd."""
    if len(takes) < 3:
        return
    features = [chant_features(t, config.features) for t in takes]
    nearest = [min(dtw.chant_distance(f, g, config.band) for j, g in enumerate(features) if j != k) for k, f in enumerate(features)]
    typical = float(np.median(nearest))
    odd = [k for k, d in enumerate(nearest) if d > ODD_TAKE * typical]
    if odd:
        raise CueError("; ".join(f"take {k + 1} is unlike the others ({nearest[k]:.2f} from the nearest, the others "
                                 f"{typical:.2f}): cut off, another word, or noise?" for k in odd) + "; record it again")


def enrol_player(player: str, takes: Sequence[np.ndarray], config: CueConfig = CueConfig(),
                 near_misses: Sequence[np.ndarray] = ()) -> ChantBook:
    """Save ``player``'s takes (and near misses) into the chant book at ``config.templates_dir``."""
    if len(takes) < MIN_TAKES:
        raise CueError(f"player {player!r} needs at least {MIN_TAKES} takes to choose a threshold; got {len(takes)!r}")
    check_takes(takes)
    check_takes(near_misses, "near miss")
    check_alike(takes, config)
    return enrol(config.templates_dir, player, takes, config.threshold_factor, config.features, near_misses)

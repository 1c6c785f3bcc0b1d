"""A chant run on into chatter: where else a long phrase might have ended.

At a loud table someone often talks straight after the call, and the cutter hears one phrase from
the first syllable of "In-can-to!" to the end of the chatter. The chant's own end is then a drop
of the level under what came before it; each such drop, at a length a chant can have, is an
earlier end worth judging.
"""
from __future__ import annotations

import numpy as np

from companion.cue.config import VoiceActivityConfig
from companion.cue.features import SAMPLE_RATE, as_float
from companion.cue.phrases import RISE, STEP, Phrase, PhraseCutter

MAX_ENDS = 4


def step_levels(audio: np.ndarray) -> np.ndarray:
    """(n,) audio -> (n // 160,) natural log of each 10 ms step's power."""
    n = len(audio) // STEP
    power = np.mean(as_float(audio)[: n * STEP].astype(np.float64).reshape(n, STEP) ** 2, axis=1)
    return np.log(power + 1e-10)


def drops(levels: np.ndarray, first: int, depth: float) -> list[int]:
    """Steps after ``first`` where the level falls ``depth`` nats under the loudest step so far."""
    found, peak = [], -np.inf
    for k in range(first, len(levels)):
        peak = max(peak, levels[k - 1]) if k > first else levels[k]
        if k > first and levels[k] < peak - depth <= levels[k - 1]:
            found.append(k)
    return found


def earlier_ends(phrase: Phrase, shortest_s: float, longest_s: float, voice: VoiceActivityConfig,
                 depth: float = 2.0) -> list[Phrase]:
    """The phrase cut at each drop between ``shortest_s`` and ``longest_s`` after its speech began
    (at most ``MAX_ENDS``), each keeping ``margin_s`` after the drop."""
    margin = round(voice.margin_s * 100)
    levels = step_levels(phrase.audio)
    last = len(levels) - 2 * margin  # the phrase's own end needs no second look
    ends = [k for k in drops(levels, margin, depth) if shortest_s <= (k - margin) / 100 <= longest_s and k < last][:MAX_ENDS]
    return [Phrase(phrase.audio[: (k + margin) * STEP], phrase.t_start, phrase.t_start + k * STEP / SAMPLE_RATE, phrase.background)
            for k in ends]


def later_starts(phrase: Phrase, shortest_s: float, voice: VoiceActivityConfig, depth: float = 2.0) -> list[Phrase]:
    """The phrase begun again after each of its deepest dips at least ``shortest_s`` before its end
    (at most ``MAX_ENDS``): a die's rattle, a cup set down or someone's last word just before the
    call opens the phrase early, and the chant starts at the dip after it."""
    margin = round(voice.margin_s * 100)
    levels = step_levels(phrase.audio)
    latest = len(levels) - margin - round(shortest_s * 100)
    dips = []
    for k in range(margin + 2, latest):
        rise = float(levels[k : k + 15].max()) - levels[k - 1]
        fall = float(levels[margin : k - 1].max()) - levels[k - 1]
        if levels[k - 1] <= levels[k - 2] and levels[k - 1] <= levels[k] and min(rise, fall) >= depth:
            dips.append((min(rise, fall), k))
    starts = sorted(k for _, k in sorted(dips, reverse=True)[:MAX_ENDS])
    return [Phrase(phrase.audio[(k - margin) * STEP :], phrase.t_start + (k - margin) * STEP / SAMPLE_RATE,
                   phrase.t_end, phrase.background) for k in starts]


def room_after(phrase: Phrase, voice: VoiceActivityConfig) -> Phrase | None:
    """The phrase with the margin after its last syllable kept only up to where sound comes back
    (a step over the cutter's fading level and rising by ``RISE``), or None when that margin is
    the room alone. At a babbling table the next talker's syllable may begin within the 0.1 s kept
    after a chant, too quiet to be part of the phrase but as loud as speech; the chant model then
    reads it as the chant's own speech, its grid stretched over the closure and that syllable
    (en-us's quick chant in babble at 15 dB on the quick dev bench: 0.003, ruled out, with the
    takes at 1.35 against a threshold of 2.45 and its near miss 3.4 times further; 0.97 without
    that syllable)."""
    margin = round(voice.margin_s * SAMPLE_RATE / STEP)
    end = round((phrase.t_end - phrase.t_start) * SAMPLE_RATE / STEP)  # the step after its last syllable
    n = len(phrase.audio) // STEP
    if end <= margin or end >= n:
        return None
    levels = PhraseCutter(voice).levels(as_float(phrase.audio)[: n * STEP].reshape(n, STEP))
    fading = max(phrase.background + voice.stop_nats, float(levels[margin:end].max()) - voice.tail_nats)
    for k in range(end, min(n, end + margin)):
        if levels[k] > fading and levels[k] > levels[k - 1] + RISE:
            return Phrase(phrase.audio[: k * STEP], phrase.t_start, phrase.t_end, phrase.background)
    return None

"""`python -m companion.cue.train.finder [--out PATH] [--voices N] [--seed S] [--cache DIR]`: rebuild the
chant finder (``companion.cue.finder``) from the same synthetic voices, words and rooms as the chant model.

Every utterance is said in a few of the recipe's rooms; a chant often has someone's talk glued
before it, after it or both (a breath apart or less, 0-6 dB under the caller: at a loud table the
talk does not wait), and so do some near misses and talk, so that glued talk says nothing of its
own. The same cutter the detector uses cuts each room into phrases and the finder's windows slide
along each phrase as they do at the table: a window holding the whole chant and ending within
``ENDS_AFTER_S`` of its last syllable is the chant's; a window ending well before or after the
chant's end (``NOT_AFTER_S``), holding less than ``PIECE`` of it, or any window of a near miss,
talk or the room is not; the windows between are left out. Voices kept aside print how many chant
windows are missed at a 1 % false rate before the final fit.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Sequence

import numpy as np

from companion.cue.bench.table_noise import mix_at, room_echo, speech_power, spoken_span
from companion.cue.features import SAMPLE_RATE
from companion.cue.finder import SHIPPED, STEP_S, WINDOW_FRAMES, ChantFinder, log_mel, window_rows
from companion.cue.model import MEL
from companion.cue.phrases import PhraseCutter
from companion.cue.train import (Utterance, adam, command, kept_aside, options, recipe, room, training_voices,
                                 utterances, written)

ROOMS_PER_CHANT = 12
ROOMS_PER_OTHER = 4
GLUED_SHARE = 0.6  # rooms of a chant with talk glued to it (before, after or both); a third of that for the rest
GLUED_GAP_S = (0.03, 0.35)
GLUED_UNDER_DB = (0.0, 6.0)
BABBLE_SHARE = 0.4  # the chant's rooms that are babble (the rest drawn from the recipe's rooms as the model's are)
EDGE_S = 0.02  # a window holds the whole chant when the chant's speech begins this far inside it...
ENDS_AFTER_S = (0.0, 0.25)  # ...and the window is the chant's when it ends this long after the chant's last syllable
NOT_AFTER_S = (0.1, 0.45)  # a window ending this long before the chant's end, or this long after, is not the chant's
PIECE = 0.6  # a window holding less than this share of the chant's speech is not the chant
KEEP_PER_PHRASE = 8  # at most this many windows of each kind from one phrase, drawn at random
LONGEST_S = (WINDOW_FRAMES * MEL.hop / SAMPLE_RATE) - 0.15  # chants longer than this (pauses between syllables) are left out


def glued(said: Utterance, talk: Sequence[np.ndarray], rng: np.random.Generator,
          share: float) -> tuple[np.ndarray, tuple[float, float]]:
    """The utterance with someone's talk just before it, just after it, both or neither, and where
    the utterance's own speech is in seconds."""
    clean = said.audio
    span = spoken_span(clean, -30.0)
    side = int(rng.integers(3)) if rng.random() < share else -1  # 0 before, 1 after, 2 both
    level = np.sqrt(speech_power(clean))

    def talk_piece() -> tuple[np.ndarray, tuple[float, float]]:
        other = talk[int(rng.integers(len(talk)))]
        gain = 10.0 ** (-rng.uniform(*GLUED_UNDER_DB) / 20.0) * level / np.sqrt(speech_power(other))
        return (gain * other).astype(np.float32), spoken_span(other, -30.0)

    def gap() -> np.ndarray:
        return np.zeros(int(rng.uniform(*GLUED_GAP_S) * SAMPLE_RATE), np.float32)

    audio, offset = clean, 0
    if side in (1, 2):
        after, (first, _) = talk_piece()
        audio = np.concatenate([audio[: int(span[1] * SAMPLE_RATE) + 1600], gap(), after[int(first * SAMPLE_RATE) :]])
    if side in (0, 2):
        before, (_, last) = talk_piece()
        cut = int(span[0] * SAMPLE_RATE)
        piece, pause = before[: int(last * SAMPLE_RATE)], gap()
        audio = np.concatenate([piece, pause, audio[cut:]])
        offset = len(piece) + len(pause) - cut
    audio = audio.astype(np.float32)
    return audio, (span[0] + offset / SAMPLE_RATE, span[1] + offset / SAMPLE_RATE)


def examples(said: Utterance, talk: Sequence[np.ndarray], rng: np.random.Generator) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(window rows, labels 1/0) for the finder's windows over every phrase cut from ``said`` in a few rooms."""
    for _ in range(ROOMS_PER_CHANT if said.chant else ROOMS_PER_OTHER):
        clean, span = glued(said, talk, rng, GLUED_SHARE if said.chant else GLUED_SHARE / 3)
        if rng.random() < recipe.REVERB_SHARE:
            clean = room_echo(clean, rng)
        kind = "babble" if said.chant and rng.random() < BABBLE_SHARE else str(rng.choice(recipe.NOISES))
        at = int(rng.uniform(1.2, 2.2) * SAMPLE_RATE)
        background = room(at + len(clean) + SAMPLE_RATE, kind, talk, rng)
        snr = rng.uniform(30.0, 45.0) if kind == "quiet" else rng.uniform(*recipe.SNR_DB)
        mix = mix_at(background, clean, at, snr)
        mix *= 10 ** (rng.uniform(-30.0, -4.0) / 20) / (np.max(np.abs(mix)) + 1e-9)
        start, end = (at / SAMPLE_RATE + s for s in span)
        cutter = PhraseCutter()
        for phrase in cutter.feed(mix, 0.0) + cutter.flush():
            starts, rows = window_rows(log_mel(phrase.audio))
            a = phrase.t_start + starts * STEP_S
            b = a + (WINDOW_FRAMES - 1) * STEP_S + MEL.frame_len / SAMPLE_RATE
            if said.chant:
                held = np.clip(np.minimum(b, end) - np.maximum(a, start), 0.0, None) / (end - start)
                whole = a <= start - EDGE_S
                after = b - end
                chant = whole & (after >= ENDS_AFTER_S[0]) & (after <= ENDS_AFTER_S[1])
                other = (held < PIECE) | (after < -NOT_AFTER_S[0]) | (after > NOT_AFTER_S[1])
                labels = np.where(chant, 1, np.where(other, 0, -1))
            else:
                labels = np.zeros(len(starts), int)
            for value in (1, 0):
                chosen = np.flatnonzero(labels == value)
                if len(chosen) > KEEP_PER_PHRASE:
                    chosen = rng.choice(chosen, KEEP_PER_PHRASE, replace=False)
                if len(chosen):
                    yield rows[chosen], np.full(len(chosen), value)


def fit(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, hidden: int = 48, epochs: int = 8,
        rate: float = 1e-3, l2: float = 1e-3) -> ChantFinder:
    """The finder: a one-hidden-layer network by Adam on the class-balanced cross-entropy (as
    ``train.fit``), in float32 (its windows are many)."""
    return ChantFinder(*adam(x, y, rng, hidden, epochs, rate, l2, batch=256, dtype=np.float32))


def main(argv: Sequence[str] | None = None) -> int:
    args = command("python -m companion.cue.train.finder", (__doc__ or "").splitlines()[0], SHIPPED, "finder", 8)
    args.add_argument("--hidden", type=int, default=48)
    parsed = options(args, argv)
    started = time.perf_counter()
    rng = np.random.default_rng(parsed.seed)
    voices = training_voices(rng, parsed.voices)
    print(f"synthesising {len(voices)} voices into {parsed.cache}", flush=True)
    said = [u for u in utterances(voices, parsed.cache, rng, progress=True)
            if not u.chant or np.subtract(*spoken_span(u.audio, -30.0)[::-1]) <= LONGEST_S]
    talk = [u.audio for u in said if not u.chant]
    rows: list[np.ndarray] = []
    labels: list[np.ndarray] = []
    groups: list[np.ndarray] = []
    for u in said:
        for x_part, y_part in examples(u, talk, rng):
            rows.append(x_part)
            labels.append(y_part)
            groups.append(np.full(len(y_part), voices.index(u.voice)))
    x, y, g = np.concatenate(rows), np.concatenate(labels).astype(np.float32), np.concatenate(groups)
    print(f"{len(y)} windows, {int(y.sum())} of them holding the chant ({time.perf_counter() - started:.0f} s)", flush=True)
    chants, bar, others = kept_aside(x, y, g, len(voices), rng,
                                     lambda xs, ys: fit(xs, ys, rng, hidden=parsed.hidden, epochs=parsed.epochs))
    print(f"voices kept aside: windows holding the chant missed at the 1 %-false bar {np.mean(chants <= bar):.3f} "
          f"({len(chants)} chant windows, {others} others; bar {1 / (1 + np.exp(-bar)):.3f})", flush=True)
    finder = fit(x, y, rng, hidden=parsed.hidden, epochs=parsed.epochs)
    return written(finder, parsed.out, started)


if __name__ == "__main__":
    sys.exit(main())

"""Building the chant model (``companion.cue.model``) from synthetic speech, offline, in one command.

``python -m companion.cue.train`` synthesises the recipe's chants, near misses and talk in many
voices (``recipe``), places each in rooms (steady noise, babble of other talk, dice and cups, echo),
cuts phrases with the same cutter the detector uses, and trains a small network on what the cutter
gives: the phrases that hold the chant against everything else. numpy only; a few minutes on two
cores. Nothing here runs at the table.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.cue.bench.chorus import Take, say
from companion.cue.bench.table_noise import (babble, clatter, cup_clink, mix_at, pink_noise, room_echo, speech_power,
                                             spoken_span, stationary)
from companion.cue.features import SAMPLE_RATE
from companion.cue.model import ChantModel, phrase_vector
from companion.cue.phrases import PhraseCutter
from companion.cue.train import recipe


@dataclass(frozen=True)
class Utterance:
    audio: np.ndarray
    voice: str
    chant: bool


def training_voices(rng: np.random.Generator, espeak_voices: int) -> list[str]:
    """Festival's voices and ``espeak_voices`` accent-and-variant pairs of espeak-ng."""
    pairs = [a + v for a in recipe.ACCENTS for v in recipe.VARIANTS]
    chosen = rng.choice(len(pairs), size=min(espeak_voices, len(pairs)), replace=False)
    return [pairs[k] for k in sorted(chosen)] + list(recipe.FESTIVAL)


def utterances(voices: Sequence[str], cache: Path, rng: np.random.Generator,
               progress: bool = False) -> Iterator[Utterance]:
    """Every voice says chants, near misses and talk at random speeds and pitches."""
    speeds, pitches = recipe.VOICE_STYLES["speed"], recipe.VOICE_STYLES["pitch"]
    for k, voice in enumerate(voices):
        many = 2 if voice.startswith("festival:") else 1  # few festival voices: each says more
        plan = ([(t, True) for t in rng.choice(recipe.CHANTS, recipe.CHANTS_PER_VOICE * many)]
                + [(t, False) for t in rng.choice(recipe.NEAR_MISSES, recipe.NEAR_MISSES_PER_VOICE * many, replace=False)]
                + [(t, False) for t in rng.choice(recipe.TALK, recipe.TALK_PER_VOICE * many, replace=False)])
        for text, chant in plan:
            take = Take(str(text), voice, int(rng.integers(*speeds)), int(rng.integers(*pitches)))
            yield Utterance(say(take, cache), voice, chant)
        if progress:
            print(f"  voice {k + 1}/{len(voices)} {voice}", flush=True)


def room(n: int, kind: str, talk: Sequence[np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """(n,) background of one ``recipe.NOISES`` kind, unit RMS."""
    if kind == "stationary":
        return stationary(n, rng)
    if kind == "babble":
        return babble(n, talk, rng, talkers=int(rng.integers(2, 7)))
    if kind == "clatter":
        return clatter(n, rng)
    return pink_noise(n, rng)


def examples(said: Utterance, talk: Sequence[np.ndarray], rng: np.random.Generator) -> Iterator[tuple[np.ndarray, bool]]:
    """(phrase vector, is the chant) for every phrase the cutter cuts from ``said`` in a few rooms.
    A phrase is the chant when it holds at least 70 % of it and little else; phrases that hold
    only a piece of the chant are left out (neither answer teaches the model anything true)."""
    for _ in range(recipe.ROOMS_PER_CHANT if said.chant else recipe.ROOMS_PER_OTHER):
        kind = str(rng.choice(recipe.NOISES))
        clean = room_echo(said.audio, rng) if rng.random() < recipe.REVERB_SHARE else said.audio
        at = int(rng.uniform(1.2, 2.2) * SAMPLE_RATE)
        span = spoken_span(clean, -30.0)
        neighbour = talk[rng.integers(len(talk))] if kind == "babble" and draw(rng, recipe.NEIGHBOUR_SHARE) else None
        after = neighbour is not None and rng.random() < 0.5
        tail = len(neighbour) + SAMPLE_RATE if neighbour is not None and after else 0
        background = room(at + len(clean) + SAMPLE_RATE + tail, kind, talk, rng)
        if kind == "clatter" and draw(rng, recipe.CLINK_ON_SPEECH_SHARE):
            # A cup set down while the chant is said: its ring lasts as long as a syllable.
            on = at + int(rng.uniform(*span) * SAMPLE_RATE)
            ring = cup_clink(len(background) - on, rng)
            background[on : on + len(ring)] += rng.uniform(0.3, 1.0) * float(np.max(np.abs(background))) * ring
        snr = rng.uniform(30.0, 45.0) if kind == "quiet" else rng.uniform(*recipe.SNR_DB)
        mix = mix_at(background, clean, at, snr)
        if neighbour is not None:
            mix = with_neighbour(mix, background, at, snr, span, neighbour, after, rng)
        mix *= 10 ** (rng.uniform(-30.0, -4.0) / 20) / (np.max(np.abs(mix)) + 1e-9)
        start, end = (at / SAMPLE_RATE + s for s in span)
        cutter = PhraseCutter()
        for phrase in cutter.feed(mix, 0.0) + cutter.flush():
            a, b = phrase.t_start + 0.1, phrase.t_end
            overlap = max(0.0, min(b, end) - max(a, start)) / (end - start)
            inside = a > start - 0.4 and b < end + 0.4
            if said.chant and overlap >= 0.7 and inside:
                yield phrase_vector(phrase.audio, recipe.DECLICK), True
            elif not said.chant or overlap < 0.3:
                yield phrase_vector(phrase.audio, recipe.DECLICK), False
        if draw(rng, recipe.SPAN_CUT_SHARE):
            # The utterance alone, cut with a little of the room either side, as the detector's
            # windows and later starts present a chant glued to talk; a near miss or talk cut so
            # is not the chant, so the model learns the words, not the cut.
            a = max(0, round((start - rng.uniform(*recipe.SPAN_CUT_MARGIN_S)) * SAMPLE_RATE))
            b = round((end + rng.uniform(*recipe.SPAN_CUT_MARGIN_S)) * SAMPLE_RATE)
            yield phrase_vector(mix[a:b], recipe.DECLICK), said.chant


def draw(rng: np.random.Generator, share: float) -> bool:
    """True in ``share`` of the draws; a share of 0 draws nothing, so a recipe without the room
    makes the very rooms it made before the room was added."""
    return share > 0.0 and bool(rng.random() < share)


def with_neighbour(mix: np.ndarray, background: np.ndarray, at: int, snr: float,
                   span: tuple[float, float], neighbour: np.ndarray, after: bool, rng: np.random.Generator) -> np.ndarray:
    """``mix`` with someone at the table talking up to the chant's first syllable, or straight on
    from its last (a breath apart or less), about as loud as the caller."""
    gap = int(rng.uniform(*recipe.NEIGHBOUR_GAP_S) * SAMPLE_RATE)
    first, last = spoken_span(neighbour, -30.0)
    if after:
        place = at + int(span[1] * SAMPLE_RATE) + gap - int(first * SAMPLE_RATE)
    else:
        place = at + int(span[0] * SAMPLE_RATE) - gap - int(last * SAMPLE_RATE)
    piece = neighbour[max(0, -place) :][: len(mix) - max(0, place)]
    chant_power = float(np.mean(background.astype(np.float64) ** 2)) * 10.0 ** (snr / 10.0)  # as ``mix_at`` set it
    level = 10.0 ** (-rng.uniform(*recipe.NEIGHBOUR_UNDER_DB) / 20.0)
    out = mix.copy()
    out[max(0, place) : max(0, place) + len(piece)] += (level * np.sqrt(chant_power / speech_power(neighbour)) * piece).astype(np.float32)
    return out


def fit(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, hidden: int = 64, epochs: int = 40,
        rate: float = 2e-3, l2: float = 3e-4) -> ChantModel:
    """A one-hidden-layer network by Adam on the class-balanced cross-entropy."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-3
    z = (x - mean) / scale
    params = [rng.standard_normal((z.shape[1], hidden)) * np.sqrt(2.0 / z.shape[1]), np.zeros(hidden),
              rng.standard_normal(hidden) * np.sqrt(1.0 / hidden), np.zeros(())]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    weight = np.where(y, 0.5 / max(y.mean(), 1e-6), 0.5 / max(1.0 - y.mean(), 1e-6))
    step = 0
    for _ in range(epochs):
        for batch in np.array_split(rng.permutation(len(z)), max(1, len(z) // 128)):
            w1, b1, w2, b2 = params
            pre = z[batch] @ w1 + b1
            h = np.maximum(pre, 0.0)
            p = 1.0 / (1.0 + np.exp(-(h @ w2 + b2)))
            err = (p - y[batch]) * weight[batch] / len(batch)
            dh = np.outer(err, w2) * (pre > 0)
            grads = [z[batch].T @ dh + l2 * w1, dh.sum(axis=0), h.T @ err + l2 * w2, err.sum()]
            step += 1
            for k, (g, (m, v)) in enumerate(zip(grads, moments)):
                m[...] = 0.9 * m + 0.1 * g
                v[...] = 0.999 * v + 0.001 * g * g
                params[k] = params[k] - rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    w1, b1, w2, b2 = params
    return ChantModel(mean.astype(np.float32), scale.astype(np.float32), w1, b1, w2, float(b2), recipe.DECLICK)

"""Building the chant model (``companion.cue.model``) from synthetic speech, offline, in one command.

``python -m companion.cue.train`` synthesises the recipe's chants, near misses and talk in many
voices (``recipe``), places each in rooms (steady noise, babble of other talk, dice and cups, echo),
cuts phrases with the same cutter the detector uses, and trains a small network on what the cutter
gives: the phrases that hold the chant against everything else. numpy only; a few minutes on two
cores. Nothing here runs at the table.
"""
from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from companion.cue.bench.chorus import Take, say
from companion.cue.bench.table_noise import (babble, clatter, cup_clink, mix_at, pink_noise, room_echo, speech_power,
                                             spoken_span, stationary)
from companion.cue.features import SAMPLE_RATE
from companion.cue.model import ChantModel, OneHiddenLayer, phrase_vector
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
    """The chant model: a one-hidden-layer network by Adam on the class-balanced cross-entropy."""
    return ChantModel(*adam(x, y, rng, hidden, epochs, rate, l2, batch=128, dtype=np.float64), recipe.DECLICK)


def adam(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, hidden: int, epochs: int, rate: float, l2: float,
         batch: int, dtype: type[np.floating]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
    """(mean, scale, w1, b1, w2, b2) of a one-hidden-layer network of rectifiers (``model.OneHiddenLayer``)
    fitted by Adam to the class-balanced cross-entropy of ``y`` (0/1) on ``x`` (inputs standardised),
    in minibatches of about ``batch``, computed in ``dtype`` (float32 halves the finder's memory)."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-3
    z = ((x - mean) / scale).astype(dtype)
    params = [(rng.standard_normal((z.shape[1], hidden)) * np.sqrt(2.0 / z.shape[1])).astype(dtype),
              np.zeros(hidden, dtype), (rng.standard_normal(hidden) * np.sqrt(1.0 / hidden)).astype(dtype),
              np.zeros((), dtype)]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    weight = np.where(y, 0.5 / max(y.mean(), 1e-6), 0.5 / max(1.0 - y.mean(), 1e-6)).astype(dtype)
    step = 0
    for _ in range(epochs):
        for chosen in np.array_split(rng.permutation(len(z)), max(1, len(z) // batch)):
            w1, b1, w2, b2 = params
            zb = z[chosen]
            pre = zb @ w1 + b1
            h = np.maximum(pre, 0.0)
            p = 1.0 / (1.0 + np.exp(-(h @ w2 + b2)))
            err = ((p - y[chosen]) * weight[chosen] / len(chosen)).astype(dtype)
            dh = np.outer(err, w2) * (pre > 0)
            grads = [zb.T @ dh + l2 * w1, dh.sum(axis=0), h.T @ err + l2 * w2, err.sum()]
            step += 1
            for k, (g, (m, v)) in enumerate(zip(grads, moments)):
                m[...] = 0.9 * m + 0.1 * g
                v[...] = 0.999 * v + 0.001 * g * g
                params[k] = (params[k] - rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)).astype(dtype)
    w1, b1, w2, b2 = params
    return mean.astype(np.float32), scale.astype(np.float32), w1, b1, w2, float(b2)


def command(prog: str, description: str, out: Path, what: str, epochs: int) -> argparse.ArgumentParser:
    """The options every rebuild takes: where ``what`` goes (``out`` by default, the package's own),
    how many espeak-ng voices, the seed, the speech cache and the epochs."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--out", type=Path, default=out, help=f"where the {what} goes (default: the package's own)")
    parser.add_argument("--voices", type=int, default=40, help="espeak-ng voices (accent and variant pairs) besides festival's")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=Path("var/cue/train-speech"), help="synthesised speech, kept for the next run")
    parser.add_argument("--epochs", type=int, default=epochs)
    return parser


def options(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """The options given, refused in one line when too few voices are asked for."""
    options = parser.parse_args(argv)
    if options.voices < 2:
        parser.error(f"--voices {options.voices!r}: give at least 2")
    return options


def kept_aside(x: np.ndarray, y: np.ndarray, groups: np.ndarray, voices: int, rng: np.random.Generator,
               fit_some: Callable[[np.ndarray, np.ndarray], OneHiddenLayer]) -> tuple[np.ndarray, float, int]:
    """How a network does on voices it never heard: a seventh of the ``voices`` (``groups``: each
    example's voice) kept aside, a network fitted on the rest; the log-odds of the kept voices' chant
    examples, the bar that lets 1 % of their other examples through, and how many those others are."""
    held = np.isin(groups, rng.choice(voices, size=max(1, voices // 7), replace=False))
    scores = fit_some(x[~held], y[~held]).logits(x[held])
    negatives = np.sort(scores[y[held] == 0])
    bar = float(negatives[int(0.99 * (len(negatives) - 1))]) if len(negatives) else 0.0
    return scores[y[held] == 1], bar, len(negatives)


class Rebuilt(Protocol):
    """A network a rebuild writes: the chant model or the chant finder."""

    def save(self, path: Path | str) -> None: ...


def written(network: Rebuilt, out: Path, started: float) -> int:
    """Save the rebuilt ``network`` at ``out`` and say how big it is and how long the rebuild took."""
    out.parent.mkdir(parents=True, exist_ok=True)
    network.save(out)
    print(f"saved {out} ({out.stat().st_size // 1024} KiB) in {time.perf_counter() - started:.0f} s")
    return 0

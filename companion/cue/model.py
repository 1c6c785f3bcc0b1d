"""The chant model: does a phrase sound like "In-can-to!" at all, whoever says it?

A small network trained offline the way wake words are trained (``companion.cue.train``: thousands
of synthetic chants and near misses in many voices, mixed into noise, babble, clatter and room echo)
and shipped in the package (``companion/cue/data/chant_model.npz``). It hears the chant in voices
and rooms the group's own four takes never covered; the enrolled takes still say whose chant it was
(``detector``). Inference is numpy only: a mel spectrogram of one phrase, two matrix products.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from companion.cue import CueError
from companion.cue.features import FeatureConfig, as_float, bridge_clicks, mel_power
from companion.cue.frontend import fixed_length, noise_floor, per_phrase, speaking, subtract_floor

SHIPPED = Path(__file__).with_name("data") / "chant_model.npz"
FRAMES = 40  # the phrase's speech on a fixed grid of this many frames
MEL = FeatureConfig(n_mels=32, damp_rings=False)  # the shipped model was trained on rings as they are
EDGE = 3  # frames kept either side of the speech


def phrase_vector(audio: np.ndarray, declick: bool = False) -> np.ndarray:
    """(n,) 16 kHz audio of one phrase -> (FRAMES * n_mels + 1,) what the model looks at: the
    noise-free log-mel of its speech on a fixed grid, normalised, and the log of how long it lasted.
    With ``declick`` a die's click is bridged in every band first (``features.bridge_clicks``), as
    the enrolled takes are read."""
    return power_vector(mel_power(as_float(audio), MEL), declick)


def power_vector(power: np.ndarray, declick: bool = False) -> np.ndarray:
    """(n_frames, n_mels) mel powers of one phrase (``features.mel_power``) -> its ``phrase_vector``."""
    if declick:
        power = bridge_clicks(power)
    log_mel = np.log(subtract_floor(power, noise_floor(power)) + 1e-10)
    first, last = speaking(log_mel)
    speech = log_mel[max(0, first - EDGE) : last + EDGE]
    grid = per_phrase(fixed_length(speech, FRAMES))
    return np.append(grid.ravel(), np.log((last - first) / 100.0 + 1e-3)).astype(np.float32)


@dataclass(frozen=True)
class OneHiddenLayer:
    """Weights of a network with one hidden layer of rectifiers; inputs standardised first. The chant
    model and the chant finder (``companion.cue.finder``) are both such networks over what they read."""

    mean: np.ndarray
    scale: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float

    def logits(self, rows: np.ndarray) -> np.ndarray:
        """(k, d) inputs -> (k,) log-odds."""
        hidden = np.maximum((rows - self.mean) / self.scale @ self.w1 + self.b1, 0.0)
        return hidden @ self.w2 + self.b2


@dataclass(frozen=True)
class ChantModel(OneHiddenLayer):
    """The network over ``phrase_vector``: the log-odds that a phrase is the chant."""

    # Whether the model was trained on phrases with clicks bridged: it must read phrases as it
    # learnt them. A model file without the key was trained before the bridge, and reads without it.
    declick: bool = False

    def score(self, audio: np.ndarray) -> float:
        """(n,) phrase audio -> the probability that it is the chant, 0-1."""
        return float(1.0 / (1.0 + np.exp(-self.logits(phrase_vector(audio, self.declick)[None, :])[0])))

    def windows(self, audio: np.ndarray, lengths: Sequence[int], hop: int) -> list[tuple[int, int, float]]:
        """The model run as wake-word models run, over windows sliding along a phrase: (start,
        end, probability) in samples for every window of each of ``lengths`` samples, every
        ``hop`` samples, the likeliest first. The mel spectrum is taken once; each window is its
        frames (frames are ``hop``-aligned, 10 ms apart), so a window costs a matrix product; the
        clicks are bridged in each window's own frames, as they would be in a phrase cut there."""
        step = MEL.hop
        power = mel_power(as_float(audio), MEL)
        spans, rows = [], []
        for length in lengths:
            count = 1 + (length - MEL.frame_len) // step
            for first in range(0, len(power) - count + 1, max(1, hop // step)):
                spans.append((first * step, first * step + length))
                rows.append(power_vector(power[first : first + count], self.declick))
        if not rows:
            return []
        scores = 1.0 / (1.0 + np.exp(-self.logits(np.array(rows))))
        return sorted(((a, b, float(p)) for (a, b), p in zip(spans, scores)), key=lambda w: -w[2])

    def save(self, path: Path | str) -> None:
        np.savez_compressed(path, mean=self.mean, scale=self.scale, w1=self.w1.astype(np.float32),
                            b1=self.b1.astype(np.float32), w2=self.w2.astype(np.float32), b2=np.float32(self.b2),
                            frames=FRAMES, n_mels=MEL.n_mels, declick=self.declick)


def load(path: Path | str = SHIPPED) -> ChantModel:
    """The model at ``path``; a clear error if it is missing or was made for other features."""
    try:
        with np.load(path) as data:
            if int(data["frames"]) != FRAMES or int(data["n_mels"]) != MEL.n_mels:
                raise CueError(f"chant model {str(path)!r} was made for {int(data['frames'])} frames of "
                               f"{int(data['n_mels'])} bands; this Incanto reads {FRAMES} of {MEL.n_mels}")
            declick = bool(data["declick"]) if "declick" in data.files else False
            return ChantModel(data["mean"], data["scale"], data["w1"], data["b1"], data["w2"], float(data["b2"]), declick)
    except FileNotFoundError:
        raise CueError(f"no chant model at {str(path)!r}; rebuild it with `python -m companion.cue.train`") from None
    except (KeyError, ValueError) as e:
        raise CueError(f"chant model {str(path)!r} is damaged: {e}") from None


@lru_cache(maxsize=1)
def shipped() -> ChantModel:
    """The model shipped in the package, read once."""
    return load(SHIPPED)

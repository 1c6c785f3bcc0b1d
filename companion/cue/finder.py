"""The chant finder: where in a phrase the whole of "In-can-to!" is, as wake-word models listen.

The chant model (``companion.cue.model``) reads a whole phrase with its speech warped onto a grid
of 40 frames. Babble glued before or after a chant at a loud table is speech too: it ends up in the
warped span, the chant's syllables no longer sit where the model learnt them, and the model rules
the phrase out. The finder does not warp: it reads the phrase's noise-free log-mel at its own pace
(10 ms frames, the room's floor taken out of every band as ``frontend`` does) through a window of
fixed length (1.3 s: the slowest chant the recipe says, 105 words a minute, with room before it),
slid along the phrase every 50 ms, and a small network says of each window whether the whole
chant is in it and has just ended (within a quarter of a second of the window's end), as
wake-word models (microWakeWord) are trained to fire once the word is over. So it says where the
chant ended, and a window ending well after the chant, or holding only a piece of it, is not the
chant's. It is trained offline (``python -m companion.cue.train.finder``) on the chant model's
voices, words and rooms, with talk glued before and after the chant.

Inference is numpy only: one mel spectrogram, then two matrix products over all the windows.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from companion.cue import CueError
from companion.cue.features import as_float, mel_power
from companion.cue.frontend import noise_floor, subtract_floor
from companion.cue.model import MEL, OneHiddenLayer

SHIPPED = Path(__file__).with_name("data") / "chant_finder.npz"
WINDOW_FRAMES = 130  # 1.3 s of 10 ms frames: a chant at 105 words a minute, with room either side
POOL = 2  # adjacent frames averaged: the network sees 20 ms steps
HOP_FRAMES = 5  # a window every 50 ms
STEP_S = MEL.hop / 16000.0
APART_S = 0.3  # two places the chant ended are at least this far apart


def log_mel(audio: np.ndarray) -> np.ndarray:
    """(n,) 16 kHz audio of one phrase -> (n_frames, n_mels) log-mel with the phrase's own floor taken out."""
    power = mel_power(as_float(audio), MEL)
    return np.log(subtract_floor(power, noise_floor(power)) + 1e-10)


def window_rows(frames: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n_frames, n_mels) -> (starts (k,), rows (k, d)): every window's first frame and what the
    network reads of it (frames pooled, each band's mean removed, divided by the window's spread).
    A phrase shorter than a window is padded before it with each band's quietest level, so it
    ends where its one window ends (its start is then negative)."""
    n, bands = frames.shape
    if n < WINDOW_FRAMES:
        left = WINDOW_FRAMES - n
        quiet = frames.min(axis=0, keepdims=True) if n else np.zeros((1, bands))
        frames = np.concatenate([np.repeat(quiet, left, axis=0), frames])
        starts = np.array([-left])
    else:
        starts = np.arange(0, n - WINDOW_FRAMES + 1, HOP_FRAMES)
        if starts[-1] != n - WINDOW_FRAMES:
            starts = np.append(starts, n - WINDOW_FRAMES)  # the phrase's last frames are always read
    views = np.lib.stride_tricks.sliding_window_view(frames, WINDOW_FRAMES, axis=0)  # (m, bands, W)
    windows = views[np.maximum(starts, 0)].transpose(0, 2, 1)  # (k, W, bands)
    pooled = windows.reshape(len(starts), WINDOW_FRAMES // POOL, POOL, bands).mean(axis=2)
    centred = pooled - pooled.mean(axis=1, keepdims=True)
    spread = centred.reshape(len(starts), -1).std(axis=1)[:, None, None] + 1e-6
    return starts, (centred / spread).reshape(len(starts), -1).astype(np.float32)


@dataclass(frozen=True)
class ChantFinder(OneHiddenLayer):
    """The network over ``window_rows``: the log-odds that a window holds the whole chant, just ended."""

    def windows(self, audio: np.ndarray) -> list[tuple[int, int, float]]:
        """(n,) phrase audio -> (start, end, probability) in samples of every window, in the order
        they slide along the phrase. A window's span is that of its frames, within the phrase."""
        starts, rows = window_rows(log_mel(audio))
        scores = 1.0 / (1.0 + np.exp(-self.logits(rows)))
        length = (WINDOW_FRAMES - 1) * MEL.hop + MEL.frame_len
        return [(max(0, int(s) * MEL.hop), min(len(audio), int(s) * MEL.hop + length), float(p))
                for s, p in zip(starts, scores)]

    def ends(self, audio: np.ndarray, threshold: float, most: int) -> list[tuple[int, float]]:
        """(sample, probability) where the chant's last syllable has just ended, at most ``most``
        places, the likeliest first: the ends of the likeliest windows at least ``threshold``,
        each at least ``APART_S`` from one already chosen (the windows a little before and after
        the chant's end hold it too)."""
        chosen: list[tuple[int, float]] = []
        for _, end, p in sorted(self.windows(audio), key=lambda w: -w[2]):
            if p < threshold or len(chosen) == most:
                break
            if all(abs(end - other) >= APART_S * 16000 for other, _ in chosen):
                chosen.append((end, p))
        return chosen

    def save(self, path: Path | str) -> None:
        np.savez_compressed(path, mean=self.mean.astype(np.float32), scale=self.scale.astype(np.float32),
                            w1=self.w1.astype(np.float32), b1=self.b1.astype(np.float32),
                            w2=self.w2.astype(np.float32), b2=np.float32(self.b2), window_frames=WINDOW_FRAMES,
                            pool=POOL, n_mels=MEL.n_mels)


def load(path: Path | str = SHIPPED) -> ChantFinder:
    """The finder at ``path``; a one-line error if it is missing, damaged or made for other windows."""
    try:
        with np.load(path) as data:
            made = (int(data["window_frames"]), int(data["pool"]), int(data["n_mels"]))
            if made != (WINDOW_FRAMES, POOL, MEL.n_mels):
                raise CueError(f"chant finder {str(path)!r} was made for windows of {made[0]} frames pooled by "
                               f"{made[1]} in {made[2]} bands; this Incanto reads {WINDOW_FRAMES} by {POOL} in {MEL.n_mels}")
            finder = ChantFinder(data["mean"], data["scale"], data["w1"], data["b1"], data["w2"], float(data["b2"]))
    except FileNotFoundError:
        raise CueError(f"no chant finder at {str(path)!r}; rebuild it with `python -m companion.cue.train.finder`") from None
    except (KeyError, ValueError, OSError, EOFError) as e:
        raise CueError(f"chant finder {str(path)!r} is damaged: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    d = (WINDOW_FRAMES // POOL) * MEL.n_mels
    if finder.w1.shape[0] != d or finder.mean.shape != (d,) or finder.w2.shape != (finder.w1.shape[1],):
        raise CueError(f"chant finder {str(path)!r} is damaged: its weights do not fit windows of {d} numbers")
    return finder


@lru_cache(maxsize=1)
def shipped() -> ChantFinder:
    """The finder shipped in the package, read once."""
    return load(SHIPPED)

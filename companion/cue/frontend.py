"""Hearing a chant through the room: the noise floor taken out of every band, then normalised per phrase.

A phrase cut at a loud table carries the room with it: the hiss of a cheap microphone, a fridge's
rumble, the steady part of other people's talk. In each mel band that floor is what the band holds
in its quietest frames (the closures between syllables and the margin around the phrase: minimum
statistics), and it is taken off every frame before the logarithm (spectral subtraction, floored
at a share of the frame's own power so nothing goes negative). A clean take loses almost nothing
(its quiet frames are silence); the same take at 10 dB loses most of what the noise added.

Then each band's mean over the phrase is removed and the whole divided by its spread, so neither
the microphone's colour nor the caller's loudness counts. numpy only: it runs on the Pi.
"""
from __future__ import annotations

import numpy as np

from companion.cue.features import FeatureConfig, as_float, mel_power

FLOOR_PERCENTILE = 10.0  # the quietest tenth of a phrase's frames is the room in every band
# ...but a band of noise flickers, and its quietest tenth sits at a third to two-thirds of its mean
# (measured on pink and brown noise): the percentile is scaled up by this to estimate the mean.
PERCENTILE_BIAS = 2.0
OVER_SUBTRACT = 1.5  # noise taken off a little over its mean: what remains of it is then rarely over the speech
KEEP_SHARE = 0.02  # never less than this share of a frame's own power (-17 dB): no hole, no log of zero


def noise_floor(power: np.ndarray, percentile: float = FLOOR_PERCENTILE) -> np.ndarray:
    """(n_frames, n_bands) band powers -> (n_bands,) the room's floor in each band."""
    return PERCENTILE_BIAS * np.percentile(power, percentile, axis=0) if len(power) else np.zeros(power.shape[1])


def subtract_floor(power: np.ndarray, floor: np.ndarray) -> np.ndarray:
    """(n_frames, n_bands) powers with the (n_bands,) floor taken off, kept above ``KEEP_SHARE``."""
    return np.maximum(power - OVER_SUBTRACT * floor[None, :], KEEP_SHARE * power)


def clean_log_mel(audio: np.ndarray, config: FeatureConfig, warp: float = 1.0) -> np.ndarray:
    """(n,) 16 kHz audio -> (n_frames, n_mels) natural-log mel powers with the phrase's own noise
    floor removed (``warp``: see ``features.mel_filterbank``)."""
    power = mel_power(as_float(audio), config, warp)
    return np.log(subtract_floor(power, noise_floor(power)) + 1e-10)


def per_phrase(log_mel: np.ndarray) -> np.ndarray:
    """(n_frames, n_bands) -> the same with each band's mean removed and divided by the overall spread."""
    centred = log_mel - log_mel.mean(axis=0)
    return centred / (centred.std() + 1e-6)


def speaking(log_mel: np.ndarray, within_nats: float = 5.0) -> tuple[int, int]:
    """(first, last + 1) of the frames whose noise-free energy is within ``within_nats`` of the
    loudest: where the chant is, after the room is taken out."""
    energy = np.log(np.exp(log_mel).sum(axis=1) + 1e-10)
    if len(energy) >= 5:
        # The median of five frames: a die's click (a few ms) is not the loudest of the chant.
        energy = np.median(np.lib.stride_tricks.sliding_window_view(np.pad(energy, 2, mode="edge"), 5), axis=1)
    loud = np.flatnonzero(energy >= energy.max() - within_nats)
    return int(loud[0]), int(loud[-1]) + 1


def fixed_length(log_mel: np.ndarray, frames: int) -> np.ndarray:
    """(n, d) -> (frames, d) by linear interpolation along time: a chant said quickly or slowly
    fills the same grid."""
    if len(log_mel) == 1:
        return np.repeat(log_mel, frames, axis=0)
    at = np.linspace(0.0, len(log_mel) - 1.0, frames)
    low = np.floor(at).astype(int)
    high = np.minimum(low + 1, len(log_mel) - 1)
    share = (at - low)[:, None]
    return (1.0 - share) * log_mel[low] + share * log_mel[high]

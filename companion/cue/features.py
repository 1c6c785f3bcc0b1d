"""What a chant sounds like, as numbers: log-mel energies, MFCCs with deltas, gated and normalised.

Everything here is numpy only, so the same code runs on the Pi and in the tests. Audio is 16 kHz
mono float in [-1, 1]; frames are 25 ms long every 10 ms.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from pydantic import ConfigDict
from pydantic.dataclasses import dataclass

SAMPLE_RATE = 16_000


# A pydantic dataclass, so a settings file with an unknown or mistyped feature key is refused.
@dataclass(frozen=True, config=ConfigDict(extra="forbid"))
class FeatureConfig:
    """How audio becomes a feature sequence; stored beside the templates so they stay comparable."""

    frame_len: int = 400  # 25 ms
    hop: int = 160  # 10 ms
    n_fft: int = 512
    n_mels: int = 26
    n_mfcc: int = 13
    fmin: float = 80.0
    fmax: float = 7600.0
    preemphasis: float = 0.97
    delta_width: int = 2
    gate_nats: float = 3.0  # frames quieter than the loudest by more than this are not the chant
    # Mel bands are floored this far under the chant's mean band power: silent gaps in a quiet
    # recording would otherwise give huge negative logs that any noise at the table destroys.
    floor_db: float = 8.0
    # The phrase's own noise floor taken out of every mel band first (``companion.cue.frontend``).
    denoise: bool = False
    # A die's click or a cup's knock bridged over in every mel band before anything else is read
    # from them (``bridge_clicks``). Books enrolled before this setting was read without it.
    declick: bool = True
    # A cup's ring (a few tones dying away over a syllable's length) brought down to the spectrum
    # around it before the mel bands are read (``damp_rings``). Books enrolled before this setting
    # were read without it.
    damp_rings: bool = True


def as_float(samples: np.ndarray) -> np.ndarray:
    """(n,) int16 or float audio -> (n,) float32 in [-1, 1]."""
    samples = np.asarray(samples)
    if samples.ndim != 1:
        raise ValueError(f"audio must be mono, a 1-D array; got shape {samples.shape!r}")
    if samples.dtype == np.int16:
        return samples.astype(np.float32) / 32768.0
    if not np.issubdtype(samples.dtype, np.floating):
        raise ValueError(f"audio must be int16 or float; got dtype {str(samples.dtype)!r}")
    return samples.astype(np.float32, copy=False)


def frames(signal: np.ndarray, frame_len: int, hop: int) -> np.ndarray:
    """(n,) -> (n_frames, frame_len) overlapping views; a short signal is zero-padded to one frame."""
    if len(signal) < frame_len:
        signal = np.pad(signal, (0, frame_len - len(signal)))
    n_frames = 1 + (len(signal) - frame_len) // hop
    return np.lib.stride_tricks.sliding_window_view(signal, frame_len)[::hop][:n_frames]


def log_energy(framed: np.ndarray) -> np.ndarray:
    """(n_frames, frame_len) -> (n_frames,) natural log of mean power, floored at silence."""
    return np.log(np.mean(framed.astype(np.float64) ** 2, axis=1) + 1e-10)


def _hz_to_mel(hz: np.ndarray | float) -> np.ndarray:
    return 2595.0 * np.log10(1.0 + np.asarray(hz) / 700.0)


def _mel_to_hz(mel: np.ndarray) -> np.ndarray:
    return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)


@lru_cache(maxsize=32)
def mel_filterbank(n_mels: int, n_fft: int, fmin: float, fmax: float, warp: float = 1.0) -> np.ndarray:
    """(n_mels, n_fft // 2 + 1) triangular filters, evenly spaced on the mel scale. With ``warp``
    the filters read the spectrum at their frequency / warp: the features of the same voice with
    every formant ``warp`` times higher (a shorter vocal tract, or a voice pitched up)."""
    edges_hz = _mel_to_hz(np.linspace(_hz_to_mel(fmin), _hz_to_mel(fmax), n_mels + 2))
    bins = np.fft.rfftfreq(n_fft, 1.0 / SAMPLE_RATE) * warp
    lower, centre, upper = edges_hz[:-2, None], edges_hz[1:-1, None], edges_hz[2:, None]
    rising = (bins - lower) / (centre - lower)
    falling = (upper - bins) / (upper - centre)
    return np.maximum(0.0, np.minimum(rising, falling))


@lru_cache(maxsize=8)
def dct_matrix(n_in: int, n_out: int) -> np.ndarray:
    """(n_in, n_out) orthonormal DCT-II, the step from log-mel energies to cepstra."""
    k = np.arange(n_out)[None, :]
    n = np.arange(n_in)[:, None]
    basis = np.cos(np.pi * k * (2 * n + 1) / (2 * n_in)) * np.sqrt(2.0 / n_in)
    basis[:, 0] /= np.sqrt(2.0)
    return basis


def mel_power(signal: np.ndarray, config: FeatureConfig = FeatureConfig(), warp: float = 1.0) -> np.ndarray:
    """(n,) audio -> (n_frames, n_mels) power in each mel band (``warp``: see ``mel_filterbank``)."""
    emphasised = np.append(signal[:1], signal[1:] - config.preemphasis * signal[:-1])
    framed = frames(emphasised, config.frame_len, config.hop) * np.hamming(config.frame_len)
    power = np.abs(np.fft.rfft(framed, config.n_fft)) ** 2
    if config.damp_rings:
        power = damp_rings(power, config.n_fft)
    return power @ mel_filterbank(config.n_mels, config.n_fft, config.fmin, config.fmax, warp).T


# A click (a die on wood, a cup's knock) is a few milliseconds of broadband noise: through 25 ms
# Hamming windows every 10 ms it stands out in one or two frames and is gone, while a syllable holds
# its formants for 50 ms and more. Each band's power is brought down to at most ``CLICK_JUMP`` times
# its median over the ``CLICK_FRAMES`` frames around it: what stands out for two frames or fewer is
# bridged by its neighbours, three or more (a syllable, a stop's aspiration) are kept whole. Wider
# (7 frames) clipped the quick chants' short syllables too (the dev panel lost three in quiet rooms).
CLICK_FRAMES = 5
CLICK_JUMP = 2.0  # 3 dB: a vowel's frames wander within that of their neighbours' median


def running_median(values: np.ndarray, width: int) -> np.ndarray:
    """(n_frames, ...) -> the same, each frame the median of the ``width`` (odd) frames around it,
    the edge frames repeated."""
    half = width // 2
    padded = np.pad(values, [(half, half)] + [(0, 0)] * (values.ndim - 1), mode="edge")
    return np.median(np.lib.stride_tricks.sliding_window_view(padded, width, axis=0), axis=-1)


def bridge_clicks(power: np.ndarray, width: int = CLICK_FRAMES, jump: float = CLICK_JUMP) -> np.ndarray:
    """(n_frames, n_bands) band powers -> the same with every value over ``jump`` times its band's
    running median (``width`` frames) brought down to that: clicks bridged, syllables kept."""
    if len(power) < width:
        return power
    return np.minimum(power, jump * running_median(power, width))


# A cup or a glass set down rings: a few partials (1.5-6 kHz) that each hold one frequency while they
# die away over 50-300 ms, as long as a syllable, so the five-frame click bridge keeps them. In a
# 25 ms frame such a tone is a peak a few FFT bins wide standing far over everything near it, at
# the same bin frame after frame, a little weaker each frame. A voice's harmonics up there have
# neighbours (the next harmonic up and down, a pitch away, is seldom 20 dB weaker: a formant is
# wider than a pitch), move with the pitch, and hold or swell with their vowel. So a ring starts
# where a bin above ``RING_FROM_HZ`` stands ``RING_OVER`` over the loudest bin on both sides of it
# (``RING_SIDE`` bins away, past its own window lobe) and ``RING_OVER_AROUND`` over the median of
# the spectrum around it, and is weaker than the frame before, for ``RING_FRAMES`` frames running.
# It is then followed at that bin, before and after, while it still stands ``RING_TAIL`` over that
# median, and brought down to it, its lobe with it. Measured on the nine dev voices (docs/cue.md,
# "A cup's ring damped").
RING_FROM_HZ = 1200.0
RING_SIDE = (3, 16)  # bins (31.25 Hz each at 512 points): 94-500 Hz, a high voice's pitch included
RING_OVER = 10.0 ** (20.0 / 10.0)  # 20 dB
RING_TAIL = 10.0 ** (10.0 / 10.0)  # 10 dB
# A high voice's lone harmonic at a strong formant stood 20-25 dB over the median around it (and
# 20 dB over its neighbours, dying at a vowel's end): a near miss was let in until this was asked
# too. A cup's partials under a chant stand 30-55 dB over it.
RING_OVER_AROUND = 10.0 ** (25.0 / 10.0)
RING_FRAMES = 3  # 30 ms
RING_DECAY = 10.0 ** (-0.5 / 10.0)  # 0.5 dB a frame at least (a ring that dies in 300 ms falls 1.2 dB and more)
RING_PASSES = 3
RING_LOBE = 2  # bins either side of a ring's peak brought down with it (the Hamming window's main lobe)


def damp_rings(power: np.ndarray, n_fft: int = 512) -> np.ndarray:
    """(n_frames, n_bins) FFT power -> the same with a cup's ringing tones brought down to the
    median of the spectrum around them (see above); everything else untouched. A cup's partials
    may lie a few hundred hertz apart, one on each side of another: that one is looked for again
    once its neighbours are down (``RING_PASSES`` times at most)."""
    for _ in range(RING_PASSES):
        damped = _damp_rings_once(power, n_fft)
        if damped is power:
            break
        power = damped
    return power


def _damp_rings_once(power: np.ndarray, n_fft: int) -> np.ndarray:
    """One look for rings (``damp_rings``): the same array when none was found."""
    if len(power) < RING_FRAMES:
        return power
    first = int(np.ceil(RING_FROM_HZ * n_fft / SAMPLE_RATE))
    inner, outer = RING_SIDE
    # Each bin from ``first`` up with the 2 * outer + 1 bins around it (the edge bins repeated).
    padded = np.pad(power, ((0, 0), (outer, outer)), mode="edge")
    around_bins = np.lib.stride_tricks.sliding_window_view(padded, 2 * outer + 1, axis=1)[:, first:]
    high = power[:, first:]
    side_max = _sliding_max(padded, outer - inner + 1)  # [:, j]: the loudest of padded[:, j : j + outer - inner + 1]
    n = high.shape[1]
    sides = np.minimum(side_max[:, first : first + n], side_max[:, first + outer + inner : first + outer + inner + n])
    tall = high > RING_OVER * sides
    tall[1:] &= high[1:] < RING_DECAY * high[:-1]  # ...and weaker than the frame before: a ring dies away
    # ...and far over the spectrum around it (the median, taken only where the rest holds: it costs).
    rows, cols = np.nonzero(tall)
    low = high[rows, cols] <= RING_OVER_AROUND * np.median(around_bins[rows, cols], axis=-1)
    tall[rows[low], cols[low]] = False
    ring = _held(tall, RING_FRAMES)
    if not ring.any():
        return power
    # Only the bins where a ring was heard, and their lobes, are followed and brought down.
    lobe_bins = np.flatnonzero(np.convolve(ring.any(axis=0), np.ones(2 * RING_LOBE + 1), mode="same") > 0)
    around = np.median(around_bins[:, lobe_bins], axis=-1)
    standing = high[:, lobe_bins] > RING_TAIL * around
    ring = ring[:, lobe_bins]
    for t in range(1, len(power)):  # the ring followed at its bin as it dies away (and back to its knock)
        ring[t] |= ring[t - 1] & standing[t]
    for t in range(len(power) - 2, -1, -1):
        ring[t] |= ring[t + 1] & standing[t]
    lobe = ring.copy()
    for k in range(1, RING_LOBE + 1):  # neighbours in ``lobe_bins`` a column apart are a bin apart there
        apart = lobe_bins[k:] - lobe_bins[:-k] == k
        lobe[:, k:] |= ring[:, :-k] & apart
        lobe[:, :-k] |= ring[:, k:] & apart
    damped = power.copy()
    columns = first + lobe_bins
    damped[:, columns] = np.where(lobe, np.minimum(high[:, lobe_bins], around), high[:, lobe_bins])
    return damped


def _sliding_max(values: np.ndarray, width: int) -> np.ndarray:
    """(n_frames, n) -> (n_frames, n - width + 1): each the largest of ``width`` values running
    along the second axis (by doubling spans: a few whole-array maxima instead of one per window)."""
    out, span = values, 1
    while 2 * span <= width:
        out = np.maximum(out[:, :-span], out[:, span:])
        span *= 2
    if span < width:
        out = np.maximum(out[:, : -(width - span)], out[:, width - span :])
    return out


def _held(flags: np.ndarray, frames_held: int) -> np.ndarray:
    """(n_frames, n) bool -> the same, True only within runs of at least ``frames_held`` True
    frames along time."""
    n = len(flags) - frames_held + 1
    starts = flags[:n].copy()
    for k in range(1, frames_held):
        starts &= flags[k : k + n]
    held = np.zeros_like(flags)
    for k in range(frames_held):
        held[k : k + n] |= starts
    return held


def floored_log(power: np.ndarray, loud: np.ndarray, floor_db: float) -> np.ndarray:
    """(n_frames, n_mels) band powers -> natural logs, floored ``floor_db`` under the mean band
    power of the ``loud`` (n_frames,) bool frames."""
    reference = power[loud].mean() if loud.any() else power.mean()
    return np.log(np.maximum(power, reference * 10.0 ** (-floor_db / 10.0) + 1e-12))


def mfcc(mel: np.ndarray, n_mfcc: int) -> np.ndarray:
    """(n_frames, n_mels) log-mel -> (n_frames, n_mfcc) cepstra."""
    return mel @ dct_matrix(mel.shape[1], n_mfcc)


def deltas(features: np.ndarray, width: int = 2) -> np.ndarray:
    """(n_frames, d) -> (n_frames, d) regression slope over +-width frames, edges repeated."""
    padded = np.pad(features, ((width, width), (0, 0)), mode="edge")
    n = len(features)
    weights = np.arange(1, width + 1)
    slope = sum(k * (padded[width + k : width + k + n] - padded[width - k : width - k + n]) for k in weights)
    return slope / (2.0 * np.sum(weights**2))


def energy_gate(energy: np.ndarray, within_nats: float) -> np.ndarray:
    """(n_frames,) log energies -> (n_frames,) bool: the frames loud enough to be the chant itself."""
    return energy >= energy.max() - within_nats


def normalise(features: np.ndarray) -> np.ndarray:
    """(n_frames, d) -> (n_frames, d) with each column's mean removed and unit variance, so the
    microphone's colour and the speaker's loudness do not count."""
    centred = features - features.mean(axis=0)
    return centred / (features.std(axis=0) + 1e-6)


def chant_features(audio: np.ndarray, config: FeatureConfig = FeatureConfig(), warp: float = 1.0) -> np.ndarray:
    """(n,) 16 kHz audio -> (n_gated_frames, 2 * n_mfcc) normalised MFCCs and their deltas; with
    ``warp``, as if every formant were that many times higher (``mel_filterbank``).

    Deltas are taken before gating so that dropping quiet frames does not invent jumps."""
    signal = as_float(audio)
    energy = log_energy(frames(signal, config.frame_len, config.hop))
    power = mel_power(signal, config, warp)
    if config.declick:
        # A click louder than the chant would be the loudest frame, and the gate would keep only it.
        power = bridge_clicks(power)
        energy = np.minimum(energy, np.log(CLICK_JUMP) + running_median(energy, CLICK_FRAMES))
    gate = energy_gate(energy, config.gate_nats)
    if config.denoise:
        from companion.cue.frontend import noise_floor, subtract_floor  # the front end builds on this module

        power = subtract_floor(power, noise_floor(power))
    cepstra = mfcc(floored_log(power, gate, config.floor_db), config.n_mfcc)
    both = np.hstack([cepstra, deltas(cepstra, config.delta_width)])
    return normalise(both[gate]).astype(np.float32)

"""The sound of a game table, synthesised: chatter from other players, rattling dice, room hiss.

Used with ``companion.cue.bench.chorus`` to rehearse the cue in noise. All functions take and return (n,) float32
audio at 16 kHz and a ``numpy.random.Generator`` so every run can be repeated.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from companion.cue.features import SAMPLE_RATE

ENVELOPE_HOP = 160  # 10 ms


def envelope_db(clean: np.ndarray) -> np.ndarray:
    """(n,) -> (n // 160,) level of each 10 ms frame in dB relative to the loudest frame."""
    n = len(clean) // ENVELOPE_HOP
    power = np.mean(clean[: n * ENVELOPE_HOP].astype(np.float64).reshape(n, ENVELOPE_HOP) ** 2, axis=1)
    return 10.0 * np.log10((power + 1e-12) / (power.max() + 1e-12))


def spoken_span(clean: np.ndarray, floor_db: float = -30.0) -> tuple[float, float]:
    """Seconds from the start of clean speech to where it starts and where the last syllable ends:
    the first and last 10 ms frames within ``floor_db`` of the loudest one."""
    loud = np.flatnonzero(envelope_db(clean) >= floor_db)
    return loud[0] * ENVELOPE_HOP / SAMPLE_RATE, (loud[-1] + 1) * ENVELOPE_HOP / SAMPLE_RATE


def speech_power(clean: np.ndarray) -> float:
    """Mean power over the frames that carry the speech (within 30 dB of the loudest)."""
    n = len(clean) // ENVELOPE_HOP
    power = np.mean(clean[: n * ENVELOPE_HOP].astype(np.float64).reshape(n, ENVELOPE_HOP) ** 2, axis=1)
    return float(np.mean(power[envelope_db(clean) >= -30.0]))


def _fft_size(n: int) -> int:
    """The power of two at or above ``n``: an FFT of an awkward length (a large prime) is slow."""
    return 1 << max(0, int(np.ceil(np.log2(max(n, 1)))))


def pink_noise(n: int, rng: np.random.Generator) -> np.ndarray:
    """(n,) noise with power falling as 1/f (the hiss of a room and a cheap microphone), unit RMS."""
    size = _fft_size(n)
    spectrum = np.fft.rfft(rng.standard_normal(size))
    freqs = np.fft.rfftfreq(size)
    spectrum[1:] /= np.sqrt(freqs[1:])
    spectrum[0] = 0.0
    noise = np.fft.irfft(spectrum, size)[:n]
    return (noise / (np.std(noise) + 1e-12)).astype(np.float32)


def brown_noise(n: int, rng: np.random.Generator) -> np.ndarray:
    """(n,) noise with power falling as 1/f^2 (a fan, traffic, a fridge: a rumble), unit RMS."""
    size = _fft_size(n)
    spectrum = np.fft.rfft(rng.standard_normal(size))
    freqs = np.fft.rfftfreq(size)
    spectrum[1:] /= freqs[1:]
    spectrum[0] = 0.0
    noise = np.fft.irfft(spectrum, size)[:n]
    return (noise / (np.std(noise) + 1e-12)).astype(np.float32)


def dice_rattle(n: int, rng: np.random.Generator, rattles_per_minute: float = 6.0) -> np.ndarray:
    """(n,) silence with dice thrown on wood: each throw a burst of 4-14 sharp clicks over half a
    second, each click a few milliseconds of decaying high-pitched noise. Peak about 1."""
    out = np.zeros(n, dtype=np.float32)
    throws = rng.poisson(rattles_per_minute * n / SAMPLE_RATE / 60.0)
    for start in rng.integers(0, max(1, n), size=throws):
        for offset in np.sort(rng.exponential(0.06, size=rng.integers(4, 15))).cumsum():
            _add_click(out, int(start + offset * SAMPLE_RATE), rng)
    return out


def _add_click(out: np.ndarray, at: int, rng: np.random.Generator) -> None:
    length = int(rng.uniform(0.002, 0.008) * SAMPLE_RATE)
    if at + length > len(out):
        return
    burst = np.diff(rng.standard_normal(length + 1))  # differencing tilts it towards the highs
    decay = np.exp(-np.arange(length) / (length / 4))
    out[at : at + length] += (rng.uniform(0.3, 1.0) * burst * decay / 3.0).astype(np.float32)


def babble(n: int, phrases: Sequence[np.ndarray], rng: np.random.Generator, talkers: int = 3) -> np.ndarray:
    """(n,) overlapping chatter: ``talkers`` streams of randomly chosen phrases with short pauses,
    summed. Unit RMS over the whole length."""
    out = np.zeros(n, dtype=np.float32)
    for _ in range(talkers):
        at = -int(rng.uniform(0, 1.5) * SAMPLE_RATE)  # the talk began before the recording did
        while at < n:
            phrase = phrases[rng.integers(len(phrases))]
            skip = max(0, -at)
            at += skip
            piece = phrase[skip : skip + n - at] * rng.uniform(0.5, 1.0)
            out[at : at + len(piece)] += piece
            at += len(phrase) + int(rng.uniform(0.2, 1.5) * SAMPLE_RATE)
    return (out / (np.std(out) + 1e-12)).astype(np.float32)


def table_noise(n: int, phrases: Sequence[np.ndarray], rng: np.random.Generator, hum: str = "pink") -> np.ndarray:
    """(n,) the whole table: chatter, then pink hiss or brown rumble 10 dB under it, and dice clicks
    on top. Unit RMS."""
    room = pink_noise(n, rng) if hum == "pink" else brown_noise(n, rng)
    mix = babble(n, phrases, rng) + 0.3 * room + 0.5 * dice_rattle(n, rng)
    return (mix / (np.std(mix) + 1e-12)).astype(np.float32)


def mix_at(background: np.ndarray, clean: np.ndarray, at: int, snr_db: float) -> np.ndarray:
    """``background`` (n,) with ``clean`` speech added from sample ``at``, scaled so that the
    speech's power over its spoken frames is ``snr_db`` above the background's mean power.
    Returns a new (n,) float32 array."""
    if at < 0 or at + len(clean) > len(background):
        raise ValueError(f"speech of {len(clean)} samples does not fit at {at!r} in {len(background)}")
    noise_power = float(np.mean(background.astype(np.float64) ** 2)) + 1e-12
    gain = np.sqrt(noise_power * 10.0 ** (snr_db / 10.0) / speech_power(clean))
    out = background.astype(np.float32).copy()
    out[at : at + len(clean)] += (gain * clean).astype(np.float32)
    return out


def cup_clinks(n: int, rng: np.random.Generator, clinks_per_minute: float = 8.0) -> np.ndarray:
    """(n,) silence with cups and glasses set down: each clink a few ringing partials (1.5-6 kHz)
    dying away in 50-300 ms after a sharp knock. Peak about 1."""
    out = np.zeros(n, dtype=np.float32)
    for start in rng.integers(0, max(1, n), size=rng.poisson(clinks_per_minute * n / SAMPLE_RATE / 60.0)):
        ring = cup_clink(n - int(start), rng)
        out[start : start + len(ring)] += ring
    return out


def cup_clink(room: int, rng: np.random.Generator) -> np.ndarray:
    """One cup set down: a few ringing partials (1.5-6 kHz) dying away in 50-300 ms after a sharp
    knock, cut to at most ``room`` samples. Peak about 1."""
    length = int(rng.uniform(0.05, 0.3) * SAMPLE_RATE)
    t = np.arange(min(length, room)) / SAMPLE_RATE
    ring = sum(rng.uniform(0.2, 1.0) * np.sin(2 * np.pi * rng.uniform(1500, 6000) * t + rng.uniform(0, 6.3))
               for _ in range(int(rng.integers(2, 5))))
    knock = rng.standard_normal(len(t)) * np.exp(-t / 0.004)
    return (0.5 * (ring * np.exp(-t / (length / SAMPLE_RATE / 4)) + knock) / 3).astype(np.float32)


def clatter(n: int, rng: np.random.Generator) -> np.ndarray:
    """(n,) dice on wood and cups set down, busy (a throw or a clink every few seconds), over a faint
    room hiss 30 dB down so the gaps are not digital silence. Unit RMS."""
    mix = dice_rattle(n, rng, rattles_per_minute=14.0) + cup_clinks(n, rng, 12.0)
    mix = mix / (np.std(mix) + 1e-12) + 0.03 * pink_noise(n, rng)
    return (mix / (np.std(mix) + 1e-12)).astype(np.float32)


def stationary(n: int, rng: np.random.Generator) -> np.ndarray:
    """(n,) a steady room: pink hiss or brown rumble (fans, a fridge, traffic), unit RMS."""
    return pink_noise(n, rng) if rng.random() < 0.5 else brown_noise(n, rng)


def room_echo(clean: np.ndarray, rng: np.random.Generator, rt60: tuple[float, float] = (0.15, 0.7)) -> np.ndarray:
    """(n,) speech as heard across a room: convolved with a decaying-noise impulse response (a
    reverberation time drawn from ``rt60`` seconds) after the direct sound; same length, same peak."""
    decay = rng.uniform(*rt60)
    t = np.arange(int(decay * SAMPLE_RATE)) / SAMPLE_RATE
    response = rng.standard_normal(len(t)) * np.exp(-6.9 * t / decay) * rng.uniform(0.1, 0.5)
    response[0] = 1.0
    size = 1 << int(np.ceil(np.log2(len(clean) + len(response))))
    wet = np.fft.irfft(np.fft.rfft(clean, size) * np.fft.rfft(response, size), size)[: len(clean)]
    return (wet * np.max(np.abs(clean)) / (np.max(np.abs(wet)) + 1e-12)).astype(np.float32)

"""The noise-robust front end: the room's floor comes out of every band, a clean take keeps its shape."""
from __future__ import annotations

import numpy as np

from companion.cue.bench.chorus import CHANT, Take, say
from companion.cue.bench.table_noise import brown_noise, mix_at, pink_noise
from companion.cue.features import FeatureConfig, mel_power
from companion.cue.frontend import clean_log_mel, fixed_length, noise_floor, per_phrase, speaking
from companion.cue.features import SAMPLE_RATE

MEL = FeatureConfig(n_mels=32)


def test_a_stationary_noise_floor_is_found_and_taken_out(scene):
    rng = np.random.default_rng(3)
    clean = say(Take(CHANT, "en-us"), scene.cache)
    at = SAMPLE_RATE // 2
    padded = np.concatenate([np.zeros(at, np.float32), clean, np.zeros(at, np.float32)])
    for noise in (pink_noise(len(padded), rng), brown_noise(len(padded), rng)):
        noisy = mix_at(noise, clean, at, 5.0)
        floor = noise_floor(mel_power(noisy, MEL))
        truth = mel_power(noisy - (noisy - noise.astype(np.float32)), MEL).mean(axis=0)
        # The floor is the noise's own power in each band (within a factor of two), not the speech's.
        assert np.all(floor < 2 * truth) and np.all(floor > truth / 2), (floor / truth).round(2)
        # Taken out: the frames of noise alone fall far (>= 10 dB on average) under where they were.
        raw = np.log(mel_power(noisy, MEL) + 1e-10)
        cleaned = clean_log_mel(noisy, MEL)
        quiet = slice(0, at // 160 - 3)
        assert (raw[quiet] - cleaned[quiet]).mean() * 4.343 >= 10.0
        # ...while the chant itself stays near its clean shape: closer than without the subtraction.
        reference = per_phrase(np.log(mel_power(padded, MEL) + 1e-10))
        speech = slice(at // 160 + 5, (at + len(clean)) // 160 - 5)
        assert np.abs(per_phrase(cleaned)[speech] - reference[speech]).mean() < np.abs(per_phrase(raw)[speech] - reference[speech]).mean()


def test_a_clean_take_loses_almost_nothing(scene):
    clean = say(Take(CHANT, "en+f3"), scene.cache) + 1e-5 * np.random.default_rng(1).standard_normal(1).astype(np.float32)
    raw = np.log(mel_power(clean, MEL) + 1e-10)
    first, last = speaking(clean_log_mel(clean, MEL))
    assert np.abs(clean_log_mel(clean, MEL) - raw)[first:last].mean() * 4.343 < 1.0


def test_any_length_fills_the_same_grid():
    ramp = np.arange(10.0)[:, None] * np.ones((1, 3))
    grid = fixed_length(ramp, 40)
    assert grid.shape == (40, 3) and grid[0, 0] == 0.0 and grid[-1, 0] == 9.0 and np.all(np.diff(grid[:, 0]) > 0)
    assert fixed_length(ramp[:1], 5).shape == (5, 3)

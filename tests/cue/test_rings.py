"""A cup's ring at the table: its steady, dying tones are brought down to the spectrum around them
before the mel bands are read, while a voice's harmonics are kept."""
from __future__ import annotations


import numpy as np

from companion.cue import dtw, model
from companion.cue.bench import listen
from companion.cue.bench.chorus import CHANT, Take, say
from companion.cue.bench.table_noise import pink_noise, spoken_span
from companion.cue.detector import ChantDetector
from companion.cue.features import SAMPLE_RATE, FeatureConfig, chant_features, damp_rings, frames

DAMPED, UNDAMPED = FeatureConfig(), FeatureConfig(damp_rings=False)
TONES_HZ = (2333.0, 3693.0, 5316.0)  # a cup's partials: a few, far apart, above 1.5 kHz


def spectrum(audio: np.ndarray) -> np.ndarray:
    """(n,) audio -> (n_frames, 257) FFT power, framed and windowed as ``features.mel_power`` does."""
    emphasised = np.append(audio[:1], audio[1:] - 0.97 * audio[:-1]).astype(np.float64)
    return np.abs(np.fft.rfft(frames(emphasised, 400, 160) * np.hamming(400), 512)) ** 2


def high_power(audio: np.ndarray) -> float:
    """Mean power of ``audio`` above 1.5 kHz, where a cup rings."""
    power = np.abs(np.fft.rfft(audio.astype(np.float64))) ** 2
    return float(power[np.fft.rfftfreq(len(audio), 1.0 / SAMPLE_RATE) > 1500.0].sum() * 2 / len(audio) ** 2)


def cup_ring(over: float, tones: tuple[float, ...] = TONES_HZ, seconds: float = 0.3, decay_s: float = 0.05) -> np.ndarray:
    """A cup's ring: ``tones`` dying away together (time constant ``decay_s``), its first 150 ms
    holding ``over`` times the given high-band power."""
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    ring = sum(np.sin(2 * np.pi * f * t + k) for k, f in enumerate(tones)) * np.exp(-t / decay_s)
    return ring * np.sqrt(over / np.mean(ring[: int(0.15 * SAMPLE_RATE)] ** 2))


def chant_with_a_ring(chant: np.ndarray, over_db: float, rng: np.random.Generator) -> tuple[np.ndarray, float, slice]:
    """(audio, the chant's true end in s, the ring's samples): ``chant`` with a second of faint
    hiss either side and a cup ringing from a third of the way in, ``over_db`` over the chant's
    own power above 1.5 kHz."""
    start, end = spoken_span(chant, -40.0)
    loud = chant[int(start * SAMPLE_RATE) : int(end * SAMPLE_RATE)]
    ring = cup_ring(high_power(loud) * 10.0 ** (over_db / 10.0))
    audio = np.concatenate([np.zeros(SAMPLE_RATE), chant, np.zeros(SAMPLE_RATE)]).astype(np.float64)
    at = SAMPLE_RATE + int((start + 0.35 * (end - start)) * SAMPLE_RATE)
    audio[at : at + len(ring)] += ring
    audio += 10.0 ** (-55.0 / 20.0) * pink_noise(len(audio), rng)
    return audio.astype(np.float32), 1.0 + end, slice(at, at + len(ring))


def test_a_dying_tone_is_brought_down_and_a_held_one_is_kept():
    """Over a flat floor, a tone dying away is brought down to the floor; the same tone held
    steady (a whistle, or a voice's lone harmonic held on a vowel) is no cup and is kept."""
    rng = np.random.default_rng(3)
    floor = 1e-3 * rng.standard_normal(SAMPLE_RATE)
    t = np.arange(SAMPLE_RATE // 2) / SAMPLE_RATE
    dying, held = floor.copy(), floor.copy()
    dying[4000:12000] += np.sin(2 * np.pi * 3000.0 * t) * np.exp(-t / 0.06)
    held[4000:12000] += 0.3 * np.sin(2 * np.pi * 3000.0 * t)
    bin_3k = round(3000.0 * 512 / SAMPLE_RATE)
    ringing = slice(26, 40)  # frames where the dying tone is still 20 dB and more over the floor
    before, after = spectrum(dying), damp_rings(spectrum(dying))
    assert np.all(after[ringing, bin_3k] < 1e-2 * before[ringing, bin_3k])  # down by more than 20 dB
    # Only the tone's own bins (its window's lobe, a few bins either side) are touched.
    assert np.array_equal(after[:, : bin_3k - 4], before[:, : bin_3k - 4])
    assert np.array_equal(after[:, bin_3k + 5 :], before[:, bin_3k + 5 :])
    assert np.array_equal(damp_rings(spectrum(held)), spectrum(held))


def test_a_cups_ring_over_a_chant_is_brought_down_and_the_voices_harmonics_are_kept(scene):
    """A high voice's chant (well-resolved harmonics above 1.2 kHz) keeps its spectrum; with a cup
    ringing 12 dB over its high bands, the ring's bins come down near the chant's own level."""
    chant = say(Take(CHANT, "en+f3", 170, 64), scene.cache)
    clean = spectrum(np.concatenate([np.zeros(SAMPLE_RATE), chant, np.zeros(SAMPLE_RATE)]))
    high = slice(round(1200 * 512 / SAMPLE_RATE), None)
    assert (clean - damp_rings(clean))[:, high].sum() < 0.01 * clean[:, high].sum()  # harmonics kept
    audio, _, ring = chant_with_a_ring(chant, 12.0, np.random.default_rng(5))
    rung = spectrum(audio)
    damped = damp_rings(rung)
    ringing = slice(ring.start // 160, ring.start // 160 + 10)  # the ring's first 100 ms
    tones = [round(f * 512 / SAMPLE_RATE) for f in TONES_HZ]
    for k in tones:
        assert damped[ringing, k].sum() < 0.1 * rung[ringing, k].sum()  # down by more than 10 dB
    others = np.setdiff1d(np.arange(rung.shape[1]), [k + d for k in tones for d in range(-4, 5)])
    assert np.array_equal(damped[:, others], rung[:, others])  # only the ring's bins


def test_a_chant_with_a_cup_ringing_under_it_stays_near_the_same_voices_take(scene):
    """Damping the ring takes back most of what it added to the distance between two takes of
    one voice."""
    take, other = (say(Take(CHANT, "en-us", s, p), scene.cache) for s, p in ((150, 50), (170, 40)))
    pad = np.zeros(SAMPLE_RATE, np.float32)
    added = {}
    for name, config in (("damped", DAMPED), ("undamped", UNDAMPED)):
        reference = chant_features(np.concatenate([pad, take, pad]), config)
        clean = dtw.chant_distance(chant_features(np.concatenate([pad, other, pad]), config), reference, 0.35)
        rung = [dtw.chant_distance(chant_features(chant_with_a_ring(other, 12.0, np.random.default_rng(seed))[0], config),
                                   reference, 0.35) for seed in range(3)]
        added[name] = float(np.mean(rung)) - clean
    assert added["undamped"] > 1.0  # the ring does push the takes apart
    assert added["damped"] < 0.3 * added["undamped"], added


def test_a_chant_with_a_cup_ringing_under_it_is_heard(scene, book):
    """A cup rung 12 dB over the chant's high bands, a third of the way in: heard, at its end, as
    the caller's (without damping the ring puts it past the threshold, and the cue is lost)."""
    chant = say(Take(CHANT, "en-us", 170, 40), scene.cache)
    audio, truth, _ = chant_with_a_ring(chant, 12.0, np.random.default_rng(1))
    cues = listen(ChantDetector(book), audio, 0.0)
    assert [c.player for c in cues] == ["en-us"]
    assert abs(cues[0].t_end - truth) < 0.3


def test_the_chant_model_reads_phrases_as_it_was_trained():
    """The shipped model learnt on phrases with their rings in: it reads them so."""
    assert not model.MEL.damp_rings

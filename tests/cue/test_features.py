import numpy as np
import pytest

from companion.cue import features as F

RATE = F.SAMPLE_RATE


def tone(freq: float, seconds: float = 0.5, amp: float = 0.5) -> np.ndarray:
    t = np.arange(int(seconds * RATE)) / RATE
    return (amp * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def test_frames_are_hops_apart_and_short_audio_makes_one_frame():
    signal = np.arange(1000, dtype=np.float32)
    framed = F.frames(signal, 400, 160)
    assert framed.shape == (1 + (1000 - 400) // 160, 400)
    assert framed[2, 0] == 320 and framed[2, -1] == 719
    assert F.frames(np.ones(10, np.float32), 400, 160).shape == (1, 400)


def test_mel_filters_peak_at_rising_centres_and_cover_the_band():
    bank = F.mel_filterbank(26, 512, 80.0, 7600.0)
    assert bank.shape == (26, 257)
    peaks = bank.argmax(axis=1)
    assert np.all(np.diff(peaks) >= 0) and peaks[-1] > peaks[0]
    assert bank.min() >= 0.0 and bank.max() <= 1.0
    bins = np.fft.rfftfreq(512, 1 / RATE)
    inside = (bins > 200) & (bins < 7000)
    assert np.all(bank[:, inside].sum(axis=0) > 0)


def test_dct_is_orthonormal():
    basis = F.dct_matrix(26, 26)
    assert np.allclose(basis.T @ basis, np.eye(26), atol=1e-10)


def test_deltas_of_a_ramp_are_its_slope():
    ramp = np.outer(np.arange(20.0), [1.0, -3.0])
    slope = F.deltas(ramp, width=2)
    assert np.allclose(slope[2:-2], [1.0, -3.0])


def test_energy_gate_keeps_frames_near_the_loudest():
    energy = np.array([-10.0, -2.0, 0.0, -2.9, -3.1, -20.0])
    assert F.energy_gate(energy, 3.0).tolist() == [False, True, True, True, False, False]


def test_normalise_gives_zero_mean_unit_variance_columns():
    rng = np.random.default_rng(0)
    out = F.normalise(rng.normal(5.0, 3.0, size=(200, 4)))
    assert np.allclose(out.mean(axis=0), 0.0, atol=1e-9)
    assert np.allclose(out.std(axis=0), 1.0, atol=1e-4)


def test_features_ignore_loudness():
    rng = np.random.default_rng(1)
    sound = tone(500) + tone(1500, amp=0.2) + 0.01 * rng.standard_normal(RATE // 2).astype(np.float32)
    loud, quiet = F.chant_features(sound), F.chant_features(0.1 * sound)
    assert loud.shape == quiet.shape and loud.shape[1] == 26
    assert np.allclose(loud, quiet, atol=1e-3)


def test_quiet_frames_are_gated_out():
    burst = np.concatenate([tone(700, 0.3), np.zeros(RATE // 2, np.float32), tone(700, 0.3)])
    n_frames = len(F.frames(burst, 400, 160))
    kept = len(F.chant_features(burst))
    # Roughly the 0.6 s of tone survive out of 1.1 s; the silent half second does not.
    assert 50 <= kept <= 65 < n_frames


def test_int16_and_float_audio_give_the_same_features():
    sound = tone(800) * np.hanning(RATE // 2).astype(np.float32)
    as_int = (sound * 32767).astype(np.int16)
    assert np.allclose(F.chant_features(sound), F.chant_features(as_int), atol=1e-2)


@pytest.mark.parametrize("bad", [np.zeros((10, 2), np.float32), np.zeros(10, np.complex64)])
def test_bad_audio_is_refused_with_its_shape_or_type(bad):
    with pytest.raises(ValueError, match=r"\(10, 2\)|complex64"):
        F.as_float(bad)


def test_a_warped_filterbank_reads_the_spectrum_that_many_times_lower():
    """Warped by 1.2, each filter reads the spectrum at its centre / 1.2: a voice whose formants
    are 1.2 times higher looks like the unwarped voice."""
    plain, warped = F.mel_filterbank(26, 512, 80.0, 7600.0), F.mel_filterbank(26, 512, 80.0, 7600.0, 1.2)
    bins = np.fft.rfftfreq(512, 1 / 16000)
    for k in range(4, 22):
        assert bins[np.argmax(warped[k])] == pytest.approx(bins[np.argmax(plain[k])] / 1.2, abs=32.0)


def test_features_unwarped_are_the_plain_features_and_a_warp_changes_them():
    audio = np.random.default_rng(2).standard_normal(8000).astype(np.float32)
    assert np.array_equal(F.chant_features(audio, warp=1.0), F.chant_features(audio))
    assert not np.allclose(F.chant_features(audio, warp=1.1), F.chant_features(audio))

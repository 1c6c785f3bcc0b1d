import wave

import numpy as np
import pytest

from companion.cue.audio import AudioFileError, read_wav, resample, to_int16, write_wav


def peak_hz(signal: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(signal * np.hanning(len(signal))))
    return float(np.fft.rfftfreq(len(signal), 1 / rate)[spectrum.argmax()])


def test_resampling_keeps_pitch_length_and_level():
    t = np.arange(22050) / 22050
    sine = (0.5 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)
    out = resample(sine, 22050, 16000)
    assert len(out) == 16000
    assert peak_hz(out, 16000) == pytest.approx(440, abs=2)
    assert np.sqrt(np.mean(out[1000:-1000] ** 2)) == pytest.approx(0.5 / np.sqrt(2), rel=0.02)


def test_a_stereo_44k_file_is_read_as_16k_mono(tmp_path):
    t = np.arange(44100) / 44100
    left = 0.4 * np.sin(2 * np.pi * 1000 * t)
    frames = np.stack([left, left], axis=1)
    path = tmp_path / "stereo.wav"
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(2)
        wav.setsampwidth(2)
        wav.setframerate(44100)
        wav.writeframes((frames * 32767).astype("<i2").tobytes())
    audio = read_wav(path)
    assert len(audio) == 16000
    assert peak_hz(audio, 16000) == pytest.approx(1000, abs=2)


def test_write_then_read_round_trips_and_clips(tmp_path):
    samples = np.array([0.0, 0.5, -0.5, 1.5, -1.5], dtype=np.float32)
    write_wav(tmp_path / "a.wav", samples)
    back = read_wav(tmp_path / "a.wav")
    assert np.allclose(back, [0.0, 0.5, -0.5, 32767 / 32768, -1.0], atol=1e-4)
    assert to_int16(np.array([2.0], np.float32))[0] == 32767
    assert list(tmp_path.iterdir()) == [tmp_path / "a.wav"]


def test_missing_or_bad_files_are_named(tmp_path):
    with pytest.raises(AudioFileError, match="nothing.wav"):
        read_wav(tmp_path / "nothing.wav")
    (tmp_path / "text.wav").write_text("not a wav")
    with pytest.raises(ValueError, match="text.wav"):
        read_wav(tmp_path / "text.wav")
    with pytest.raises(ValueError, match="-5"):
        resample(np.zeros(10, np.float32), -5, 16000)

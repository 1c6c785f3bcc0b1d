"""WAV files and sample rates: the only audio plumbing the cue needs, numpy and the standard library."""
from __future__ import annotations

import io
import os
import wave
from pathlib import Path

import numpy as np

from companion.cue.features import SAMPLE_RATE, as_float


class AudioFileError(ValueError):
    """A WAV file that cannot be read as audio."""


def resample(signal: np.ndarray, from_rate: int, to_rate: int = SAMPLE_RATE) -> np.ndarray:
    """(n,) at ``from_rate`` -> (round(n * to_rate / from_rate),) float32, by cutting or padding the
    spectrum; exact enough for speech and needs nothing beyond numpy."""
    if from_rate <= 0 or to_rate <= 0:
        raise ValueError(f"sample rates must be positive; got {from_rate!r} -> {to_rate!r}")
    if from_rate == to_rate or len(signal) == 0:
        return np.asarray(signal, dtype=np.float32)
    n_out = max(1, round(len(signal) * to_rate / from_rate))
    spectrum = np.fft.rfft(signal.astype(np.float64))
    keep = min(len(spectrum), n_out // 2 + 1)
    out = np.fft.irfft(spectrum[:keep], n_out) * (n_out / len(signal))
    return out.astype(np.float32)


def read_wav(path: Path | str) -> np.ndarray:
    """A PCM WAV file of any rate and channel count -> (n,) float32 mono at 16 kHz."""
    try:
        with wave.open(str(path), "rb") as wav:
            width, channels, rate = wav.getsampwidth(), wav.getnchannels(), wav.getframerate()
            raw = wav.readframes(wav.getnframes())
    except FileNotFoundError:
        raise AudioFileError(f"no WAV file at {str(path)!r}") from None
    except (wave.Error, EOFError) as e:
        raise AudioFileError(f"{str(path)!r} is not a PCM WAV file: {e}") from None
    samples = _decode(raw, width, path).reshape(-1, channels).mean(axis=1)
    return resample(samples, rate)


def _decode(raw: bytes, width: int, path: Path | str) -> np.ndarray:
    """Little-endian PCM bytes -> float64 samples in [-1, 1]."""
    if width == 1:
        return (np.frombuffer(raw, np.uint8).astype(np.float64) - 128.0) / 128.0
    if width == 2:
        return np.frombuffer(raw, "<i2").astype(np.float64) / 32768.0
    if width == 4:
        return np.frombuffer(raw, "<i4").astype(np.float64) / 2147483648.0
    raise AudioFileError(f"{str(path)!r} has {8 * width}-bit samples; 8, 16 or 32-bit PCM expected")


def to_int16(samples: np.ndarray) -> np.ndarray:
    """(n,) float or int16 -> (n,) int16, clipped rather than wrapped."""
    return (np.clip(as_float(samples), -1.0, 32767 / 32768) * 32768.0).astype(np.int16)


def wav_bytes(samples: np.ndarray, rate: int = SAMPLE_RATE) -> bytes:
    """(n,) float or int16 audio as a 16-bit mono WAV file's bytes (the calibration desk's takes and the
    speaker's chime are WAV in memory; ``write_wav`` puts the same bytes in a file)."""
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(to_int16(samples).tobytes())
    return out.getvalue()


def write_wav(path: Path | str, samples: np.ndarray, rate: int = SAMPLE_RATE) -> None:
    """Save 16-bit mono, atomically: the file is either the old one or the whole new one."""
    path = Path(path)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_bytes(wav_bytes(samples, rate))
    tmp.replace(path)

"""The voice and the speaker: espeak-ng renders a sentence to WAV bytes; an output plays them or keeps them."""
from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
import threading
import wave
from pathlib import Path
from typing import Protocol

import numpy as np

from companion.cue.audio import wav_bytes

RATE = 22_050  # espeak-ng's own rate; the chime is made at it too
CHIME_HZ = (880.0, 1318.5)  # A5 and E6: a bell's fifth, unlike any voice at the table


class SpeakerError(RuntimeError):
    """The speech engine or the speaker cannot be used; the message says which and what to install."""


class Output(Protocol):
    def play(self, wav: bytes, label: str) -> None: ...


class Espeak:
    """espeak-ng, offline: ``voice`` (e.g. ``en-gb``, ``de``), ``volume`` 0-100, ``words_per_minute``."""

    def __init__(self, voice: str = "en-gb", volume: int = 80, words_per_minute: int = 160,
                 program: str = "espeak-ng") -> None:
        found = shutil.which(program)
        if found is None:
            raise SpeakerError(f"{program!r} is not installed: sudo apt install espeak-ng")
        self.program, self.voice, self.volume, self.wpm = found, voice, volume, words_per_minute
        self.texts: list[str] = []  # every sentence handed to espeak-ng, in order

    def voices(self) -> set[str]:
        """The voices espeak-ng has (their language names, e.g. ``en-gb``, ``de``), with ``+variant`` allowed."""
        listed = subprocess.run([self.program, "--voices"], capture_output=True, text=True, timeout=30).stdout
        names = {line.split()[1] for line in listed.splitlines()[1:] if len(line.split()) > 1}
        return names | {f"{n}+{v}" for n in names for v in ("m1", "m2", "m3", "f1", "f2", "f3", "f4")}

    def render(self, text: str) -> bytes:
        """``text`` spoken, as a WAV file's bytes."""
        self.texts.append(text)
        amplitude = str(round(self.volume * 2))  # espeak-ng's amplitude runs 0-200, 100 its default
        command = [self.program, "-v", self.voice, "-a", amplitude, "-s", str(self.wpm), "--stdout", "--", text]
        done = subprocess.run(command, capture_output=True, timeout=30)
        if done.returncode != 0 or not done.stdout.startswith(b"RIFF"):
            raise SpeakerError(f"espeak-ng could not say {text!r} with voice {self.voice!r}: "
                               f"{done.stderr.decode(errors='replace').strip()[:200]}")
        return done.stdout


def chime_wav(volume: int = 80, seconds: float = 0.45) -> bytes:
    """A short bell: two tones dying away, as 16-bit mono WAV bytes."""
    t = np.arange(int(RATE * seconds)) / RATE
    bell = sum(np.sin(2 * np.pi * hz * t) for hz in CHIME_HZ) * np.exp(-t * 7.0) / len(CHIME_HZ)
    bell[: int(RATE * 0.005)] *= np.linspace(0, 1, int(RATE * 0.005))  # no click at the start
    return wav_bytes(bell * (volume / 100) * 0.8, RATE)


class Playback:
    """The Pi's speaker through ALSA's ``aplay`` (or PulseAudio/PipeWire's ``paplay``)."""

    def __init__(self) -> None:
        player = shutil.which("aplay") or shutil.which("paplay")
        if player is None:
            raise SpeakerError("no way to play sound: sudo apt install alsa-utils")
        self.command = [player, "-q"] if player.endswith("aplay") else [player]

    def play(self, wav: bytes, label: str) -> None:
        with tempfile.NamedTemporaryFile(suffix=".wav") as f:
            f.write(wav)
            f.flush()
            subprocess.run([*self.command, f.name], capture_output=True, timeout=60)


class WavFolder:
    """Each utterance kept as ``NNN-label.wav`` in ``folder``, in order: the speaker for tests and benches."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.files: list[Path] = []
        self._lock = threading.Lock()

    def play(self, wav: bytes, label: str) -> None:
        with self._lock:
            path = self.folder / f"{len(self.files):03d}-{label}.wav"
            path.write_bytes(wav)
            self.files.append(path)


def samples(wav: bytes) -> np.ndarray:
    """A WAV file's samples as floats in [-1, 1] (16-bit mono, as espeak-ng and the chime write)."""
    with wave.open(io.BytesIO(wav)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float32) / 32768

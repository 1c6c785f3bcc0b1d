"""The group's "In-can-to!" three times, as the Pi's microphone would hear it: three espeak-ng voices
(people never say it twice the same way, and the enrolment checks that the takes agree), each with a
breath of quiet around it."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

VOICES = ((130, 40), (150, 55), (140, 48))  # words a minute, pitch


def three_chants(folder: Path, rate: int = 16000) -> Path:
    """A WAV file of three chants, at ``rate``; the test is skipped without espeak-ng and sox."""
    if shutil.which("espeak-ng") is None or shutil.which("sox") is None:
        pytest.skip("espeak-ng and sox are needed to say the chant")
    takes = []
    for speed, pitch in VOICES:
        said, take = folder / f"said-{speed}.wav", folder / f"take-{speed}.wav"
        subprocess.run(["espeak-ng", "-s", str(speed), "-p", str(pitch), "-w", str(said), "In-can-to!"], check=True)
        subprocess.run(["sox", str(said), "-r", str(rate), "-c", "1", str(take), "pad", "0.7", "0.9"], check=True)
        takes.append(str(take))
    out = folder / "chant.wav"
    subprocess.run(["sox", *takes, str(out)], check=True)
    return out


def quiet_room(folder: Path, seconds: float = 3.0) -> Path:
    """A WAV file of a quiet room: faint hiss, no chant."""
    import numpy as np

    from companion.cue.audio import write_wav

    out = folder / "room.wav"
    write_wav(out, (0.0005 * np.random.default_rng(1).standard_normal(int(seconds * 16000))).astype("float32"))
    return out

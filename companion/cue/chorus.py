"""A chorus of synthetic players: speech from espeak-ng, for rehearsing and measuring the cue.

Nothing here is used at the table; tests and the bench use it to make chants and table talk in many
voices, speeds and pitches. Every phrase is synthesised once per cache folder and kept as a WAV.
"""
from __future__ import annotations

import hashlib
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.cue.audio import read_wav, write_wav

CHANT = "In can toe!"  # spelled so espeak-ng says the three syllables of "In-can-to!"

# espeak-ng voices (accent + voice variant), each standing for one player at the table.
VOICES: tuple[str, ...] = (
    "en-us", "en+f3", "en-gb-scotland", "en-gb-x-rp+f2", "en-029", "en-us-nyc+m3",
    "en-gb-x-gbclan", "en-gb-x-gbcwmd+f4", "en-us+f1", "en+m5", "en-029+f5", "en-gb-scotland+m2",
)

# Phrases that must never be taken for the chant: near misses first, then table talk.
NEAR_MISSES: tuple[str, ...] = (
    "Incantatum", "Toronto", "Let us go", "In a can", "Incandescent", "Can't do", "Income tax",
    "Kentucky", "Into the woods", "Canto", "In Toronto", "Candle", "Ten to two", "Intended",
)
TABLE_TALK: tuple[str, ...] = (
    "Whose turn is it now?", "I think I'll draw another card.", "Pass me the dice, please.",
    "That's not fair, you moved twice!", "Can you read the rule again?", "I'll trade you two gems.",
    "Wait, wait, let me think.", "Who wants more tea?", "Seven, that's a seven!",
    "I go to the tower and cast a spell.", "Let's count the points.", "Nobody touch the board.",
    "My wizard is stronger than yours.", "Shuffle the deck first.", "Again? Really?",
    "It's your move, Anna.", "I put the token on the bridge.", "That was close.",
    "Okay, okay, I give up.", "Where did the blue token go?", "In the castle, under the stairs.",
    "Can I see your cards?", "Two more turns and I win.", "Let us go to the market.",
    "Quiet, everyone, listen.", "The cat is on the table again.", "No, the other wand.",
    "Take a potion and roll.", "I'm counting to ten.", "Toronto is where my cousin lives.",
)


class SpeechError(RuntimeError):
    """espeak-ng is missing or refused a voice."""


@dataclass(frozen=True)
class Take:
    """One thing said by one synthetic player: espeak-ng's words-per-minute speed, pitch 0-99."""

    text: str
    voice: str
    speed: int = 150
    pitch: int = 50

    def key(self) -> str:
        return hashlib.sha1(repr(self).encode()).hexdigest()[:16]


def espeak() -> str:
    """The espeak-ng executable, or a clear error saying it is needed."""
    found = shutil.which("espeak-ng")
    if found is None:
        raise SpeechError("espeak-ng is not installed (Debian package 'espeak-ng')")
    return found


def say(take: Take, cache: Path) -> np.ndarray:
    """A take -> (n,) float32 16 kHz audio, synthesised once and then read from ``cache``."""
    path = Path(cache) / f"{take.key()}.wav"
    if not path.exists():
        _synthesise(take, path)
    return read_wav(path)


def _synthesise(take: Take, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = path.with_suffix(".espeak.wav")
    command = [espeak(), "-v", take.voice, "-s", str(take.speed), "-p", str(take.pitch), "-w", str(raw), take.text]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not raw.exists():
        raise SpeechError(f"espeak-ng could not say {take.text!r} in voice {take.voice!r}: {done.stderr.strip()}")
    # Resampled to 16 kHz once here, so every later read is cheap.
    write_wav(path, read_wav(raw))
    raw.unlink()

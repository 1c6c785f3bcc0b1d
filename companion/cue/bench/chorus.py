"""A chorus of synthetic players from three speech engines, for rehearsing and measuring the cue.

Nothing here is used at the table; tests and the bench use it to make chants and table talk in many
voices, speeds and pitches. A voice is ``engine:name`` (a bare name is an espeak-ng voice):

    espeak-ng:en-us      formant synthesis, many accents and variants (Debian ``espeak-ng``)
    festival:ked         diphone and HTS voices (Debian ``festival``, ``festvox-*``); festival:lp,
                         pc, fi_lj, fi_mv, cs_dita, cs_machac: Italian, Finnish and Czech voices reading English
    flite:awb            Festival's small sibling with its own voices (Debian ``flite``)

espeak-ng speaks at the take's speed and pitch itself; for the other two, sox stretches the tempo and
shifts the pitch of the engine's own delivery. Every phrase is synthesised once per cache folder.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.cue.audio import read_wav, write_wav

CHANT = "In can toe!"  # spelled so every engine says the three syllables of "In-can-to!"

# espeak-ng voices (accent + voice variant), each standing for one player at the table.
VOICES: tuple[str, ...] = (
    "en-us", "en+f3", "en-gb-scotland", "en-gb-x-rp+f2", "en-029", "en-us-nyc+m3",
    "en-gb-x-gbclan", "en-gb-x-gbcwmd+f4", "en-us+f1", "en+m5", "en-029+f5", "en-gb-scotland+m2",
)
FESTIVAL_VOICES = {
    "kal": "voice_kal_diphone", "ked": "voice_ked_diphone", "slt": "voice_cmu_us_slt_arctic_hts",
    # festival's Italian, Finnish and Czech voices reading the English words: accented speakers that
    # neither the chant model's training nor any tuning hears (Finnish and Czech: the bench's held-out
    # panel; the Italian ones fail on a line of the table talk). Debian festvox-italp16k,
    # festvox-itapc16k, festvox-suopuhe-lj, festvox-suopuhe-mv, festvox-czech-dita, festvox-czech-machac.
    "lp": "voice_lp_diphone", "pc": "voice_pc_diphone", "fi_lj": "voice_suo_fi_lj_diphone",
    "fi_mv": "voice_hy_fi_mv_diphone", "cs_dita": "voice_czech_dita", "cs_machac": "voice_czech_machac",
}
FLITE_VOICES = ("awb", "rms", "slt", "kal16", "kal")

# The five games' names, said all night, and words that share the chant's sounds.
GAME_NAMES: tuple[str, ...] = ("Incantibus", "Ravenskeep", "Via Magica", "Witchcraft", "Grimoire des Wahnsinns")
NEAR_MISSES: tuple[str, ...] = GAME_NAMES + (
    "Incantation", "Intended", "Canto", "Can't go", "In Cancun", "Incantatum", "Toronto", "Let us go",
    "In a can", "Incandescent", "Can't do", "Income tax", "Kentucky", "Into the woods", "In Toronto",
    "Candle", "Ten to two", "Incantibus again!", "Cancel that", "Can't you?", "In Canterbury",
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
    "Shall we play Incantibus again?", "Who holds the strongest wand?", "I can't go first, can I?",
)


class SpeechError(RuntimeError):
    """A speech engine is missing or refused a voice."""


@dataclass(frozen=True)
class Take:
    """One thing said by one synthetic player: words-per-minute speed (150 is everyday) and pitch
    0-99 (50 is the voice's own)."""

    text: str
    voice: str
    speed: int = 150
    pitch: int = 50

    def key(self) -> str:
        return hashlib.sha1(repr(self).encode()).hexdigest()[:16]

    @property
    def engine(self) -> str:
        return engine_of(self.voice)


def engine_of(voice: str) -> str:
    return voice.split(":", 1)[0] if ":" in voice else "espeak-ng"


def _name(voice: str) -> str:
    return voice.split(":", 1)[1] if ":" in voice else voice


def program(name: str, package: str) -> str:
    """An engine's executable, or a clear error naming its Debian package."""
    found = shutil.which(name)
    if found is None:
        raise SpeechError(f"{name} is not installed (Debian package {package!r})")
    return found


def say(take: Take, cache: Path) -> np.ndarray:
    """A take -> (n,) float32 16 kHz audio, synthesised once and then read from ``cache``."""
    path = Path(cache) / f"{take.key()}.wav"
    if not path.exists():
        _synthesise(take, path)
    return read_wav(path)


def _synthesise(take: Take, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = path.with_suffix(f".{os.getpid()}.raw.wav")  # two runs may share a cache folder
    engines = {"espeak-ng": _espeak, "festival": _festival, "flite": _flite}
    if take.engine not in engines:
        raise SpeechError(f"unknown speech engine {take.engine!r} in voice {take.voice!r}; known: {sorted(engines)!r}")
    engines[take.engine](take, raw)
    if not raw.exists() or raw.stat().st_size < 100:
        raise SpeechError(f"{take.engine} could not say {take.text!r} in voice {take.voice!r}")
    if take.engine != "espeak-ng" and (take.speed, take.pitch) != (150, 50):
        _restyle(raw, take.speed / 150.0, (take.pitch - 50) * 12)
    # Resampled to 16 kHz once here, so every later read is cheap; written aside and moved into
    # place whole, so a run sharing the folder never reads a half-written file.
    done = path.with_suffix(f".{os.getpid()}.done.wav")
    write_wav(done, read_wav(raw))
    os.replace(done, path)
    raw.unlink()


def _run(command: list[str], take: Take, stdin: str | None = None) -> None:
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SpeechError(f"{take.engine} could not say {take.text!r} in voice {take.voice!r}: {done.stderr.strip()[-300:]}")


def _espeak(take: Take, raw: Path) -> None:
    _run([program("espeak-ng", "espeak-ng"), "-v", _name(take.voice), "-s", str(take.speed), "-p", str(take.pitch),
          "-w", str(raw), take.text], take)


def _festival(take: Take, raw: Path) -> None:
    voice = FESTIVAL_VOICES.get(_name(take.voice))
    if voice is None:
        raise SpeechError(f"unknown festival voice {take.voice!r}; known: {sorted(FESTIVAL_VOICES)!r}")
    _run([program("text2wave", "festival"), "-eval", f"({voice})", "-o", str(raw)], take, stdin=take.text)


def _flite(take: Take, raw: Path) -> None:
    _run([program("flite", "flite"), "-voice", _name(take.voice), "-t", take.text, "-o", str(raw)], take)


def _restyle(raw: Path, tempo: float, cents: int) -> None:
    """Stretch the tempo (pitch kept) and shift the pitch (tempo kept) of a WAV file, in place."""
    out = raw.with_name(raw.name + ".styled.wav")
    command = [program("sox", "sox"), str(raw), str(out), "tempo", "-s", f"{tempo:.3f}"]
    subprocess.run(command + (["pitch", str(cents)] if cents else []), capture_output=True, check=True)
    out.replace(raw)

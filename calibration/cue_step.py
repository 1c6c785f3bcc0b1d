"""The cue step: the group's "In-can-to!" recorded (from the Pi's microphone, or a WAV sent up), handed
to the cue's own enrolment (``companion.cue.enrol``), and named in the profile's cue section."""
from __future__ import annotations

import struct
import tempfile
from pathlib import Path

from calibration.model import CalibrationError
from companion.cue import CueError
from companion.cue.config import CueConfig
from companion.cue.enrol import enrol_player, takes_from_wavs

MAX_RECORDING_BYTES = 4_000_000  # two minutes of 16 kHz 16-bit mono: far more than three chants
RATES_HZ = (8_000, 48_000)  # a tablet's microphone records at one of these; 1 Hz would cost minutes of CPU
CHANNELS = (1, 2)
MAX_SECONDS = 120.0
HEADER_BYTES = 44  # RIFF, WAVE and a plain fmt chunk: enough to say what the recording is


def cue_folder(profile: Path) -> Path:
    """The chant book beside the profile, so one table's setup travels as one folder."""
    return Path(profile).with_name("cue")


def wav_problem(wav: bytes) -> str | None:
    """What is wrong with a WAV recording's header, in words, or None: 16-bit PCM, one or two channels,
    8 to 48 kHz, at most two minutes. Read from the first bytes only, so a part can be refused as it arrives."""
    if len(wav) < 12 or not wav.startswith(b"RIFF") or wav[8:12] != b"WAVE":
        return "the recording is not a WAV file"
    at = 12
    while at + 8 <= min(len(wav), 4096):  # the fmt chunk comes first, after at most a few small ones
        chunk, size = wav[at:at + 4], struct.unpack("<I", wav[at + 4:at + 8])[0]
        if chunk == b"fmt ":
            return _format_problem(wav[at + 8:at + 8 + min(size, 16)], len(wav))
        at += 8 + size + size % 2
    return "the recording's WAV header has no format chunk"


def _format_problem(fmt: bytes, total: int) -> str | None:
    if len(fmt) < 16:
        return "the recording's WAV format chunk is cut short"
    kind, channels, rate, _, _, bits = struct.unpack("<HHIIHH", fmt)
    if kind not in (1, 0xFFFE) or bits != 16:
        return f"the recording is not 16-bit PCM (format {kind}, {bits} bits)"
    if not CHANNELS[0] <= channels <= CHANNELS[1]:
        return f"the recording has {channels} channels; one or two"
    if not RATES_HZ[0] <= rate <= RATES_HZ[1]:
        return f"the recording's rate is {rate} Hz; from {RATES_HZ[0]} to {RATES_HZ[1]} Hz"
    if (total - HEADER_BYTES) / (rate * channels * 2) > MAX_SECONDS:
        return f"the recording is over {MAX_SECONDS:g} s long; keep it to a few chants"
    return None


def enrol_recording(profile: Path, player: str, wav: bytes) -> int:
    """The takes heard in one WAV recording, enrolled for ``player``; how many there were."""
    if (problem := wav_problem(wav)) is not None:
        raise CalibrationError(f"{problem}: record again")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "chant.wav"
        path.write_bytes(wav)
        try:
            takes = takes_from_wavs([path])
            enrol_player(player, takes, CueConfig(templates_dir=cue_folder(profile)))
        except CueError as e:  # the enrolment names the file: here it is the one recording, not a path
            said = str(e).replace(repr(str(path)), "the recording")
            raise CalibrationError(f"{said}: say \"In-can-to!\" three times, with a breath between") from None
    return len(takes)

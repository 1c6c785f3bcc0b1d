"""The cue step: the group's "In-can-to!" recorded on the tablet, handed to the cue's own enrolment
(``companion.cue.enrol``), and named in the profile's cue section."""
from __future__ import annotations

import tempfile
from pathlib import Path

from calibration.model import CalibrationError
from companion.cue import CueError
from companion.cue.config import CueConfig
from companion.cue.enrol import enrol_player, takes_from_wavs

MAX_RECORDING_BYTES = 4_000_000  # two minutes of 16 kHz 16-bit mono: far more than three chants


def cue_folder(profile: Path) -> Path:
    """The chant book beside the profile, so one table's setup travels as one folder."""
    return Path(profile).with_name("cue")


def enrol_recording(profile: Path, player: str, wav: bytes) -> int:
    """The takes heard in one WAV recording, enrolled for ``player``; how many there were."""
    if not wav.startswith(b"RIFF") or wav[8:12] != b"WAVE":
        raise CalibrationError("the recording is not a WAV file: record again")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "chant.wav"
        path.write_bytes(wav)
        try:
            takes = takes_from_wavs([path])
            enrol_player(player, takes, CueConfig(templates_dir=cue_folder(profile)))
        except CueError as e:
            raise CalibrationError(f"{e}: say \"In-can-to!\" three times, with a breath between") from None
    return len(takes)

"""Every small JSON file Incanto reads (vision configuration, profile, places, layout taps) is refused
in one line naming the file, whatever is wrong with it: missing, a folder, not text, not JSON."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from calibration.layout import read_taps
from calibration.model import CalibrationError
from vision.config import ConfigError, load_config
from vision.profile import ProfileError, load_places, load_profile

READERS: dict[str, tuple[Callable[[Path], object], type[Exception]]] = {
    "vision configuration": (load_config, ConfigError),
    "profile": (load_profile, ProfileError),
    "places file": (load_places, ProfileError),
    "taps file": (read_taps, CalibrationError),
}
BAD = {
    "a folder": (lambda p: p.mkdir(), "is a folder"),
    "not text": (lambda p: p.write_bytes(b"\xff\xfe\x00junk\x9c"), "is not text"),
    "not JSON": (lambda p: p.write_text("{places: [1, 2"), "is not valid JSON"),
    "missing": (lambda p: None, "no "),
}


@pytest.mark.parametrize("what", list(READERS))
@pytest.mark.parametrize("bad", list(BAD))
def test_a_bad_file_is_refused_in_one_line_naming_it(tmp_path: Path, what: str, bad: str) -> None:
    read, error = READERS[what]
    path = tmp_path / "settings.json"
    make, words = BAD[bad]
    make(path)
    with pytest.raises(error) as refused:
        read(path)
    message = str(refused.value)
    assert words in message and str(path) in message and "\n" not in message

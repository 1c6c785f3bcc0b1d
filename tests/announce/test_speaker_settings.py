"""The speaker's settings: in settings.json's ``speaker`` part, and as serve's flags, which win."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.night_at_the_table import CannotStart
from companion.night_at_the_table.serve import parse, settings_of


def test_the_file_then_the_flags(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"speaker": {"voice": "de", "volume": 60}}))
    settings = settings_of(parse(["--volume", "30"]), tmp_path)
    assert (settings.speaker.voice, settings.speaker.volume, settings.speaker.mute) == ("de", 30, False)
    assert settings_of(parse(["--mute"]), tmp_path).speaker.mute


def test_a_bad_volume_is_named_by_its_flag(tmp_path: Path) -> None:
    with pytest.raises(CannotStart, match=r"--volume \(speaker.volume\)"):
        settings_of(parse(["--volume", "150"]), tmp_path)

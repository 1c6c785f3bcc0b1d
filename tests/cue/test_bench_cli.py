"""The cue bench's command line refuses a length of talk it cannot listen to, naming the value."""
from __future__ import annotations

import pytest

from companion.cue.bench.__main__ import main


@pytest.mark.parametrize("hours, said", [("0", "'0' hours"), ("-4", "'-4' hours"), ("13", "'13' hours"),
                                         ("four", "'four' is not a number of hours")])
def test_a_bad_length_of_talk_is_refused_by_name(hours: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--talk-hours", hours])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_bad_settings_to_measure_are_refused_by_name(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "cue.json").write_text('{"model_relax": 9.0, "loudness": 1}')
    with pytest.raises(SystemExit) as stop:
        main(["--config", str(tmp_path / "cue.json")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "model_relax" in err and "9.0" in err and "loudness: unknown setting" in err and "Traceback" not in err


def test_talk_hours_are_kept_with_quick_and_a_game_night_otherwise() -> None:
    from companion.cue.bench import talk_seconds

    assert talk_seconds(True, None) == 300.0
    assert talk_seconds(False, None) == 4 * 3600.0
    assert talk_seconds(True, 1.0) == 3600.0  # an hour of each talk on the quick panel
    assert talk_seconds(False, 0.5) == 1800.0

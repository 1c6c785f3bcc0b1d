import json
from pathlib import Path

import pytest

from companion.cue import CueError
from companion.cue.config import CueConfig, from_dict, load


def test_settings_round_trip_through_json(tmp_path):
    data = {"templates_dir": str(tmp_path), "threshold": 2.5, "band": 0.3, "voice": {"hangover_s": 0.3},
            "features": {"gate_nats": 3.5}}
    (tmp_path / "cue.json").write_text(json.dumps(data))
    config = load(tmp_path / "cue.json")
    assert config.templates_dir == Path(tmp_path) and config.threshold == 2.5 and config.band == 0.3
    assert config.voice.hangover_s == 0.3 and config.features.gate_nats == 3.5
    assert from_dict(config.to_dict()) == config


@pytest.mark.parametrize("data,named", [
    ({"threshold": -1}, "-1"),
    ({"threshold": "high"}, "'high'"),
    ({"voice": {"hangover": 0.3}}, "'hangover'"),
    ({"voice": {"hangover_s": "long"}}, "'long'"),
    ({"features": []}, r"\[\]"),
    ({"bandwidth": 3}, "'bandwidth'"),
])
def test_bad_settings_are_named(data, named):
    with pytest.raises(CueError, match=named):
        from_dict(data)


def test_missing_or_broken_settings_files(tmp_path):
    with pytest.raises(CueError, match="nowhere.json"):
        load(tmp_path / "nowhere.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match="bad.json"):
        load(tmp_path / "bad.json")
    assert CueConfig().threshold is None

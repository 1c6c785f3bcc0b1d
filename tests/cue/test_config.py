import json
from pathlib import Path

import pytest

from companion.cue import CueError
from companion.cue.config import CueConfig, from_dict, load


def test_settings_round_trip_through_json(tmp_path):
    data = {"templates_dir": str(tmp_path), "threshold": 2.5, "band": 0.3, "voice": {"hangover_s": 0.3},
            "features": {"gate_nats": 3.5}, "near_miss_margin": 1.2}
    (tmp_path / "cue.json").write_text(json.dumps(data))
    config = load(tmp_path / "cue.json")
    assert config.templates_dir == Path(tmp_path) and config.threshold == 2.5 and config.band == 0.3
    assert config.voice.hangover_s == 0.3 and config.features.gate_nats == 3.5 and config.near_miss_margin == 1.2
    assert from_dict(config.to_dict()) == config


@pytest.mark.parametrize("data,named", [
    ({"threshold": -1}, r"threshold: input should be greater than 0 \(given -1\)"),
    ({"threshold": "high"}, r"threshold: .*\(given 'high'\)"),
    ({"threshold": "2.5"}, r"threshold: .*\(given '2.5'\)"),  # a quoted number is a mistake, not a number
    ({"voice": {"hangover": 0.3}}, "voice.hangover: unknown setting; known here: .*hangover_s"),
    ({"voice": {"hangover_s": "long"}}, r"voice.hangover_s: .*\(given 'long'\)"),
    ({"features": {"n_mfcc": 13, "colour": 1}}, "features.colour: unknown setting; known here: .*n_mfcc"),
    ({"features": []}, r"features: .*\(given \[\]\)"),
    ({"bandwidth": 3}, "bandwidth: unknown setting; known here: band, "),
    ({"band": 3}, r"band: input should be less than or equal to 1 \(given 3\)"),
    ({"warps": [0.9, 2.0]}, r"warps.1: input should be less than or equal to 1.4 \(given 2.0\)"),
    ({"warps": 1.1}, r"warps: .*\(given 1.1\)"),
])
def test_bad_settings_are_named_with_what_is_allowed(data, named):
    with pytest.raises(CueError, match=named):
        from_dict(data)


def test_every_problem_of_a_file_is_named_at_once_and_nothing_is_used(tmp_path):
    (tmp_path / "cue.json").write_text(json.dumps({"threshold": 0, "voice": {"hangover": 1, "start_nats": -2}, "bandwidth": 3}))
    with pytest.raises(CueError) as refused:
        load(tmp_path / "cue.json")
    message = str(refused.value)
    assert message.startswith(f"{str(tmp_path / 'cue.json')!r}: 4 bad cue setting(s)")
    for named in ("threshold:", "voice.hangover:", "voice.start_nats:", "bandwidth:"):
        assert named in message


def test_missing_or_broken_settings_files(tmp_path):
    with pytest.raises(CueError, match="nowhere.json"):
        load(tmp_path / "nowhere.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match="bad.json"):
        load(tmp_path / "bad.json")
    (tmp_path / "list.json").write_text("[1]")
    with pytest.raises(CueError, match="must be a JSON object"):
        load(tmp_path / "list.json")
    assert CueConfig().threshold is None

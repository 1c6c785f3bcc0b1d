"""The vision configuration a person can hold in their head: few keys, each documented with the physical
reason for its range; every other threshold computed from the rig, equal at the standard rig to the
value it replaced; a file from before still loads."""
from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest

from vision.config import DEFAULT_PATH, RETIRED, SECTIONS, ConfigError, load_config

BEFORE = Path(__file__).parents[1] / "data" / "vision_config_before_issue19.json"  # the 56-key file of before
CONFIG_MD = DEFAULT_PATH.with_name("CONFIG.md")


def _leaves(data: dict, prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update(_leaves(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


def _documented() -> dict[str, str]:
    """key -> its row's reason, from CONFIG.md's table of settings (``| `key` | unit | range | why |``)."""
    rows = re.findall(r"^\| `([a-z_.]+)` \|[^|]*\|[^|]*\|(.*)\|$", CONFIG_MD.read_text(), re.M)
    return {key: why.strip() for key, why in rows}


def test_a_third_of_the_keys_remain() -> None:
    keys = _leaves(json.loads(DEFAULT_PATH.read_text()))
    assert len(keys) <= 19 < len(_leaves(json.loads(BEFORE.read_text()))) / 2


def test_every_setting_is_documented_with_its_reason() -> None:
    keys = set(_leaves(json.loads(DEFAULT_PATH.read_text())))
    documented = _documented()
    assert keys == set(documented)
    assert all(len(why) > 40 for why in documented.values()), documented


def test_every_computed_value_is_listed_with_what_it_stands_on() -> None:
    """A row of the computed table names its section once: `markers.bead_area_min_ratio`, `bead_area_max_ratio`."""
    computed = CONFIG_MD.read_text().split("## Computed, not configured", 1)[1]
    listed = set()
    for line in computed.splitlines():
        cells = line.split("|")
        names = re.findall(r"`([a-z_.]+)`", cells[1]) if len(cells) > 3 else []
        section = names[0].split(".")[0] if names else ""
        listed |= {f"{section}.{n.split('.')[-1]}" for n in names}
        assert all(len(c.strip()) > 0 for c in cells[2:-1]), line
    assert {f"{s}.{k}" for s, keys in RETIRED.items() for k in keys if k != "style"} <= listed


def test_a_file_from_before_loads_to_the_same_settings_and_notes_each_retired_key(caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="vision.config"):
        old = load_config(BEFORE)
    assert old == load_config()
    noted = [r.getMessage() for r in caplog.records]
    assert len(noted) == sum(len(keys) for keys in RETIRED.values()) == 35
    assert any("'markers.style' is no longer a setting" in line and "\n" not in line for line in noted)


def test_a_retired_key_is_ignored_whatever_its_value(tmp_path: Path, caplog) -> None:
    path = tmp_path / "vision.json"
    path.write_text(json.dumps({"pointing": {"hover_max_bead_scale": {"1": 0.0, "2": 1.2}, "aim_sigma_mm": 9.0}}))
    with caplog.at_level(logging.WARNING, logger="vision.config"):
        cfg = load_config(path)
    assert cfg.pointing.hover_max_bead_scale == 1.04 and cfg.pointing.aim_sigma_mm == 9.0
    assert "'pointing.hover_max_bead_scale' is no longer a setting (computed: 1.04), ignored" in caplog.text


def test_a_misspelt_key_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "vision.json"
    path.write_text(json.dumps({"pointing": {"min_height": 14.0}}))
    with pytest.raises(ConfigError, match=r"unknown setting 'pointing\.min_height'"):
        load_config(path)


@pytest.mark.parametrize("key", sorted(f"{s}.{k}" for s, keys in RETIRED.items() for k in keys if k != "style"))
def test_each_computed_value_equals_the_setting_it_replaced_at_the_standard_rig(key: str) -> None:
    section, name = key.split(".")
    before = _leaves(json.loads(BEFORE.read_text()))
    was = before.get(key, before.get(f"{key}.1"))  # the per-wand bead scales were four equal values
    assert getattr(SECTIONS[section], name) == pytest.approx(was, rel=1e-9)


def test_the_two_partly_hidden_thresholds_are_one() -> None:
    cfg = load_config()
    assert cfg.markers.partial_below_ratio == pytest.approx(cfg.pointing.partial_bead_ratio ** 2)


def test_the_configuration_reads_nothing_of_the_renderer() -> None:
    """No default copied from the renderer's own ranges: the config stands on the rig, not on the scenes."""
    source = DEFAULT_PATH.with_name("config.py").read_text()
    assert "render" not in re.sub(r'""".*?"""|#.*', "", source, flags=re.S)

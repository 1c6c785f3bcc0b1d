"""The profile file: written and read back, and refused (with every reason) when stale, damaged or made
for another camera resolution."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.profile import (SCHEMA_VERSION, CueSection, PaintModel, Place, PlacesRef, ProfileError, TablePlaces,
                            load_places, load_profile, profile_places, save_places, save_profile)
from vision.render.scene import random_camera


def a_profile():
    return random_camera(np.random.default_rng(0)).calibration().with_parts(wands={
        "2": PaintModel(hue=64, hue_tolerance=9, min_saturation=120, min_value=40, bead_radius_mm=11.5).model_dump()})


def test_a_profile_is_saved_and_read_back_whole(tmp_path: Path) -> None:
    profile = a_profile().with_parts(cue=CueSection(templates=["cue/lera.wav"]).model_dump(),
                                     places=PlacesRef(file="places.json").model_dump())
    save_profile(profile, tmp_path / "p.json")
    back = load_profile(tmp_path / "p.json", resolution=(640, 480))
    assert back == profile and back.wands[2].bead_radius_mm == 11.5
    assert json.loads((tmp_path / "p.json").read_text())["schema"] == SCHEMA_VERSION
    assert not list(tmp_path.glob("*.tmp"))


def test_a_stale_profile_is_refused_as_stale(tmp_path: Path) -> None:
    data = json.loads(a_profile().model_dump_json(by_alias=True))
    (tmp_path / "old.json").write_text(json.dumps({**data, "schema": 1}))
    with pytest.raises(ProfileError, match="stale.*schema 1"):
        load_profile(tmp_path / "old.json")


def test_another_resolution_is_refused(tmp_path: Path) -> None:
    save_profile(a_profile(), tmp_path / "p.json")
    with pytest.raises(ProfileError, match="640x480.*1280x720"):
        load_profile(tmp_path / "p.json", resolution=(1280, 720))


def test_every_bad_value_is_named_at_once(tmp_path: Path) -> None:
    data = json.loads(a_profile().model_dump_json(by_alias=True))
    data["camera"]["fx"] = -3
    data["wands"]["7"] = dict(data["wands"]["2"])
    data["wands"]["2"]["hue"] = 400
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(ProfileError) as e:
        load_profile(tmp_path / "bad.json")
    message = str(e.value)
    assert "camera.fx" in message and "wands.2.hue" in message and "400" in message and "wands.7" in message


def test_missing_and_damaged_files_say_what_to_run(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="python -m calibration"):
        load_profile(tmp_path / "none.json")
    (tmp_path / "half.json").write_text('{"schema": 2, "ima')
    with pytest.raises(ProfileError, match="is not valid JSON"):
        load_profile(tmp_path / "half.json")


def test_places_come_from_the_file_the_profile_names(tmp_path: Path) -> None:
    save_places(TablePlaces(game="incantibus", places={"room1": Place(x_mm=500, y_mm=420)}), tmp_path / "places.json")
    profile = a_profile().with_parts(places={"file": "places.json"})
    assert profile_places(profile, tmp_path / "p.json")["room1"].x_mm == 500
    assert load_places(tmp_path / "places.json").game == "incantibus"

"""The one profile: a stale, damaged, invalid or other-resolution profile is refused with its reason,
the last good one is kept and used meanwhile, and a refused step leaves the profile as it was."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from calibration.__main__ import main
from calibration.model import CalibrationError
from calibration.profiles import last_good_path, load, load_kept, save
from calibration.steps import find_table
from calibration.table import DEFAULT_LAYOUT
from companion import words
from companion.words.said import words_of
from vision.profile import CameraIntrinsics, ImageSize, Profile, save_profile

GOOD = Profile(image=ImageSize(width=640, height=480), camera=CameraIntrinsics(fx=560.0, fy=560.0, cx=318.0, cy=243.0))


def test_a_profile_of_another_resolution_is_refused_and_the_last_good_one_kept(cal_path: Path) -> None:
    save(GOOD, cal_path)
    wide = GOOD.with_parts(image={"width": 1280, "height": 720})
    save_profile(wide, cal_path)  # someone copies in a profile of another camera mode
    with pytest.raises(CalibrationError, match="made for 1280x720 images but the camera gives 640x480"):
        load(cal_path, (640, 480))
    kept, reason = load_kept(cal_path, (640, 480))
    assert kept == GOOD and reason is not None and "1280x720" in reason and "last good" in reason
    # The refusal as a German tablet says it, from its catalogue words, the same sentence as the English.
    assert words_of(reason) is not None and words.say("en", **_said(reason)) == reason
    assert words.say("de", **_said(reason)).startswith(f"Profil {str(cal_path)!r} wurde für Bilder mit 1280x720 gemacht")


def _said(reason: object) -> dict[str, Any]:
    said = words_of(reason) or {}
    return {"key": said["key"], **said["values"]}


@pytest.mark.parametrize("damage,named", [
    (lambda d: {**d, "schema": 1}, "stale"),
    (lambda d: "{not json", "not valid JSON"),
    (lambda d: {**d, "camera": {**d["camera"], "fx": -3, "dist": [0, 0]}, "colour": "red"},
     ["camera.fx: Input should be greater than 0 (got -3)", "camera.dist", "colour: Extra inputs are not permitted"]),
])
def test_a_bad_profile_is_refused_with_every_reason_and_status_says_so(cal_path: Path, capsys, damage, named) -> None:  # type: ignore[no-untyped-def]
    save(GOOD, cal_path)
    bad = damage(json.loads(cal_path.read_text()))
    cal_path.write_text(bad if isinstance(bad, str) else json.dumps(bad))
    with pytest.raises(CalibrationError) as refused:
        load(cal_path)
    for reason_part in [named] if isinstance(named, str) else named:
        assert reason_part in str(refused.value)
    kept, reason = load_kept(cal_path)
    assert kept == GOOD and words.say("de", **_said(reason)).startswith("Die Kalibrierdatei wurde abgelehnt (")
    assert main(["status", "--profile", str(cal_path)]) == 0
    out = capsys.readouterr().out
    assert "refused: " in out and "last good" in out and "camera: calibrated 640x480" in out


def test_without_a_last_good_one_the_refusal_stands(cal_path: Path) -> None:
    save_profile(GOOD.with_parts(image={"width": 1280, "height": 720}), cal_path)
    assert not last_good_path(cal_path).exists()
    with pytest.raises(CalibrationError, match="1280x720"):
        load_kept(cal_path, (640, 480))


def test_a_picture_of_another_size_changes_nothing(cal_path: Path) -> None:
    save(GOOD, cal_path)
    before = cal_path.read_bytes()
    with pytest.raises(CalibrationError, match="the picture is 1280x720 but the camera was calibrated at 640x480"):
        find_table(cal_path, np.zeros((720, 1280, 3), np.uint8), DEFAULT_LAYOUT)
    assert cal_path.read_bytes() == before


def test_a_table_step_that_sees_no_markers_says_which_and_changes_nothing(cal_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    save(GOOD, cal_path)
    before = cal_path.read_bytes()
    blank = cal_path.with_name("blank.png")
    import cv2
    cv2.imwrite(str(blank), np.full((480, 640, 3), 180, np.uint8))
    assert main(["table", "--profile", str(cal_path), "--image", str(blank)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "markers 0 (near left, in front of the sorcerer row)" in err and "are not visible: are they covered?" in err
    assert cal_path.read_bytes() == before


@pytest.mark.parametrize("damage,german,english", [
    (lambda d: "{not json", "(kein lesbares JSON)", "unreadable JSON: profile"),
    (lambda d: {k: v for k, v in d.items() if k != "camera"}, "(Eintrag camera fehlt)", "missing key camera: profile"),
    (lambda d: {**d, "camera": {**d["camera"], "fx": -3}}, "(falscher Wert bei camera.fx)",
     "wrong value at camera.fx: profile"),
])
def test_a_damaged_profiles_reason_is_said_in_german_by_its_kind(cal_path: Path, damage, german: str,  # type: ignore[no-untyped-def]
                                                                 english: str) -> None:
    save(GOOD, cal_path)
    bad = damage(json.loads(cal_path.read_text()))
    cal_path.write_text(bad if isinstance(bad, str) else json.dumps(bad))
    _, reason = load_kept(cal_path)
    assert reason is not None
    said = words.say("de", **_said(reason))
    assert said.startswith("Die Kalibrierdatei wurde abgelehnt " + german + "; bis dahin"), said
    assert words.say("en", **_said(reason)) == str(reason) and str(reason).startswith(english), str(reason)

"""The wand step on rendered pictures of wands resting in view, whose paints the tool is not told:
the command learns each wand's colour and bead size into the profile, names a token in a wand's
colour by its place, and refuses wands it cannot tell apart without touching the profile."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.__main__ import main
from calibration.profiles import load, save
from vision.profile import PlacesRef, Place
from vision.render.scene import Paint, random_camera, random_paints
from vision.render.table import incantibus_layout
from vision.render.wandstep import WandStepShot, wand_step_frames


def write_shot(shot: WandStepShot, folder: Path) -> tuple[str, Path]:
    (folder / "frames").mkdir()
    for i, image in enumerate(shot.frames):
        cv2.imwrite(str(folder / "frames" / f"{i:03d}.png"), image)
    with open(folder / "frames" / "timestamps.csv", "w") as f:
        f.write("file,t\n" + "".join(f"{i:03d}.png,{i * 0.5}\n" for i in range(len(shot.frames))))
    cv2.imwrite(str(folder / "empty.png"), shot.table)
    return str(folder / "frames"), folder / "empty.png"


def hue_gap(a: float, b: float) -> float:
    return abs((a - b + 90) % 180 - 90)


def test_the_wands_are_learned_into_the_profile(tmp_path: Path, cal_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    shot = wand_step_frames(seed=5, count=4)
    save(shot.camera.calibration(), cal_path)
    frames, empty = write_shot(shot, tmp_path)
    assert main(["wands", "--source", frames, "--profile", str(cal_path), "--seconds", "5", "--empty-table", str(empty)]) == 0
    out = capsys.readouterr().out
    assert "warning" not in out and "learned from 4 pictures" in out
    wands = load(cal_path).wands
    assert sorted(wands) == [1, 2, 3, 4]
    for k, paint in shot.paints.items():
        assert hue_gap(wands[k].hue, paint.hue) < 4
        assert wands[k].bead_radius_mm == pytest.approx(paint.bead_radius_mm, rel=0.15)


def test_a_token_in_a_wands_colour_is_named_by_its_place(tmp_path: Path, cal_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    shot = wand_step_frames(seed=5, lookalike_for=1, count=3)
    rng = np.random.default_rng(5)  # drawn in the order wand_step_frames draws them
    random_camera(rng), random_paints(rng)
    first = incantibus_layout(rng).tokens[0]  # the token it paints in wand 1's colour
    places = {"p1": Place(x_mm=first.x_mm, y_mm=first.y_mm), "r0": Place(x_mm=first.x_mm + 120, y_mm=first.y_mm)}
    save(shot.camera.calibration().with_parts(places=PlacesRef(tokens=places).model_dump()), cal_path)
    frames, empty = write_shot(shot, tmp_path)
    assert main(["wands", "--source", frames, "--profile", str(cal_path), "--empty-table", str(empty)]) == 0
    out = capsys.readouterr().out
    assert "the token at p1 looks like wand 1's" in out and "lay it face down" in out
    assert "wand 2's" not in out and "wand 3's" not in out and "wand 4's" not in out
    assert load(cal_path).notes["wands"]["warnings"]



def test_a_lookalike_warning_is_said_in_german_with_its_colour() -> None:
    from calibration.wands import learn_wands, tip_lookalikes
    from companion import words
    from companion.words.said import words_of

    shot = wand_step_frames(seed=5, lookalike_for=1, count=3)
    rng = np.random.default_rng(5)
    random_camera(rng), random_paints(rng)
    first = incantibus_layout(rng).tokens[0]
    profile = shot.camera.calibration()
    learned = learn_wands(profile, shot.frames, shot.table)
    warning = tip_lookalikes(profile, shot.table, learned.models, {"p1": Place(x_mm=first.x_mm, y_mm=first.y_mm)})[0]
    said = words_of(warning)
    assert said is not None and said["key"] == "calibration.wands.lookalike_token"
    assert words.say("en", said["key"], **said["values"]) == warning
    german = words.say("de", said["key"], **said["values"])
    colour = said["values"]["colour"]["key"].rsplit(".", 1)[1]
    assert german.startswith("Der Spielstein auf p1 sieht aus wie die Spitze von Zauberstab 1 (")
    assert german.endswith(f"({words.say('de', f'calibration.colour.{colour}')}): Dreh ihn um, nimm ihn vom Tisch "
                           "oder setz LED-Spitzen ein")
    assert f"wand 1's {colour} tip" in warning


def test_wands_of_one_colour_are_refused_and_the_profile_kept(tmp_path: Path, cal_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    twins = {k: Paint(h) for k, h in {1: 37.0, 2: 53.0, 3: 110.0, 4: 152.0}.items()}  # a yellow gone green, a green gone yellow
    shot = wand_step_frames(seed=13, paints=twins, count=3)
    save(shot.camera.calibration(), cal_path)
    before = cal_path.read_bytes()
    frames, _ = write_shot(shot, tmp_path)
    assert main(["wands", "--source", frames, "--profile", str(cal_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "look alike" in err
    assert cal_path.read_bytes() == before

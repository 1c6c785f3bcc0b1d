"""The wand step's learning: paints and bead sizes from rendered frames of wands resting in view, whose
colours and sizes the learning is not told."""
from __future__ import annotations


from vision.paints import learn_paints, lookalikes, told_apart
from vision.profile import PaintModel
from vision.render.wandstep import wand_step_frames
from vision.table_geometry import TableGeometry


def test_paints_and_bead_sizes_are_learned_from_frames() -> None:
    shot = wand_step_frames(seed=3)
    geo = TableGeometry(shot.camera.calibration())
    models = learn_paints(shot.frames, background=shot.table, geometry=geo)
    assert set(models) == {1, 2, 3, 4}
    for k, paint in shot.paints.items():
        gap = abs((models[k].hue - paint.hue + 90) % 180 - 90)
        assert gap < 4, (k, models[k].hue, paint.hue)
        assert abs(models[k].bead_radius_mm - paint.bead_radius_mm) < 0.15 * paint.bead_radius_mm
    assert told_apart(models) == []


def test_given_tips_find_the_same_paints() -> None:
    shot = wand_step_frames(seed=4)
    models = learn_paints(shot.frames, tips=shot.tips)
    for k, paint in shot.paints.items():
        assert abs((models[k].hue - paint.hue + 90) % 180 - 90) < 4


def test_wands_of_one_colour_are_not_told_apart() -> None:
    a = PaintModel(hue=60, hue_tolerance=8, min_saturation=120, min_value=40, bead_radius_mm=12)
    b = PaintModel(hue=70, hue_tolerance=8, min_saturation=120, min_value=40, bead_radius_mm=12)
    problems = told_apart({1: a, 2: b, 3: a.model_copy(update={"hue": 110})})
    assert len(problems) == 1 and "wands 1 and 2" in problems[0]


def test_a_token_of_a_wands_colour_is_named_as_a_lookalike() -> None:
    shot = wand_step_frames(seed=5, lookalike_for=2)
    models = learn_paints(shot.frames, background=shot.table)
    found = lookalikes(shot.table, models, px_per_mm=0.55)
    assert [f.strength for f in found] == [2]
    assert "wand 2" in found[0].words and "tip" in found[0].words
    assert lookalikes(wand_step_frames(seed=5).table, models, px_per_mm=0.55) == []

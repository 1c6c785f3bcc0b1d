"""Whole castings on rendered scenes: right on hover, unsure when ambiguous, missing when unseen, not
read while moving, late re-aims noticed, bad configuration and calibration refused by name."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.profile import save_profile
from vision.bench import run_scene
from vision.config import ConfigError, load_config
from vision.decide import MISSING, TARGET, UNSURE
from vision.pipeline import Pipeline, open_pipeline, read_casting
from vision.render.scene import make_scene
from vision.render.source import RenderedSource
from vision.table_geometry import UncalibratedTable


def decide(scene, config, candidates=None, cue_at=-1.0):
    pipeline = Pipeline(scene.calibration, config)
    casting = pipeline.casting(cue_at, list(scene.gestures), candidates or scene.candidates)
    for i in range(scene.frames):
        frame, truth = scene.render(i)
        result = casting.observe(frame.t, pipeline.look(frame).axes)
        if result is not None:
            return result, truth
    raise AssertionError("the casting was never decided")


def test_hover_castings_are_read_right(config) -> None:
    right = wrong = 0
    for seed in range(20, 32):
        scene = make_scene(seed, "hover", tips_in_view=True)
        _, found, _ = run_scene(Pipeline(scene.calibration, config), scene, -1.0)
        right += sum(o.right for o in found)
        wrong += sum(o.silent_error for o in found)
    assert wrong == 0
    assert right >= 44  # of 48 wands; the rest may be unsure, never wrong


def test_a_token_indistinguishable_from_the_target_makes_the_wand_unsure(config) -> None:
    scene = make_scene(21, "hover")
    result, truth = decide(scene, config)
    k, w = next((k, w) for k, w in result.wands.items() if w.status == TARGET)
    # A twin of the chosen token 6 mm away: no camera can tell which of the two is meant.
    target = next(c for c in scene.candidates if c["id"] == w.target)
    twin = {**target, "id": "twin", "x_mm": target["x_mm"] + 6.0}
    again, _ = decide(scene, config, scene.candidates + [twin])
    assert again.wands[k].status == UNSURE
    assert {again.wands[k].best, again.wands[k].runner_up} == {w.target, "twin"}


def test_a_wand_not_seen_is_missing_not_guessed(config) -> None:
    scene = make_scene(22, "hover", wands=(1, 2, 4))
    pipeline = Pipeline(scene.calibration, config)
    casting = pipeline.casting(-1.0, [1, 2, 3, 4], scene.candidates)
    result = None
    for i in range(scene.frames):
        frame, _ = scene.render(i)
        result = result or casting.observe(frame.t, pipeline.look(frame).axes)
    assert result is not None
    assert result.wands[3].status == MISSING and result.wands[3].target is None
    assert result.wands[3].why == "unseen" and result.wands[3].as_dict()["why"] == "unseen"


def test_no_wand_is_read_before_it_settles(config) -> None:
    scene = make_scene(23, "hover", motion=True, tips_in_view=True)
    pipeline = Pipeline(scene.calibration, config)
    casting = pipeline.casting(0.0, list(scene.gestures), scene.candidates)
    decided_at = None
    for i in range(scene.frames):
        frame, truth = scene.render(i)
        if casting.observe(frame.t, pipeline.look(frame).axes) is not None:
            decided_at = frame.t
            break
        assert frame.t < scene.last_settle + 0.2
    assert decided_at is not None and decided_at >= scene.last_settle
    assert all(w.status == TARGET and w.target == truth.wands[k].target for k, w in casting.result.wands.items())


def test_a_late_re_aim_is_noticed(config) -> None:
    seed = next(s for s in range(30, 60)
                if len(make_scene(s, "hover", motion=True, reaim=1.0, tips_in_view=True).gestures[4].targets) == 2)
    scene = make_scene(seed, "hover", motion=True, reaim=1.0, tips_in_view=True)
    first, final = scene.gestures[4].targets
    result, _, latency = run_scene(Pipeline(scene.calibration, config), scene, 0.0)
    assert first != final
    assert result.wands[4].target == final
    assert latency is not None and latency > 0


def test_read_casting_from_a_frame_source(config) -> None:
    source = RenderedSource("hover", seed=24, castings=1)
    frame = source.read()
    scene = source.scene
    result = read_casting(Pipeline(scene.calibration, config), source, source.cue_at, list(scene.gestures), scene.candidates)
    assert result is not None
    assert set(result.wands) == set(scene.gestures)  # readings by wand: vision names no engine action
    assert frame is not None


def test_uncalibrated_table_is_refused_naming_what_to_run(tmp_path: Path) -> None:
    config = tmp_path / "vision.json"
    config.write_text(json.dumps({"calibration_file": str(tmp_path / "calibration.json")}))
    with pytest.raises(UncalibratedTable, match=r"python -m calibration"):
        open_pipeline(config)
    calibration = make_scene(1, "hover").calibration
    save_profile(calibration.with_parts(table=None), tmp_path / "calibration.json")
    with pytest.raises(UncalibratedTable, match=r"python -m calibration"):
        open_pipeline(config)


def test_a_calibrated_table_opens(tmp_path: Path) -> None:
    config = tmp_path / "vision.json"
    config.write_text(json.dumps({"calibration_file": str(tmp_path / "calibration.json")}))
    save_profile(make_scene(1, "hover").calibration, tmp_path / "calibration.json")
    assert open_pipeline(config).geo.height_mm > 700


@pytest.mark.parametrize("override,key", [
    ({"decide": {"margin": 0.5}}, "decide.margin"),
    ({"pointing": {"aim_sigma_mm": "wide"}}, "pointing.aim_sigma_mm"),
    ({"markers": {"hues": {"5": 30}}}, "markers.hues"),
    ({"markers": {"min_value": 300}}, "markers.min_value"),
    ({"decide": {"settle_frames": 3}}, "decide.settle_frames"),
    ({"hands": {"enabled": "yes"}}, "hands.enabled"),
])
def test_a_bad_setting_is_refused_by_name(tmp_path: Path, override: dict, key: str) -> None:
    path = tmp_path / "vision.json"
    path.write_text(json.dumps(override))
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        load_config(path)
    assert issubclass(ConfigError, ValueError)


def test_a_partial_setting_file_keeps_the_other_defaults(tmp_path: Path) -> None:
    path = tmp_path / "vision.json"
    path.write_text(json.dumps({"decide": {"margin": 5}}))
    cfg = load_config(path)
    assert cfg.decide.margin == 5.0
    assert cfg.decide.settle_ms == load_config().decide.settle_ms

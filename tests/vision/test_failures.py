"""Each way the pipeline used to read a wand wrongly without saying so, on rendered castings in motion
(wands come in after the cue; the second before it shows the table)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.bench.casting import run_scene
from vision.decide import MISSING, TARGET, UNSURE
from vision.pipeline import Pipeline
from vision.render import effects
from vision.render.scene import make_scene, random_rig
from vision.render.table import recoloured


def cast(scene, config):
    return run_scene(Pipeline(scene.calibration, config), scene, 0.0)[1]


def test_a_low_tip_over_a_token_is_never_read_where_its_line_meets_the_table(config) -> None:
    """People hover with the wand leaning back: its line meets the table 5-15 cm past the token, often
    on another one."""
    beyond = right = 0
    for seed in range(300, 310):
        scene = make_scene(seed, "natural", motion=True)
        ids = {c["id"]: c for c in scene.candidates}
        for o in cast(scene, config):
            hit = scene.gestures[o.strength].aims[-1].table_hit()
            near = min(ids, key=lambda i: np.hypot(hit[0] - ids[i]["x_mm"], hit[1] - ids[i]["y_mm"]))
            if near != o.truth and np.hypot(hit[0] - ids[near]["x_mm"], hit[1] - ids[near]["y_mm"]) < 30:
                beyond += 1
                assert not (o.status == TARGET and o.target == near), (seed, o)
            assert not o.silent_error, (seed, o)
            right += o.right
    assert beyond >= 3 and right >= 30  # of 40 wands


def test_a_token_of_a_wands_colour_is_not_taken_for_its_hidden_tip(config) -> None:
    """Wand 3 is not in view; every token is painted just like its tip."""
    for seed in (320, 321, 322):
        rig = random_rig(np.random.default_rng(seed))
        like = rig.paints[3].bgr()
        rig = dataclasses.replace(rig, layout=recoloured(rig.layout, lambda rng, c=like: (c, c), np.random.default_rng(0)))
        scene = make_scene(seed, "hover", motion=True, rig=rig, wands=(1, 2, 4))
        pipeline = Pipeline(scene.calibration, config)
        result, found, _ = run_scene(pipeline, scene, 0.0)
        casting = pipeline.casting(0.0, [1, 2, 3, 4], scene.candidates)
        for i in range(scene.frames):
            frame, _ = scene.render(i)
            got = casting.observe(frame.t, pipeline.look(frame).axes)
            if got is not None:
                break
        assert got is not None and got.wands[3].status == MISSING, (seed, got.wands[3])
        assert not any(o.silent_error for o in found)


def test_an_upright_wand_whose_fist_hides_the_tip_is_missing_never_a_neighbour(config) -> None:
    hidden = 0
    for seed in range(330, 345):
        for o in cast(make_scene(seed, "upright", motion=True), config):
            assert not o.silent_error, (seed, o)
            if o.tip_visible < 0.05:
                hidden += 1
                assert o.status in (MISSING, UNSURE), (seed, o)
    assert hidden >= 3


def test_paint_learned_in_good_light_still_finds_neon_green_in_dim_light(config) -> None:
    seen, shown = 0, 0
    for seed in (350, 351, 352, 353, 354, 355):
        scene = make_scene(seed, "hover", motion=True, rig=random_rig(np.random.default_rng(seed)))
        dim = effects.Conditions(gain=0.4, tint=(1.0, 0.95, 1.1), noise=3.0, jpeg=70)
        scene = dataclasses.replace(scene, conditions=(dim, dim), _background=None)
        pipeline = Pipeline(scene.calibration, config)
        for i in range(scene.frames - 6, scene.frames):
            frame, truth = scene.render(i)
            if truth.wands[2].tip_visible > 0.9:  # a tip (partly) under a fist is not a question of paint
                shown += 1
                seen += 2 in pipeline.find(frame.image)
    assert shown >= 18 and seen >= shown - 2


@pytest.mark.parametrize("seed", range(360, 372))
def test_neighbours_45_mm_apart_are_told_apart_or_asked(seed: int, config) -> None:
    scene = make_scene(seed, "hover", motion=True, rig=random_rig(np.random.default_rng(seed)))
    for o in cast(scene, config):
        assert not o.silent_error, o


def test_a_blurred_bead_in_dim_light_without_its_band_is_still_found(config) -> None:
    """Floors learned in the wand step's good light: blur, defocus and dim light leave only a bead's
    middle above them, too small a patch for a lone bead; its outline still says it is a whole one."""
    missing = 0
    for seed in range(400, 413):
        scene = make_scene(seed, "hover", True, motion=True, rig=random_rig(np.random.default_rng(seed)),
                           tips_in_view=True)
        strict = {k: m.model_copy(update={"min_saturation": 165.0, "min_value": 60.0})
                  for k, m in scene.calibration.wands.items()}
        for o in run_scene(Pipeline(scene.calibration, config, paints=strict), scene, 0.0)[1]:
            assert not o.silent_error, (seed, o)
            missing += o.status == MISSING
    assert missing <= 2  # of 52 wands; 5 when only the patch above the floors counts

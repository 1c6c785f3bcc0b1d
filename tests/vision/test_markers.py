"""Finding each wand by its marker colour in rendered frames."""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.markers import TableView, find_wands, light_change, paint_classes
from vision.paints import documented_paints
from vision.pipeline import Pipeline
from vision.render.scene import make_scene


@pytest.mark.parametrize("seed,hard", [(1, False), (2, False), (3, True), (4, True)])
def test_every_wand_is_found_and_told_apart(seed: int, hard: bool, config) -> None:
    scene = make_scene(seed, "hover", hard)
    frame, truth = scene.render(3)
    found = Pipeline(scene.calibration, config).find(frame.image)
    for k, wand in truth.wands.items():
        if wand.tip_visible > 0.8:
            assert k in found, f"wand {k} not found"
            assert np.linalg.norm(found[k].tip_px - wand.tip_px) < 2.5


def test_a_wand_not_in_the_scene_is_not_found(config) -> None:
    scene = make_scene(5, "hover", wands=(1, 2, 4))
    frame, _ = scene.render(3)
    assert set(Pipeline(scene.calibration, config).find(frame.image)) == {1, 2, 4}


def test_wrong_hues_find_no_wands(config) -> None:
    scene = make_scene(6, "hover")
    frame, _ = scene.render(3)
    pipeline = Pipeline(scene.calibration, config)
    # Hues between the real caps' hues: the caps must not be mistaken for them.
    off = {k: p.model_copy(update={"hue": h, "hue_tolerance": 6}) for (k, p), h in
           zip(pipeline.paints.items(), (45.0, 88.0, 132.0, 172.0))}
    assert find_wands(frame.image, off, config.markers, pipeline.bead_px, pipeline.band_reach_px) == {}


def test_blank_table_has_no_wands(config) -> None:
    scene = make_scene(7, "hover")
    pipeline = Pipeline(scene.calibration, config)
    assert pipeline.find(scene.background()[::2, ::2].copy()) == {}


def _bead_with_stick(angle_deg: float, width: int) -> tuple[np.ndarray, np.ndarray]:
    image = np.full((120, 160, 3), (70, 110, 150), np.uint8)
    tip = np.array([80.0, 60.0])
    a = np.radians(angle_deg)
    end = tip + 50 * np.array([np.cos(a), np.sin(a)])
    import cv2
    cv2.line(image, tuple(int(v) for v in tip), tuple(int(v) for v in end), (35, 45, 60), width)
    cv2.circle(image, (80, 60), 7, (41, 245, 0), -1)
    return image, tip


@pytest.mark.parametrize("angle", [0, 37, 145, 260])
def test_shaft_direction_follows_a_thin_dark_stick(angle: float) -> None:
    from vision.markers import shaft_direction
    image, tip = _bead_with_stick(angle, 3)
    d = shaft_direction(image, tip, 7.0, 20.0)
    assert d is not None
    assert np.degrees(np.arccos(np.clip(d @ [np.cos(np.radians(angle)), np.sin(np.radians(angle))], -1, 1))) < 6


def test_shaft_direction_ignores_a_wide_dark_patch() -> None:
    from vision.markers import shaft_direction
    image, tip = _bead_with_stick(30, 40)
    assert shaft_direction(image, tip, 7.0, 20.0) is None


def test_hidden_band_takes_the_axis_from_the_gripping_hand(config) -> None:
    from vision.axis import wand_axis
    from vision.hands import Hand
    from vision.markers import WandSighting

    tip = np.array([300.0, 200.0])
    knuckles = np.array([380.0, 260.0])
    landmarks = np.tile(knuckles, (21, 1)) + np.random.default_rng(0).normal(0, 3, (21, 2))
    landmarks[[5, 9, 13, 17]] = knuckles + np.array([[-6, -6], [-2, -2], [2, 2], [6, 6]])
    far_hand = Hand(landmarks + 400, "Right", 0.9)
    sighting = WandSighting(3, tip, 150.0, None)
    axis = wand_axis(sighting, config.markers, [far_hand, Hand(landmarks, "Right", 0.9)], config.hands, reach_px=200)
    assert axis.source == "hand"
    assert np.allclose(axis.back_px, knuckles)
    assert axis.back_from_tip_mm == config.hands.grip_from_tip_mm
    assert wand_axis(sighting, config.markers, [far_hand], config.hands, reach_px=200).source == "tip"


def test_lit_beads_stay_visible_in_a_dark_room(config) -> None:

    from vision.render import effects

    dark = effects.Conditions(gain=0.2, noise=2.0, jpeg=85)
    scene = dataclasses.replace(make_scene(8, "hover", tips_in_view=True), conditions=(dark, dark), _background=None)
    pipeline = Pipeline(scene.calibration, config)
    painted = pipeline.find(scene.render(3)[0].image)
    lit = pipeline.find(dataclasses.replace(scene, look="led", _background=None).render(3)[0].image)
    assert set(lit) == {1, 2, 3, 4}
    assert len(painted) < 4  # paint needs light: what the wand-marker comparison measures


def test_a_paint_like_token_too_dim_for_the_floors_before_the_cue_stays_table_in_brighter_light(config) -> None:
    """A lamp switched on after the cue lifts a yellow token above the paint's floors: still the table."""
    paints = documented_paints()
    yellow = cv2.cvtColor(np.uint8([[[paints[1].hue, 230, 240]]]), cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    before = np.full((120, 160, 3), 90.0, np.float32)
    before[50:70, 70:90] = yellow * 0.25  # too dark for the floors in the dim light before the cue
    now = before * 3.2  # the same table, lit 3.2 times brighter
    before_u8, now_u8 = before.clip(0, 255).astype(np.uint8), now.clip(0, 255).astype(np.uint8)
    classes = paint_classes(cv2.cvtColor(now_u8, cv2.COLOR_BGR2HSV), paints)
    assert (classes[50:70, 70:90] == 1).all() and not paint_classes(cv2.cvtColor(before_u8, cv2.COLOR_BGR2HSV), paints).any()
    TableView(before_u8).clear_static(now_u8, classes, config.markers.static_diff)
    assert not classes.any()


def test_a_paint_like_token_stays_table_while_a_dark_sleeve_covers_much_of_the_picture(config) -> None:
    """Arms reaching in change the cells they cover, not the light: a yellow token beside a dark sleeve
    that covers a third of the picture still matches itself and is not taken for a tip."""
    paints = documented_paints()
    yellow = cv2.cvtColor(np.uint8([[[paints[1].hue, 230, 240]]]), cv2.COLOR_HSV2BGR)[0, 0]
    shade = np.linspace(0.4, 1.2, 160)[None, :, None]  # wood, lit more toward the lamp on the right
    before = (np.full((120, 160, 3), (70, 120, 170), np.float32) * shade).clip(0, 255).astype(np.uint8)
    before[50:70, 40:60] = yellow
    now = before.copy()
    now[:, 100:] = (90, 30, 20)  # a dark blue sleeve over the bright right part
    classes = paint_classes(cv2.cvtColor(now, cv2.COLOR_BGR2HSV), paints)
    assert (classes[50:70, 40:60] == 1).all()
    TableView(before).clear_static(now, classes, config.markers.static_diff)
    assert not (classes == 1).any()


def test_the_light_change_follows_a_lamp_but_not_a_sleeve() -> None:
    rng = np.random.default_rng(5)
    before = rng.uniform(40, 200, (1200, 3)).astype(np.float32)
    covered = before.copy()
    covered[:400] = (90, 30, 20)  # a third of the cells under a sleeve
    assert np.allclose(light_change(before, covered), 1.0)
    assert np.allclose(light_change(before, before * 1.5), 1.5, atol=0.01)


def test_a_band_grown_to_a_beads_size_is_not_taken_for_the_tip(config) -> None:
    """Hard light, measured on a rendered casting: the band (more saturated, grown by the yellow cast
    around it) passed for a bead, a patch of cast light beside it for its band, and the wand was read
    at its band. The real bead beside it, clearly bigger, is the tip."""
    from vision.markers import Blob, _pair

    bead_area = 84.0
    tip = Blob(1, np.array([389.5, 319.6]), 112.0, 0.62, 197.4)
    band = Blob(1, np.array([427.4, 294.1]), 86.0, 0.66, 203.2)
    cast_light = Blob(1, np.array([500.7, 261.8]), 38.0, 0.34, 186.0)
    blobs = [tip, band, cast_light]
    seen = _pair(1, blobs, np.full(len(blobs), bead_area), 90.0, config.markers)
    assert seen is not None and np.allclose(seen.tip_px, tip.centre) and np.allclose(seen.band_px, band.centre)

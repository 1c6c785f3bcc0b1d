"""The tip bead's apparent size as evidence of its height: a bead that looks too big for a hover height
is nearer the camera, so the wand is held higher and aims from further away."""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.axis import WandAxis
from vision.decide import TARGET, averaged, verdict
from vision.markers import find_wands, marker_blobs, uniform_bead
from vision.paints import documented_paints
from vision.pipeline import Pipeline
from vision.render.scene import cap_colour, make_scene, random_camera
from vision.scoring import bead_radius_px, score_tokens
from vision.table_geometry import TableGeometry
from vision.targets import Candidate


def test_found_beads_are_as_big_as_balls_at_their_true_places(config) -> None:
    """Beads of every colour against the renderer's 3D tips: typically within a few percent (a tip
    stretched by the lens or touching a sleeve may look bigger)."""
    ratios: dict[int, list[float]] = {1: [], 2: [], 3: [], 4: []}
    for seed in range(1500, 1506):
        scene = make_scene(seed, "distance")
        pipeline = Pipeline(scene.calibration, config)
        frame, truth = scene.render(scene.frames - 1)
        for k, sighting in pipeline.find(frame.image).items():
            if truth.wands[k].tip_visible > 0.99:
                ball = bead_radius_px(pipeline.geo, truth.wands[k].tip_mm[None], 12.0)[0]
                ratios[k].append(np.sqrt(sighting.tip_area / np.pi) / ball)
    for k, found in ratios.items():
        assert len(found) >= 4, k
        assert float(np.median(found)) == pytest.approx(1.0, abs=0.04), k
        assert 0.9 < min(found) and max(found) < 1.1, k


@pytest.mark.parametrize("table_bgr", ((60, 90, 150), (70, 120, 160), (200, 200, 200)))
def test_a_yellow_bead_over_warm_wood_is_measured_at_its_outline(table_bgr, config) -> None:
    """A yellow ball drawn 8 times finer and shrunk as a camera's pixels would: its outline's mixed pixels
    stay saturated over warm colours, yet the area counted is the ball's."""
    fine = np.full((480, 480, 3), table_bgr, np.uint8)
    cv2.circle(fine, (240, 240), 80, cap_colour(1), -1, cv2.LINE_AA)
    image = cv2.resize(fine, (60, 60), interpolation=cv2.INTER_AREA)
    sighting = find_wands(image, documented_paints(), config.markers, uniform_bead(1.0), 40.0)[1]
    blob = max((b for b in marker_blobs(image, documented_paints(), config.markers) if b.strength == 1),
               key=lambda b: b.area)
    assert sighting.tip_area == pytest.approx(np.pi * 10.0 ** 2, rel=0.03)
    if table_bgr[2] > table_bgr[0]:  # warm: the colour test alone counts at least as much
        assert blob.area >= sighting.tip_area


def _wand_over_b_aiming_at_a(tip_height: float):
    """A steep wand whose tip is over token B (tip ``tip_height`` up) while its axis meets the table at
    token A, 90 mm further on: from above, nearly the picture of a wand hovering over B."""
    cam = random_camera(np.random.default_rng(5))
    geo = TableGeometry(cam.calibration())
    a, b = np.array([560.0, 420.0, 0.0]), np.array([470.0, 420.0, 0.0])
    tip = np.array([b[0], b[1], tip_height])
    direction = (a - tip) / np.linalg.norm(a - tip)
    px = cam.project(np.array([tip, tip - 110.0 * direction]))
    candidates = [Candidate("A", a[0], a[1], 15.0), Candidate("B", b[0], b[1], 15.0)]
    return geo, px, candidates, tip


@pytest.mark.parametrize("strength", (1, 2, 3, 4))
def test_a_bead_too_big_for_hovering_takes_the_hover_reading_away(strength: int, config) -> None:
    geo, px, candidates, tip = _wand_over_b_aiming_at_a(120.0)
    seen = bead_radius_px(geo, tip[None], 12.0)[0]
    axis = WandAxis(strength, px[0], px[1], 110.0, "band", seen)
    unsized = score_tokens(geo, dataclasses.replace(axis, tip_radius_px=0.0), candidates, config.pointing, 12.0)
    sized = score_tokens(geo, axis, candidates, config.pointing, 12.0)
    assert verdict(strength, unsized, config.decide, "band").target == "B"  # without size: read hovering over B
    assert sized.scores["B"] < 0.5 * unsized.scores["B"]
    assert verdict(strength, sized, config.decide, "band").target != "B"


def test_a_bead_of_hover_size_keeps_its_hover_reading(config) -> None:
    geo, px, candidates, _ = _wand_over_b_aiming_at_a(120.0)
    low = np.array([candidates[1].x_mm, candidates[1].y_mm, 25.0])
    axis = WandAxis(2, px[0], px[1], 110.0, "band", bead_radius_px(geo, low[None], 12.0)[0])
    reading = verdict(2, score_tokens(geo, axis, candidates, config.pointing, 12.0), config.decide, "band")
    assert (reading.status, reading.target) == (TARGET, "B")


def test_without_the_bead_size_the_hover_reading_stands(config) -> None:
    """The bead's size is what refuses the hover over B: a scale of 0 (size not used) reads B."""
    geo, px, candidates, tip = _wand_over_b_aiming_at_a(120.0)
    axis = WandAxis(1, px[0], px[1], 110.0, "band", bead_radius_px(geo, tip[None], 12.0)[0])
    unsized = config.pointing.model_copy(update={"hover_max_bead_scale": 0.0})
    assert verdict(1, score_tokens(geo, axis, candidates, unsized, 12.0), config.decide, "band").target == "B"
    assert verdict(1, score_tokens(geo, axis, candidates, config.pointing, 12.0), config.decide, "band").target != "B"


def _wand_low_near_b(elevation_deg: float):
    """Tip 30 mm up, 20 mm short of token B, the wand ``elevation_deg`` below the horizontal; token A
    80 mm beyond B. Flat (17 degrees), the axis meets the table at A; steep (50), at B."""
    cam = random_camera(np.random.default_rng(5))
    geo = TableGeometry(cam.calibration())
    e = np.radians(elevation_deg)
    direction = np.array([np.cos(e), 0.0, -np.sin(e)])
    tip = np.array([450.0, 420.0, 30.0])
    px = cam.project(np.array([tip, tip - 110.0 * direction]))
    candidates = [Candidate("A", 550.0, 420.0, 15.0), Candidate("B", 470.0, 420.0, 15.0)]
    return geo, px, candidates


def test_a_wand_too_flat_for_hovering_is_not_read_hovering(config) -> None:
    geo, px, candidates = _wand_low_near_b(17.0)
    axis = WandAxis(2, px[0], px[1], 110.0, "band")
    any_tilt = config.pointing.model_copy(update={"hover_min_tilt_deg": 0.0})
    assert verdict(2, score_tokens(geo, axis, candidates, any_tilt), config.decide, "band").target == "B"
    assert config.pointing.hover_min_tilt_deg >= 20.0
    assert verdict(2, score_tokens(geo, axis, candidates, config.pointing), config.decide, "band").target != "B"


def test_a_steep_wand_low_over_a_token_is_read_hovering(config) -> None:
    geo, px, candidates = _wand_low_near_b(50.0)
    reading = verdict(2, score_tokens(geo, WandAxis(2, px[0], px[1], 110.0, "band"), candidates, config.pointing),
                      config.decide, "band")
    assert (reading.status, reading.target) == (TARGET, "B")


@pytest.mark.parametrize("order", ((0, 1, 2, 3), (2, 3, 0, 1), (1, 3, 0, 2)))
def test_a_tie_between_axis_kinds_goes_to_the_plainer_one(order: tuple[int, ...]) -> None:
    """Half the still frames saw a shaft line, half only the tip: the line flickers, so the tip alone is
    kept, whatever the frames' order; the bead's radius is the mean over every frame."""
    frames = [WandAxis(3, np.array([100.0, 50.0]), np.array([120.0, 50.0]), 0.0, "shaft", 6.0),
              WandAxis(3, np.array([101.0, 50.0]), np.array([121.0, 50.0]), 0.0, "shaft", 6.2),
              WandAxis(3, np.array([100.0, 51.0]), None, 0.0, "tip", 5.8),
              WandAxis(3, np.array([101.0, 51.0]), None, 0.0, "tip", 6.0)]
    axis = averaged([frames[i] for i in order])
    assert (axis.source, axis.back_px) == ("tip", None)
    assert axis.tip_px == pytest.approx([100.5, 50.5])
    assert axis.tip_radius_px == pytest.approx(6.0)


def test_the_commoner_axis_kind_wins() -> None:
    band = WandAxis(2, np.array([100.0, 50.0]), np.array([130.0, 50.0]), 110.0, "band", 6.0)
    tip = WandAxis(2, np.array([100.0, 50.0]), None, 0.0, "tip", 6.0)
    assert averaged([tip, band, band]).source == "band"
    assert averaged([band, tip, tip]).source == "tip"


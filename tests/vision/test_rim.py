"""A bead resting against a token's rim, the token's place tapped a finger's wobble off: read, unless
another token is as near, the wand is held up beside the token aimed at another, or its switch is open
and the bead looks big enough to be higher than a hover with no line from up there naming the token."""
from __future__ import annotations

import numpy as np
import pytest

from tests.vision_two_tokens import BEAD_MM, CAMERA, GEO, two_token_pipeline, wand_two
from vision.axis import WandAxis
from vision.bench.casting import run_scene
from vision.bench.tips import SceneTips
from vision.decide import TARGET, UNSURE
from vision.pipeline import TAP_WOBBLE_PX, Pipeline
from vision.render.scene import make_scene
from vision.targets import Candidate
from vision.under_tip import BETWEEN, under_tip

RADIUS = 15.0  # a 30 mm token
# S alone; its nearest neighbour N 120 mm away, as a card's tokens lie in a row.
ALONE = [Candidate("S", 700.0, 300.0, RADIUS), Candidate("N", 700.0, 420.0, RADIUS)]
# The same with T beside S, 58 mm apart centre to centre (28 mm between their edges).
PAIR = [Candidate("S", 700.0, 300.0, RADIUS), Candidate("T", 758.0, 300.0, RADIUS)]


@pytest.fixture
def pipeline(config) -> Pipeline:
    return two_token_pipeline(config)


def _resting(past_edge_mm: float, towards_mm: tuple[float, float, float] | None = None,
             height_mm: float = BEAD_MM + 2.0) -> WandAxis:
    """Wand 2's bead ``past_edge_mm`` beyond S's rim toward +x (where T lies when there), seen its true
    size; its band 110 mm back along the line from ``towards_mm`` through the tip (None: straight up
    the table's -x side, the player's)."""
    tip = (700.0 + RADIUS + past_edge_mm, 300.0, height_mm)
    return wand_two(tip, towards_mm if towards_mm is not None else (tip[0] + 60.0, tip[1], tip[2] - 100.0))


def test_a_bead_against_a_tokens_rim_past_its_tapped_place_is_read(pipeline) -> None:
    """13 mm past the edge as the places file has it (a bead's radius and a tap's wobble): the former
    reading found it "between" with no other token near and asked; now it is S, switch or not."""
    wobble_mm = TAP_WOBBLE_PX / GEO.px_per_mm(0.0)
    assert 5.0 < wobble_mm < 12.0  # a finger's 5 px at about 1 m
    axis = _resting(13.0)
    assert under_tip(GEO, axis, ALONE, BEAD_MM, pipeline.cfg.pointing, True).status == BETWEEN
    for touching in (True, None):
        reading = pipeline.read(axis, ALONE, touching)
        assert (reading.status, reading.target) == (TARGET, "S"), touching


def test_a_bead_between_two_tokens_is_still_asked(pipeline) -> None:
    """The same bead with T's edge 15 mm beyond it: about as near one token as the other, asked."""
    reading = pipeline.read(_resting(13.0), PAIR, True)
    assert (reading.status, reading.why, reading.best) == (UNSURE, "between", "S")


def test_a_bead_past_the_wobble_is_not_read(pipeline) -> None:
    """A resting bead 25 mm past the edge (13 mm of bare table between them) is at no token."""
    reading = pipeline.read(_resting(25.0), ALONE, True)
    assert reading.status != TARGET


def test_a_tip_held_up_beside_a_token_and_aimed_at_another_is_still_asked(pipeline) -> None:
    """Held 2 cm up beside S, its switch open, aimed along the table at N: the rim says nothing of it.
    (Taken over S by the rim alone, the open-switch reading would read it S: its line names N with the
    bead resting too, as a light touch leaning along the table does.)"""
    axis = _resting(13.0, towards_mm=(700.0, 420.0, 0.0), height_mm=BEAD_MM + 20.0)
    reading = pipeline.read(axis, ALONE, False)
    assert (reading.status, reading.why) == (UNSURE, "between")


def _crowded_casting(config, shift_mm: float) -> tuple[str, str | None, str]:
    """Rendered crowded casting 2 (three wands on r2), wand 3's bead resting 17 mm from r2's centre,
    pressed firmly; r2's place tapped ``shift_mm`` further from that bead than the token lies. Wand 3's
    status, target and why."""
    scene = make_scene(2, "crowded", motion=True)
    bead = scene.render(scene.frames - 1)[1].wands[3]
    assert bead.target == "r2"
    places = []
    for c in scene.candidates:
        x, y = c["x_mm"], c["y_mm"]
        if c["id"] == "r2":
            away = np.array([x - bead.tip_mm[0], y - bead.tip_mm[1]])
            x, y = np.array([x, y]) + shift_mm * away / np.linalg.norm(away)
        places.append(Candidate(c["id"], float(x), float(y), c["radius_mm"]))
    tips = SceneTips(scene)
    tips.press_n = {k: 3.0 for k in tips.press_n}  # a firm touch: the switches close
    result = run_scene(Pipeline(scene.calibration, config), scene, 0.0, None, places, tips)[0]
    assert result is not None
    reading = result.wands[3]
    return reading.status, reading.target, reading.why


def test_a_rendered_bead_against_the_rim_of_a_token_tapped_off_is_read(config) -> None:
    """The place 9 mm off, as a finger lands at a metre: the bead is 26 mm from it, past the 10 mm the
    reading allowed (the former reading asked, "between"); it is r2."""
    assert _crowded_casting(config, 9.0)[:2] == (TARGET, "r2")


def test_a_rendered_bead_farther_than_a_tap_from_the_place_is_not_read(config) -> None:
    """The place 22 mm off, more than a finger's wobble: the bead lies on bare table as far as the
    places file says, and is not read as r2."""
    assert _crowded_casting(config, 22.0)[0] != TARGET


def _partly_hidden(past_edge_mm: float) -> WandAxis:
    """Wand 2's bead resting ``past_edge_mm`` beyond S's rim, two thirds of it under a fist: a third of
    its area seen, its centre anywhere within 2 mm of where it is."""
    centre = np.array([700.0 + RADIUS + past_edge_mm, 300.0, BEAD_MM + 2.0])
    around = centre + np.array([[dx, dy, 0.0] for dx in (-2.0, 0.0, 2.0) for dy in (-2.0, 0.0, 2.0)])
    radius = float(GEO.bead_radius_px(centre[None], BEAD_MM)[0])
    tip = CAMERA.project(centre[None])[0]
    return WandAxis(2, tip, None, 0.0, "tip", 0.58 * radius, CAMERA.project(around))


def test_a_partly_hidden_bead_against_the_rim_is_read_with_its_switch_closed(pipeline) -> None:
    """Where the part in view says the bead can be, all of it past S's rim within a tap's wobble: S
    when the switch says it rests (the former reading asked, "hidden"); asked without a switch."""
    reading = pipeline.read(_partly_hidden(12.0), ALONE, True)
    assert (reading.status, reading.target) == (TARGET, "S")
    assert pipeline.read(_partly_hidden(12.0), ALONE, None).status == UNSURE


def test_a_partly_hidden_bead_between_two_tokens_is_asked(pipeline) -> None:
    reading = pipeline.read(_partly_hidden(12.0), PAIR, True)
    assert (reading.status, reading.why) == (UNSURE, "hidden")


def _held_high(past_edge_mm: float, towards_mm: tuple[float, float, float], height_mm: float) -> WandAxis:
    """Wand 2's bead ``height_mm`` up, seen where a resting bead ``past_edge_mm`` beyond S's rim would
    be, and the size it looks up there; its band 110 mm back along the line from ``towards_mm``."""
    resting = np.array([[700.0 + RADIUS + past_edge_mm, 300.0, BEAD_MM + 2.0]])
    x, y, z = GEO.at_height(CAMERA.project(resting)[0], np.array([height_mm]))[0]
    return wand_two((float(x), float(y), float(z)), towards_mm)


def test_a_bead_held_high_beside_a_token_with_its_switch_open_is_asked(pipeline) -> None:
    """Held 9 cm up just past S's rim, its switch open, seen the size a bead so high looks: the tip is
    as likely a wand aimed past S from up there as a finger's wobble off S. Its line names no token
    from any height, so the lines say nothing against the rim; the open switch and the bead's size
    do: asked (the former reading took the rim and read S)."""
    axis = _held_high(13.0, (1000.0, 300.0, 0.0), 90.0)
    reading = pipeline.read(axis, ALONE, False)
    assert (reading.status, reading.why) == (UNSURE, "between")
    # The same tip with its switch closed rests against the rim, whatever its size says: S.
    closed = pipeline.read(axis, ALONE, True)
    assert (closed.status, closed.target) == (TARGET, "S")


def test_a_bead_held_high_beside_a_token_and_aimed_back_into_it_is_read(pipeline) -> None:
    """The same tip aimed back down into S: the line from up there names S, as the rim does: S."""
    axis = _held_high(13.0, (700.0, 300.0, 0.0), 90.0)
    reading = pipeline.read(axis, ALONE, False)
    assert (reading.status, reading.target) == (TARGET, "S")


def test_a_bead_resting_against_the_rim_with_its_switch_open_is_read(pipeline) -> None:
    """A touch too light to click at the rim, the bead looking its resting size: it cannot be higher
    than a hover, so the rim stands: S."""
    reading = pipeline.read(_resting(13.0), ALONE, False)
    assert (reading.status, reading.target) == (TARGET, "S")

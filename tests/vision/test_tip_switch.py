"""The tip switch: a closed switch pins the tip to the token it rests on; an open one over a token is
read only when the wand's line agrees (else it may be aimed past that token at another)."""
from __future__ import annotations

import dataclasses

from dataclasses import replace

import numpy as np
import pytest

from vision.axis import WandAxis
from vision.bench.casting import run_scene
from vision.bench.tips import SceneTips
from vision.decide import TARGET, UNSURE
from tests.vision_two_tokens import BEAD_MM, GEO, TOKENS, two_token_pipeline, wand_two
from vision.pipeline import AIMED_WITHIN, Pipeline
from vision.render.scene import make_scene
from vision.targets import Candidate
from vision.touch import FixedTipSwitches
from vision.scoring import aim_scores
from vision.under_tip import BETWEEN, OVER, OVERSIZED, highest_for_bead, under_tip

@pytest.fixture
def pipeline(config) -> Pipeline:
    return two_token_pipeline(config)


def test_a_closed_switch_reads_a_tip_the_camera_alone_finds_between_two_tokens(config) -> None:
    axis = wand_two((840.0, 120.0, BEAD_MM + 2.0), None)  # resting 10 mm off A's centre, toward B
    blind = config.pointing.model_copy(update={"bead_shrink_tolerance": 0.5})  # the bead's size not used
    assert under_tip(GEO, axis, TOKENS, BEAD_MM, blind).status == BETWEEN
    reading = under_tip(GEO, axis, TOKENS, BEAD_MM, blind, touching=True)
    assert (reading.status, reading.token) == (OVER, "A")


def test_a_tip_over_one_token_clearly_aimed_at_another_is_asked_with_its_switch_open(pipeline) -> None:
    """Pointing from afar at B with the tip 7 cm over A: the camera alone names A by the table card. The
    line names B from a high tip and no token at all with the bead resting on A, which with an open
    switch is enough to ask; a closed switch says the bead rests on A. (A tip 3 cm over A, within a
    hover, leaning to B: resting, its line points into A, so it fits a light touch and is read as A.)"""
    axis = wand_two((845.0, 120.0, BEAD_MM + 70.0), (800.0, 120.0, 0.0))
    alone = pipeline.read(axis, TOKENS)
    assert (alone.status, alone.target) == (TARGET, "A")
    lifted = pipeline.read(axis, TOKENS, touching=False)
    assert (lifted.status, lifted.target, lifted.best, lifted.why) == (UNSURE, None, "A", "lifted")
    resting = pipeline.read(axis, TOKENS, touching=True)
    assert (resting.status, resting.target) == (TARGET, "A")


def test_a_light_touch_pointing_into_its_token_is_read_with_its_switch_open(pipeline) -> None:
    """Resting on A from its player's side, leaning across it toward B, pressed too lightly to click;
    its bead measured 8 % big (the token beside it), so it might be held high. Taken high, its line names
    B; but resting, it points into A itself, as the table card's pose does: the open switch is weak
    evidence and the wand is read as the camera alone reads it (the former reading asked)."""
    axis = wand_two((855.0, 120.0, BEAD_MM + 3.0), (800.0, 120.0, 0.0))
    axis = replace(axis, tip_radius_px=1.08 * axis.tip_radius_px)
    alone = pipeline.read(axis, TOKENS)
    lifted = pipeline.read(axis, TOKENS, touching=False)
    assert (alone.status, alone.target) == (lifted.status, lifted.target) == (TARGET, "A")


def test_a_hover_whose_line_only_grazes_a_neighbour_is_read_with_its_switch_open(pipeline) -> None:
    """A hover 2 cm over A, leaning back so its line runs on past B's side toward the table 11 cm beyond
    A: taken high, the line names B (nothing else lies near it), but passes well over two aim wavers from
    B's middle, as a natural hover's line crosses whatever lies behind its token. A wand aimed at B
    would pass near its middle: the open switch is no reason to ask, and the wand is read as the camera
    alone reads it (the former reading asked: a natural hover lost to the switch)."""
    axis = wand_two((850.0, 120.0, BEAD_MM + 23.0), (740.0, 136.0, 0.0))
    rest = BEAD_MM + pipeline.cfg.pointing.touch_lift_mm
    top = highest_for_bead(GEO, axis, BEAD_MM, pipeline.cfg.pointing)
    high = aim_scores(GEO, axis, TOKENS, pipeline.cfg.pointing, rest + pipeline.cfg.pointing.hover_height_mm, top)
    assert high.ranked[0][0] == "B" and 0.0 < high.scores["B"] < AIMED_WITHIN  # B named, its middle missed
    alone = pipeline.read(axis, TOKENS)
    lifted = pipeline.read(axis, TOKENS, touching=False)
    assert (alone.status, alone.target) == (lifted.status, lifted.target) == (TARGET, "A")


def test_a_lifted_tip_over_a_token_whose_line_names_no_token_is_that_token(pipeline) -> None:
    """A hover leaning back: the line meets the table beyond the token, where nothing lies."""
    axis = wand_two((850.0, 120.0, BEAD_MM + 20.0), (850.0, 40.0, 0.0))
    lifted = pipeline.read(axis, TOKENS, touching=False)
    assert (lifted.status, lifted.target) == (TARGET, "A")


def test_an_open_switch_asks_nothing_the_camera_alone_would_not(pipeline) -> None:
    """The band behind a hand, the dark shaft still seen: its line, of unknown length, leans to B but
    names it clearly from no height. The camera alone reads the token under the tip; an open switch,
    weak evidence, reads it too."""
    band = wand_two((850.0, 120.0, BEAD_MM + 30.0), (800.0, 120.0, 0.0))
    shaft = WandAxis(2, band.tip_px, band.tip_px + 0.4 * (band.back_px - band.tip_px), 0.0, "shaft", band.tip_radius_px)
    alone = pipeline.read(shaft, TOKENS)
    lifted = pipeline.read(shaft, TOKENS, touching=False)
    assert (alone.status, alone.target) == (lifted.status, lifted.target) == (TARGET, "A")


def test_a_lone_lifted_tip_over_a_token_is_that_token(pipeline) -> None:
    """No line to say where it is aimed (the band behind the fist): read as without switches, since
    such a tip is far more often a light touch or an upright hover than a wand aimed from afar."""
    axis = wand_two((850.0, 120.0, BEAD_MM + 20.0), None)
    lifted = pipeline.read(axis, TOKENS, touching=False)
    assert (lifted.status, lifted.target) == (TARGET, "A")


def test_a_lone_tip_measured_bigger_than_resting_is_still_read_with_its_switch_open(pipeline) -> None:
    """An upright hover (the fist over the band), its tip 14 mm over A and its bead measured 7 % bigger
    than resting: its size alone could put it 10 cm up, aimed anywhere. On the development frames
    such lone tips with open switches were hovers and light touches read right far more often than
    wands aimed from afar (docs/wand-markers.md): asking them would read fewer wands right than the
    camera alone. Read as the camera alone reads it."""
    axis = wand_two((850.0, 120.0, BEAD_MM + 14.0), None)
    axis = replace(axis, tip_radius_px=1.07 * axis.tip_radius_px)
    alone = pipeline.read(axis, TOKENS)
    lifted = pipeline.read(axis, TOKENS, touching=False)
    assert (alone.status, alone.target) == (lifted.status, lifted.target) == (TARGET, "A")


def test_a_wand_held_high_aimed_between_two_neighbours_is_asked(pipeline) -> None:
    """Pointing from afar, the tip 15 cm up and 17.5 cm short of the tokens, its tip over none: the line
    meets the table 17 mm from A's centre and 33 mm from B's. At 23 cm a person's aim wavers by
    several degrees (the distance set's b1/b2 wand named the wrong neighbour with margin), so the line
    names neither clearly and the wand is asked, switch or none. Aimed 5 mm from A, it is A."""
    between = wand_two((825.0, -55.0, 150.0), (833.0, 120.0, 0.0))
    for touching in (None, False):
        assert pipeline.read(between, TOKENS, touching).status == UNSURE
    at_a = wand_two((825.0, -55.0, 150.0), (845.0, 120.0, 0.0))
    for touching in (None, False):
        reading = pipeline.read(at_a, TOKENS, touching)
        assert (reading.status, reading.target) == (TARGET, "A")


def test_a_casting_asks_each_wands_switch(pipeline) -> None:
    """The switch reaches the reading through the casting (the table side hands in the hub's)."""
    axis = wand_two((845.0, 120.0, BEAD_MM + 70.0), (800.0, 120.0, 0.0))
    verdicts = {}
    for name, tips in (("alone", None), ("lifted", FixedTipSwitches({2: False}))):
        casting = pipeline.casting(0.0, [2], TOKENS, tips)
        for i in range(40):
            if (result := casting.observe(i / 30, {2: axis})) is not None:
                break
        verdicts[name] = result.wands[2].status
    assert verdicts == {"alone": TARGET, "lifted": UNSURE}


def test_rendered_wands_aimed_past_the_token_under_their_tip_are_asked_with_switches(config) -> None:
    """Pointing from afar with the tip over another token, as rendered: the camera alone names the token
    under the tip; with the wands' switches open, the tablet asks."""
    alone: list = []
    found: list = []
    for seed in (300, 301, 313):
        scene = make_scene(seed, "distance", motion=True)
        found += run_scene(Pipeline(scene.calibration, config), scene, 0.0, tips=SceneTips(scene), camera_only=alone)[1]
    assert len(alone) == len(found) == 12
    assert sum(o.silent_error for o in alone) >= 3
    assert sum(o.silent_error for o in found) < sum(o.silent_error for o in alone)


class _LightTouches(SceneTips):
    """Every switch open: each touch too light to close it."""

    def touching(self, wand: int) -> bool | None:
        return False


def test_light_touches_that_do_not_close_the_switch_are_still_read_and_never_wrongly(config) -> None:
    """Tips resting on their tokens with every switch open: the line is tried only as high as the
    bead's size allows, and the token under the tip stands unless the line names another one."""
    found: list = []
    for seed in range(200, 215):
        scene = make_scene(seed, "hover", motion=True, tips_in_view=True)
        found += run_scene(Pipeline(scene.calibration, config), scene, 0.0, tips=_LightTouches(scene))[1]
    assert len(found) == 60
    assert not any(o.silent_error for o in found)
    assert sum(o.right for o in found) >= 51  # 49 when the line is tried up to 15 cm and must name the token


def test_a_closed_switch_never_makes_the_size_test_stricter(config) -> None:
    """A resting bead looking a third bigger than it should (its size learned a little small, a touch of
    its colour beside it): the camera alone reads it as a bead held a little higher; the closed switch
    must read it too. Only a patch too big for every height is refused."""
    axis = wand_two((850.0, 120.0, BEAD_MM + 3.0), None)
    grown = dataclasses.replace(axis, tip_radius_px=axis.tip_radius_px * 1.33)
    assert under_tip(GEO, grown, TOKENS, BEAD_MM, config.pointing).status == OVER
    reading = under_tip(GEO, grown, TOKENS, BEAD_MM, config.pointing, touching=True)
    assert (reading.status, reading.token) == (OVER, "A")
    merged = dataclasses.replace(axis, tip_radius_px=axis.tip_radius_px * 1.6)
    assert under_tip(GEO, merged, TOKENS, BEAD_MM, config.pointing, touching=True).status == OVERSIZED


def test_a_switch_open_while_the_bead_rests_on_a_token_still_reads_it(pipeline) -> None:
    """A light touch at a shallow angle: the bead rests on A, its switch open (the push along the wand
    too weak), its line meeting the table at B. The bead looks its resting size, so the tip is no
    higher than a hover over A: read A, as the camera alone does; the switch is evidence, not a veto."""
    axis = wand_two((850.0, 120.0, BEAD_MM + 2.0), (800.0, 120.0, 0.0))
    alone = pipeline.read(axis, TOKENS)
    assert (alone.status, alone.target) == (TARGET, "A")
    lifted = pipeline.read(axis, TOKENS, touching=False)
    assert (lifted.status, lifted.target) == (TARGET, "A")


class _Bouncing:
    """Wand 2's switch closed only on every third frame: a bead resting lightly, its switch bouncing."""

    def __init__(self) -> None:
        self.frames = 0

    def touching(self, wand: int) -> bool | None:
        self.frames += 1
        return self.frames % 3 == 0


def test_a_switch_that_closed_while_the_wand_was_still_counts_as_closed(pipeline) -> None:
    """Resting 10 mm off A's centre toward B: between the two for the camera alone, read with the switch
    closed. The switch reads open on the deciding frame, but it closed while the wand was still."""
    axis = wand_two((840.0, 120.0, BEAD_MM + 2.0), None)
    blind = pipeline.cfg.model_copy(update={"pointing": pipeline.cfg.pointing.model_copy(
        update={"bead_shrink_tolerance": 0.5})})  # the bead's size not used: between for the camera alone
    pipeline.cfg = blind
    verdicts = {}
    for name, tips in (("alone", None), ("bouncing", _Bouncing())):
        casting = pipeline.casting(0.0, [2], TOKENS, tips)
        for i in range(40):
            if (result := casting.observe(i / 30, {2: axis})) is not None:
                break
        verdicts[name] = (result.wands[2].status, result.wands[2].target)
    assert verdicts == {"alone": (UNSURE, None), "bouncing": (TARGET, "A")}


class _Stuck:
    """Wand 2's switch closed whatever its bead does."""

    def touching(self, wand: int) -> bool | None:
        return True


class _Honest:
    """Wand 2's switch closed from the 12th frame on, when its bead has come to rest."""

    def __init__(self) -> None:
        self.frames = 0

    def touching(self, wand: int) -> bool | None:
        self.frames += 1
        return self.frames > 12


def test_a_switch_closed_while_its_tip_flies_is_stuck_and_not_trusted(pipeline) -> None:
    """The wand flies in and hovers 7 cm up between A and B, aimed at B: the camera alone cannot tell
    and asks. A stuck switch would pin the tip to A; heard closed in flight, it is not trusted: the wand
    reads as the camera alone reads it, and stays untrusted for the night until heard open."""
    hover = wand_two((815.0, 120.0, BEAD_MM + 70.0), (800.0, 120.0, 0.0))
    verdicts = {}
    for name, tips in (("alone", None), ("stuck", _Stuck()), ("honest", _Honest())):
        pipeline.stuck_switches.clear()
        casting = pipeline.casting(0.0, [2], TOKENS, tips)
        for i in range(40):
            glide = max(0.0, 1.0 - i / 10)  # in flight for the first ten frames
            axis = dataclasses.replace(hover, tip_px=hover.tip_px + np.array([300.0 * glide, 0.0]),
                                       back_px=hover.back_px + np.array([300.0 * glide, 0.0]))
            if (result := casting.observe(i / 30, {2: axis})) is not None:
                break
        verdicts[name] = (result.wands[2].status, result.wands[2].target, set(pipeline.stuck_switches))
    assert verdicts["alone"][:2] == (UNSURE, None)
    assert verdicts["stuck"] == (UNSURE, None, {2})
    assert verdicts["honest"] == (TARGET, "A", set())


def test_a_wand_aimed_from_afar_whose_resting_line_only_passes_a_token_is_asked(pipeline) -> None:
    """Held 6 cm over A's edge and aimed at C 15 cm on, its switch open: taken high, its line runs
    through C's middle; taken resting, the same picture gives a flatter wand whose line dives into the
    table short of C and passes it well off its middle (more than one aim waver). The former reading
    took that as a light touch leaning along the table and read A without a question (development
    table 5100006: a wand 61 mm over r8 aimed at p1 15.5 cm on); a resting wand's line is aimed at
    nothing and seldom runs so true from high up: asked."""
    far = Candidate("C", 850.0 + 150.0 * np.cos(np.radians(60)), 120.0 + 150.0 * np.sin(np.radians(60)), 22.0)
    tokens = [*TOKENS, far]
    axis = wand_two((850.0 + 8.0 * np.cos(np.radians(60)), 120.0 + 8.0 * np.sin(np.radians(60)), 60.0),
                 (far.x_mm, far.y_mm, 0.0))
    p = pipeline.cfg.pointing
    rest = BEAD_MM + p.touch_lift_mm
    resting = aim_scores(GEO, axis, tokens, p, rest, rest)
    high = aim_scores(GEO, axis, tokens, p, rest + p.hover_height_mm, highest_for_bead(GEO, axis, BEAD_MM, p))
    assert resting.ranked[0][0] == "C" and resting.scores["C"] < np.exp(-0.5)  # named resting, its middle missed
    assert high.scores["C"] > 0.9  # through C's middle from high up
    assert (pipeline.read(axis, tokens).status, pipeline.read(axis, tokens).target) == (TARGET, "A")  # camera alone
    lifted = pipeline.read(axis, tokens, touching=False)
    assert (lifted.status, lifted.target, lifted.best, lifted.why) == (UNSURE, None, "A", "lifted")


def _leaning(tip_mm: tuple[float, float, float], azimuth_deg: float, lean_deg: float) -> WandAxis:
    """Wand 2 resting at ``tip_mm`` leaning toward ``azimuth_deg`` at ``lean_deg``, its bead measured 15 %
    big (a token of its colour beside it: light touches measure up to 14.5-17 %), so it might be high."""
    a, e = np.radians(azimuth_deg), np.radians(lean_deg)
    d = np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), -np.sin(e)])
    axis = wand_two(tip_mm, tuple(np.array(tip_mm) + d * (tip_mm[2] / np.sin(e))))
    return replace(axis, tip_radius_px=1.15 * axis.tip_radius_px)


def _pivot_casting(pipeline, frames: list[WandAxis], tokens: list[Candidate]):
    casting = pipeline.casting(0.0, [2], tokens, FixedTipSwitches({2: False}), watch=lambda so_far: None)
    for i, axis in enumerate(frames):
        if (result := casting.observe(i / 30, {2: axis}, timed_out=i == len(frames) - 1)) is not None:
            return result.wands[2]
    raise AssertionError("the casting never closed")


def test_a_wand_leaned_anew_round_its_resting_tip_is_read_with_its_switch_open(pipeline) -> None:
    """Resting on A, pressed too lightly to click, its bead measured big: leaning toward C or toward B,
    its line names that token from high up and the open switch asks ("lifted"). Its player, seeing the
    light blink, leans it the other way without lifting the tip: a tip that stays put while its wand
    swings round it rests on something, and the wand is read as A. The same two poses with the tip
    moved between them (a wand held up and moved) stay asked."""
    far = Candidate("C", 850.0 + 150.0 * np.cos(np.radians(60)), 120.0 + 150.0 * np.sin(np.radians(60)), 22.0)
    tokens = [*TOKENS, far]
    tip = (852.0, 124.0, BEAD_MM + 2.0)
    towards_c, towards_b = _leaning(tip, 60, 15), _leaning(tip, 200, 45)
    for pose in (towards_c, towards_b):
        assert pipeline.read(pose, tokens).target == "A"  # the camera alone
        assert pipeline.read(pose, tokens, touching=False).why == "lifted"
    pivoted = _pivot_casting(pipeline, [towards_c] * 45 + [towards_b] * 75, tokens)
    assert (pivoted.status, pivoted.target) == (TARGET, "A")
    off = np.array([0.7, -0.7]) * towards_b.tip_radius_px  # a bead's radius: more than a tremor
    shifted = replace(towards_b, tip_px=towards_b.tip_px + off, back_px=towards_b.back_px + off)
    assert pipeline.read(shifted, tokens, touching=False).why == "lifted"
    moved = _pivot_casting(pipeline, [towards_c] * 45 + [shifted] * 75, tokens)
    assert (moved.status, moved.why) == (UNSURE, "lifted")
    nudged = _leaning(tip, 65, 15)  # turned by 5 degrees in the picture: less than a lean anew
    assert pipeline.read(nudged, tokens, touching=False).why == "lifted"
    assert _pivot_casting(pipeline, [towards_c] * 45 + [nudged] * 75, tokens).status == UNSURE

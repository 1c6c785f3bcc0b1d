"""The table as seen before the cue is the table: a token a hand covered in the second before the cue is
no new object when the hand leaves it, and never a wand's tip."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision_two_tokens import CAMERA, TOKENS, two_token_pipeline, wand_two_after_the_cue
from vision.bare_table import BareTable
from vision.decide import MISSING, TARGET
from vision.frames import Frame
from vision.paints import documented_paints
from vision.pipeline import Pipeline
from vision.render.scene import make_scene
from vision.targets import Candidate
from vision.touch import FixedTipSwitches

WOOD = (60, 110, 160)
SKIN = (120, 160, 210)
SHAFT = (30, 30, 30)  # the wand's dark shaft, 9 mm across
GREEN = tuple(int(c) for c in cv2.cvtColor(np.uint8([[[65, 240, 220]]]), cv2.COLOR_HSV2BGR)[0, 0])  # wand 2's paint
FAR = Candidate("C", 500.0, 400.0, 15.0)  # a token of wand 2's colour, far from A and B
TOKEN_PX = tuple(int(round(v)) for v in CAMERA.project(np.array([[FAR.x_mm, FAR.y_mm, 0.0]]))[0])
A_PX = CAMERA.project(np.array([[850.0, 120.0, 15.0]]))[0]
BAND_PX = CAMERA.project(np.array([[850.0, 230.0, 60.0]]))[0]  # 110 mm back along a wand leaning toward its player
GRIP_PX = CAMERA.project(np.array([[850.0, 330.0, 100.0]]))[0]  # the shaft runs on from the band toward the fist


def _table(hand: tuple[int, int] | None = None, bead: bool = False, band: bool = False) -> np.ndarray:
    """640x480: wood, the token of wand 2's colour at C (radius 9 px: the size of a bead there), a hand
    over it offset by ``hand`` px (None: no hand), wand 2's tip bead resting on A and its band (both:
    threaded on its dark shaft)."""
    image = np.zeros((480, 640, 3), np.uint8)
    image[:] = WOOD
    cv2.circle(image, TOKEN_PX, 9, GREEN, -1)
    if hand is not None:
        cv2.circle(image, (TOKEN_PX[0] + hand[0], TOKEN_PX[1] + hand[1]), 24, SKIN, -1)
    if bead and band:
        cv2.line(image, tuple(int(round(v)) for v in A_PX), tuple(int(round(v)) for v in GRIP_PX), SHAFT, 5)
    if bead:
        cv2.circle(image, tuple(int(round(v)) for v in A_PX), 7, GREEN, -1)
    if band:
        cv2.circle(image, tuple(int(round(v)) for v in BAND_PX), 4, GREEN, -1)
    return image


def _before_cue(see) -> None:
    """Three seconds before the cue: two of bare table, then a hand held (trembling) over the token."""
    for i in range(15):
        t = -3.0 + 0.2 * i
        see(_table(None if i < 10 else (i % 2, (i + 1) % 2)), t)


@pytest.fixture
def pipeline(config) -> Pipeline:
    return two_token_pipeline(config)


def test_a_token_covered_by_a_hand_just_before_the_cue_is_still_the_table(config) -> None:
    bare = BareTable(documented_paints(), config.markers.hue_slack, config.markers.static_diff)
    _before_cue(bare.see)
    view = bare.view()
    assert view is not None
    assert tuple(int(c) for c in view.image[TOKEN_PX[1], TOKEN_PX[0]]) == GREEN  # the median would show the hand


def test_a_hand_resting_still_over_a_token_of_a_wands_colour_for_seconds_does_not_replace_it(config) -> None:
    bare = BareTable(documented_paints(), config.markers.hue_slack, config.markers.static_diff)
    for i in range(40):  # 2 s of bare table, then 6 s of a hand lying still over the token
        bare.see(_table(None if i < 10 else (0, 0)), 0.2 * i)
    view = bare.view()
    assert view is not None
    assert tuple(int(c) for c in view.image[TOKEN_PX[1], TOKEN_PX[0]]) == GREEN
    away = (TOKEN_PX[0] + 20, TOKEN_PX[1])  # under the hand, where the table is wood: the hand is the table now
    assert tuple(int(c) for c in view.image[away[1], away[0]]) == SKIN


def _cast(pipeline: Pipeline, after: np.ndarray, before=_before_cue) -> str:
    """Wand 2's status in a casting whose frames before the cue are ``before`` and after it ``after``,
    its tip switch closed."""
    before(lambda image, t: pipeline.see_table(Frame(image, t, 0)))
    pipeline.freeze_table()
    return wand_two_after_the_cue(pipeline, after, [*TOKENS, FAR], FixedTipSwitches({2: True}))


def test_a_token_uncovered_at_the_cue_is_not_a_tip(pipeline) -> None:
    """Wand 2's tip hidden under its fist (its switch closed), only its band seen; the token of its
    colour far away, covered by a hand just before the cue, is uncovered by it: the wand is not
    read as that token."""
    assert _cast(pipeline, _table(band=True)) == MISSING


def test_a_tip_resting_on_a_token_after_the_cue_is_still_read(pipeline) -> None:
    assert _cast(pipeline, _table(bead=True, band=True)) == f"{TARGET} A"


def _covered_all_along(see) -> None:
    """Every picture before the cue shows a hand over the token: the camera never saw it bare."""
    for i in range(15):
        see(_table((i % 2, (i + 1) % 2)), -3.0 + 0.2 * i)


def test_a_hidden_tip_is_not_read_as_a_token_of_its_colour_far_from_its_band(pipeline, config) -> None:
    """Wand 2's tip hidden under its fist, its switch closed, its band seen; a token of its colour the
    camera never saw bare lies far away: too far from the band to be this wand's tip, so the wand is
    asked (missing), never read as that token."""
    assert _cast(pipeline, _table(band=True), _covered_all_along) == MISSING
    # Without the band the same patch passes for a lone tip: the band is what tells (on a table whose
    # first frame after the cue still showed the hand over the token, so that the token is not the table).
    fresh = two_token_pipeline(config)
    _covered_all_along(lambda image, t: fresh.see_table(Frame(image, t, 0)))
    fresh.freeze_table()
    assert 2 not in fresh.find(_table((0, 1)))
    assert 2 in fresh.find(_table())
    assert 2 not in fresh.find(_table(band=True))


def test_a_token_the_hand_lifts_from_at_the_cue_is_the_table(pipeline) -> None:
    """A hand lay over the token of wand 2's colour all through the second before the cue and is lifted
    as the cue is called; wand 2's tip and band are under its fist. Nothing lay alone on the token
    before, so without the first frame after the cue the token passes for a lone tip and the wand is
    read there. The players raise their wands before the cue, so what of a wand's colour lies on the
    table in that first frame is the table: the wand is asked (missing), never read as the token."""
    assert _cast(pipeline, _table(), _covered_all_along) == MISSING


def _first_frame_then(pipeline: Pipeline, first: np.ndarray, then: np.ndarray) -> str:
    """Wand 2's status in a casting whose first frame after the cue is ``first`` and every later one
    ``then``, the table before the cue bare."""
    _before_cue(lambda image, t: pipeline.see_table(Frame(image, t, 0)))
    pipeline.freeze_table()
    casting = pipeline.casting(0.0, [2], [*TOKENS, FAR], FixedTipSwitches({2: True}))
    for i in range(60):
        image = first if i == 0 else then
        if (result := casting.observe(i / 30, pipeline.look(Frame(image, i / 30, i)).axes)) is not None:
            reading = result.wands[2]
            return reading.status if reading.status != TARGET else f"{TARGET} {reading.target}"
    raise AssertionError("the casting was never decided")


def test_a_bead_raised_alone_at_the_cue_is_read_where_it_comes_to_rest(pipeline) -> None:
    """At the cue wand 2 is raised over the table, its bead in view and its band under the fist; it
    then comes to rest on A with its band in view. Its bead's place at the cue joins the table, which
    says nothing of A: the wand is read there."""
    first = _table()
    over = tuple(int(round(v)) for v in CAMERA.project(np.array([[700.0, 250.0, 150.0]]))[0])
    cv2.circle(first, over, 9, GREEN, -1)
    assert _first_frame_then(pipeline, first, _table(bead=True, band=True)) == f"{TARGET} A"


def test_a_wand_resting_with_its_band_at_the_cue_does_not_join_the_table(pipeline) -> None:
    """Wand 2 already on A with its band in view in the first frame after the cue (a player quick to
    point): a bead with its band is a wand, never the table, and it is read at A."""
    assert _first_frame_then(pipeline, _table(bead=True, band=True), _table(bead=True, band=True)) == f"{TARGET} A"


def test_wands_resting_on_their_tokens_for_two_seconds_before_the_cue_are_read(config) -> None:
    """Rendered: the players hold their wands up at their seats, then rest them on their targets two
    seconds before the cue and keep them there. Still for that long, the wands would join the
    remembered table, and after the cue their own beads and bands would look like the table: all four
    came out missing. A wand found with its band where the table was seen without its colour never
    joins the table, so each is read at its token."""
    raised, resting = make_scene(11, "hover", motion=True), make_scene(11, "hover", motion=False)
    pipeline = Pipeline(resting.calibration, config)
    for i in range(-90, -60, 5):  # a second with the wands raised, a picture every sixth of a second
        pipeline.see_table(raised.render(i)[0])
    for i in range(-60, 0, 5):  # then two seconds resting on their tokens
        pipeline.see_table(resting.render(i)[0])
    pipeline.freeze_table()
    casting = pipeline.casting(0.0, list(resting.gestures), resting.candidates)
    result = None
    for i in range(resting.frames):
        frame, truth = resting.render(i)
        if (result := casting.observe(frame.t, pipeline.look(frame).axes, timed_out=i == resting.frames - 1)):
            break
    assert result is not None
    assert {k: (w.status, w.target) for k, w in result.wands.items()} == \
        {k: (TARGET, w.target) for k, w in truth.wands.items()}


def test_a_wand_at_rest_never_joins_the_remembered_table(config) -> None:
    """Wand 2 brought to rest on A with its band in view for seconds: the table view shows no wand's
    colour there, while a token of its colour lying there all along stays the table."""
    pipeline = two_token_pipeline(config)
    for i in range(40):
        pipeline.see_table(Frame(_table(bead=i >= 10, band=i >= 10), -8.0 + 0.2 * i, i))
    pipeline.freeze_table()
    assert pipeline.table is not None
    classes = pipeline.table.classes(pipeline.paints, config.markers.hue_slack)
    a = tuple(int(round(v)) for v in A_PX)
    assert classes[a[1], a[0]] == 0
    assert classes[TOKEN_PX[1], TOKEN_PX[0]] == 2

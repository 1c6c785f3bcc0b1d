"""A tip hidden under a fist, its switch closed, is placed from its band and shaft at a resting bead's
height, where the wand's own fist and the shaft seen running to it allow: read when one token lies where
it can be, asked when two do, never taken from a patch of its colour elsewhere."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision_two_tokens import BEAD_MM, CAMERA, GEO, TOKENS, two_token_pipeline, wand_two_after_the_cue
from vision.decide import MISSING, TARGET, UNSURE
from vision.frames import Frame
from vision.markers import TableView
from vision.hidden_tip import (FIST_RADIUS_MM, GRIP_FROM_TIP_MM, fist_allows, is_placed, shaft_allows, shaft_line,
                               shaft_seen, tip_places)
from vision.pipeline import Pipeline
from vision.targets import Candidate
from vision.touch import FixedTipSwitches
from vision.under_tip import BETWEEN, CLEAR, OVER, over_any

WOOD = (60, 110, 160)
SKIN = (120, 160, 210)
SHAFT = (40, 45, 55)
GREY = (150, 150, 150)
GREEN = tuple(int(c) for c in cv2.cvtColor(np.uint8([[[65, 240, 220]]]), cv2.COLOR_HSV2BGR)[0, 0])  # wand 2's paint
BAND_FROM_TIP = 110.0
REST = BEAD_MM + 3.0  # a 12 mm bead resting on a token 3 mm thick
FAR = Candidate("C", 500.0, 400.0, 15.0)  # a token of wand 2's colour, far from A
NEAR = Candidate("D", 850.0, 162.0, 15.0)  # a token just behind A, under the same fist
STEEP = Candidate("D", 850.0, 175.0, 15.0)  # a token behind A, where a steep wand would rest its tip
HAND_MM = 30.0  # the player's own fist around the grip


def _wand(elevation_deg: float = 40.0, grip_mm: float = 215.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tip centre resting on A, band and grip (3,) each, the wand leaning back toward +y."""
    tip = np.array([850.0, 120.0, REST])
    back = np.array([0.0, np.cos(np.radians(elevation_deg)), np.sin(np.radians(elevation_deg))])
    return tip, tip + BAND_FROM_TIP * back, tip + grip_mm * back


def _px(point: np.ndarray) -> tuple[int, int]:
    x, y = CAMERA.project(point[None])[0]
    return int(round(x)), int(round(y))


def _table(tokens: tuple[Candidate, ...] = ()) -> np.ndarray:
    """640x480 wood with A and B (grey) and the far token of wand 2's colour, and any ``tokens``."""
    image = np.zeros((480, 640, 3), np.uint8)
    image[:] = WOOD
    for c in (*TOKENS, *tokens):
        cv2.circle(image, _px(np.array([c.x_mm, c.y_mm, 0.0])), int(round(c.radius_mm * GEO.px_per_mm())), GREY, -1)
    cv2.circle(image, _px(np.array([FAR.x_mm, FAR.y_mm, 0.0])), 9, GREEN, -1)
    return image


def _hidden(tokens: tuple[Candidate, ...] = (), band: bool = True, fist_px: int = 20, elevation_deg: float = 40.0,
            grip_mm: float | None = 215.0) -> np.ndarray:
    """The table with wand 2 resting on A: its dark shaft from the tip to its end (250 mm), its band, the
    player's own fist round the grip (``grip_mm`` behind the tip; None: nobody holds it), and another
    player's fist of ``fist_px`` over the tip (its bead not seen at all)."""
    tip, band_mm, end = _wand(elevation_deg, 250.0)
    image = _table(tokens)
    cv2.line(image, _px(tip), _px(end), SHAFT, 3)
    if band:
        cv2.circle(image, _px(band_mm), 4, GREEN, -1)
    cv2.circle(image, _px(tip), fist_px, SKIN, -1)
    if grip_mm is not None:
        grip = _wand(elevation_deg, grip_mm)[2]
        cv2.circle(image, _px(grip), int(round(float(GEO.bead_radius_px(grip[None], HAND_MM)[0]))), SKIN, -1)
    return image


@pytest.fixture
def pipeline(config) -> Pipeline:
    return two_token_pipeline(config)


def _cast(pipeline: Pipeline, after: np.ndarray, before: np.ndarray, touching: bool | None,
          candidates: tuple[Candidate, ...] = (*TOKENS, FAR)) -> str:
    """Wand 2's status (and target) in a casting whose table before the cue is ``before``."""
    for i in range(10):
        pipeline.see_table(Frame(before, -2.0 + 0.2 * i, i))
    pipeline.freeze_table()
    tips = None if touching is None else FixedTipSwitches({2: touching})
    return wand_two_after_the_cue(pipeline, after, list(candidates), tips)


def test_a_tip_hidden_under_a_fist_with_its_switch_closed_is_read_at_its_token(pipeline) -> None:
    """The far token of the wand's colour is never the tip; the band and shaft place it on A."""
    assert _cast(pipeline, _hidden(), _table(), touching=True) == f"{TARGET} A"


def test_two_tokens_where_the_hidden_tip_can_be_are_asked(pipeline) -> None:
    """D lies behind A under the same fist, where a steeper wand would put the tip: asked."""
    assert _cast(pipeline, _hidden((NEAR,)), _table((NEAR,)), True, (*TOKENS, NEAR, FAR)) == UNSURE


def test_the_shaft_seen_running_to_the_fist_leaves_out_a_steep_wand_and_reads_the_token(pipeline) -> None:
    """D lies behind A under the same fist, where the tip of a steeper wand would rest. The shaft is seen
    running from the band to the player's fist a hand's length behind the tip: a wand steep enough to
    rest on D could not show that much shaft behind its band with any grip, so the tip is on A."""
    after, before = _hidden((STEEP,), elevation_deg=45.0), _table((STEEP,))
    assert _cast(pipeline, after, before, True, (*TOKENS, STEEP, FAR)) == f"{TARGET} A"


def test_a_short_grip_does_not_settle_it_and_the_wand_is_asked(pipeline) -> None:
    """The same wand gripped 190 mm behind the tip: the fist hides the shaft sooner, a steep wand fits
    what is seen as well, and both tokens stay possible."""
    after, before = _hidden((STEEP,), elevation_deg=45.0, grip_mm=190.0), _table((STEEP,))
    assert _cast(pipeline, after, before, True, (*TOKENS, STEEP, FAR)) == UNSURE


def test_a_wand_nobody_holds_is_not_placed(pipeline) -> None:
    """No hand anywhere a grip could be: the band and shaft are not a held wand's (a wand leaning at 40
    degrees is held), so no place is taken for its tip."""
    assert _cast(pipeline, _hidden(grip_mm=None), _table(), touching=True) == MISSING


def test_a_hidden_tip_is_read_only_with_its_switch_closed(pipeline, config) -> None:
    """Without the switch, or with it open, the tip may be anywhere up to a hover: asked, never read."""
    assert _cast(pipeline, _hidden(), _table(), touching=None) == UNSURE
    assert _cast(two_token_pipeline(config), _hidden(), _table(), touching=False) == UNSURE


def test_without_its_band_a_hidden_tip_is_missing_never_a_patch_of_its_colour(pipeline) -> None:
    assert _cast(pipeline, _hidden(band=False), _table(), touching=True) == MISSING


def test_without_the_table_as_it_was_a_hidden_tip_is_not_placed(pipeline) -> None:
    """What lies over the tip cannot be told without the table before the cue: nothing is placed."""
    view = pipeline.look(Frame(_hidden(), 0.0, 0))
    assert 2 not in view.axes


def test_the_tip_is_placed_under_the_fist_not_on_bare_table(pipeline) -> None:
    for i in range(5):
        pipeline.see_table(Frame(_table(), -1.0 + 0.2 * i, i))
    pipeline.freeze_table()
    axis = pipeline.look(Frame(_hidden(), 0.0, 0)).axes[2]
    assert is_placed(axis) and axis.spread_px is not None
    tip_px, band_px = CAMERA.project(np.array(_wand()[:2]))
    # Every place on the tip's side of the band lies under the fist over it (radius 20 px), and the true
    # tip is among them; the others lie under the player's own fist (which the camera cannot tell from
    # another's), none on bare table.
    ahead = axis.spread_px[(axis.spread_px - band_px) @ (tip_px - band_px) > 0]
    assert np.linalg.norm(ahead - tip_px, axis=1).max() < 20
    assert np.linalg.norm(ahead - tip_px, axis=1).min() < 1.5
    grip_px = CAMERA.project(_wand()[2][None])[0]
    behind = axis.spread_px[(axis.spread_px - band_px) @ (tip_px - band_px) <= 0]
    assert np.linalg.norm(behind - grip_px, axis=1).max() < float(GEO.bead_radius_px(_wand()[2][None], HAND_MM)[0])


@pytest.mark.parametrize("elevation", [20.0, 45.0, 75.0])
def test_tip_places_hold_the_true_tip_at_every_allowed_angle(elevation: float) -> None:
    """Independent check: a wand drawn in 3D, its band and its line projected by the camera model."""
    tip, band, _ = _wand(elevation)
    tip_px, band_px = CAMERA.project(np.array([tip, band]))
    line = (tip_px - band_px) / np.linalg.norm(tip_px - band_px)
    places = tip_places(GEO, band_px, line, BAND_FROM_TIP, REST)
    assert np.linalg.norm(places - tip_px, axis=1).min() < 1.0


@pytest.mark.parametrize("elevation", [20.0, 45.0, 75.0])
@pytest.mark.parametrize("grip_mm", [GRIP_FROM_TIP_MM[0], 215.0, GRIP_FROM_TIP_MM[1]])
def test_the_fist_and_the_shaft_keep_the_true_tip_for_every_grip(elevation: float, grip_mm: float) -> None:
    """Whatever the angle and wherever the hand grips (within the pose's range), the true tip stays a
    place: the grip's hand is seen over the table, and the shaft runs from the band to the hand's front
    (a smallest fist's half-width ahead of the grip) and on the tip's side to the tip."""
    tip, band, grip = _wand(elevation, grip_mm)
    tip_px, band_px = CAMERA.project(np.array([tip, band]))
    line = (tip_px - band_px) / np.linalg.norm(tip_px - band_px)
    places = tip_places(GEO, band_px, line, BAND_FROM_TIP, REST)
    front = CAMERA.project((tip + (grip - tip) * (grip_mm - FIST_RADIUS_MM) / grip_mm)[None])[0]
    seen = (float(np.linalg.norm(tip_px - band_px)), float(np.linalg.norm(front - band_px)))
    kept = places[shaft_allows(GEO, band_px, line, places, seen, BAND_FROM_TIP, REST)]
    assert len(kept) and np.linalg.norm(kept - tip_px, axis=1).min() < 1.0
    before = _table()
    table = TableView(before)
    after = before.copy()
    cv2.circle(after, _px(grip), int(round(float(GEO.bead_radius_px(grip[None], FIST_RADIUS_MM)[0]))), SKIN, -1)
    held = kept[fist_allows(GEO, table, after, band_px, kept, BAND_FROM_TIP, REST)]
    assert len(held) and np.linalg.norm(held - tip_px, axis=1).min() < 1.0
    assert not fist_allows(GEO, table, before, band_px, kept, BAND_FROM_TIP, REST).any()  # no hand, no wand


def test_a_long_run_of_shaft_behind_the_band_leaves_out_steep_wands() -> None:
    """Places near the band (a steep wand) are left out once the shaft is seen running far behind it,
    places nearer than the shaft runs on the tip's own side too; the far places stay."""
    tip, band, _ = _wand(30.0)
    tip_px, band_px = CAMERA.project(np.array([tip, band]))
    line = (tip_px - band_px) / np.linalg.norm(tip_px - band_px)
    places = tip_places(GEO, band_px, line, BAND_FROM_TIP, REST)
    places = places[(places - band_px) @ line > 0]
    near = np.linalg.norm(places - band_px, axis=1)
    short = shaft_allows(GEO, band_px, line, places, (0.0, 0.0), BAND_FROM_TIP, REST)
    long = shaft_allows(GEO, band_px, line, places, (0.0, 0.9 * float(near.max())), BAND_FROM_TIP, REST)
    assert short.all() and 0 < long.sum() < len(places)
    assert near[long].min() > near[~long].max()
    ahead = shaft_allows(GEO, band_px, line, places, (0.5 * float(near.max()), 0.0), BAND_FROM_TIP, REST)
    assert near[ahead].min() >= 0.5 * float(near.max()) - 2.0


def test_shaft_seen_runs_from_the_band_to_whatever_lies_over_it() -> None:
    image = np.zeros((200, 200, 3), np.uint8)
    image[:] = WOOD
    cv2.line(image, (100, 20), (100, 180), SHAFT, 3)
    cv2.circle(image, (100, 100), 4, GREEN, -1)
    cv2.circle(image, (100, 160), 15, SKIN, -1)  # a fist over the shaft, its front 45 px below the band
    cv2.rectangle(image, (80, 60), (120, 70), GREY, -1)  # an arm across it, 30 px above the band
    down, up = shaft_seen(image, np.array([100.0, 100.0]), np.array([0.0, 1.0]), 4.0, 20.0, 150.0)
    assert abs(down - 44) <= 2 and abs(up - 29) <= 2


def test_tip_places_leave_out_angles_the_pose_never_takes() -> None:
    """Flat on the table, the tip would lie a full wand's band length from the band's foot: no place
    goes beyond where a 15-degree wand puts it."""
    tip, band, _ = _wand(5.0)
    tip_px, band_px = CAMERA.project(np.array([tip, band]))
    line = (tip_px - band_px) / np.linalg.norm(tip_px - band_px)
    places = tip_places(GEO, band_px, line, BAND_FROM_TIP, REST)
    assert np.linalg.norm(places - tip_px, axis=1).min() > 2.0


def test_a_bead_ending_its_shaft_is_not_taken_for_a_band() -> None:
    """A tip bead has shaft on one side only; a band is threaded on it, dark on both sides."""
    image = np.zeros((200, 200, 3), np.uint8)
    image[:] = WOOD
    cv2.line(image, (100, 100), (170, 160), SHAFT, 3)
    cv2.circle(image, (100, 100), 4, GREEN, -1)
    assert shaft_line(image, np.array([100.0, 100.0]), 4.0, 20.0) is None
    cv2.line(image, (100, 100), (60, 66), SHAFT, 3)
    line = shaft_line(image, np.array([100.0, 100.0]), 4.0, 20.0)
    assert line is not None and abs(abs(float(line @ np.array([70.0, 60.0]) / np.hypot(70, 60))) - 1) < 0.01


def test_over_any_reads_one_token_within_reach_of_any_place(config) -> None:
    cfg = config.pointing
    line = np.column_stack([np.full(30, 850.0), np.linspace(90.0, 150.0, 30)])  # along A, 60 mm
    assert over_any(line, TOKENS, cfg).status == OVER
    assert over_any(line, [*TOKENS, NEAR], cfg).status == BETWEEN
    assert over_any(line + [0.0, 400.0], TOKENS, cfg).status == CLEAR

"""A bead and a band that no shaft joins are not a wand: two patches of a wand's paint lying still on
the table from the cue (tokens recoloured in its paint, under a hand before the cue) pair like a tip
and its band, but a real wand's band is threaded on its shaft, which runs on from it to the fist."""
from __future__ import annotations

import cv2
import numpy as np

from tests.vision_two_tokens import GREEN, SKIN, TOKENS, WOOD, table_px, two_token_pipeline, wand_two_after_the_cue
from vision.decide import MISSING, TARGET
from vision.frames import Frame
from vision.hidden_tip import shaft_joins
from vision.markers import find_wands
from vision.pipeline import Pipeline
from vision.targets import Candidate
from vision.touch import FixedTipSwitches

SHAFT = (30, 30, 30)  # the wand's dark shaft, 9 mm across
FAR = Candidate("C", 500.0, 400.0, 12.0)  # a counter of wand 2's colour, a bead's size, 45 cm from A


COUNTER_PX = table_px(FAR.x_mm, FAR.y_mm, 0.0)
SPECK_PX = table_px(FAR.x_mm, FAR.y_mm + 60.0, 0.0)  # a band-sized patch of the same paint 6 cm on
GRIP_PX = table_px(FAR.x_mm, FAR.y_mm + 200.0, 90.0)  # where a wand resting on C with its band there is held


def _picture(covered: bool, shaft: bool = False) -> np.ndarray:
    """640x480 wood with the counter and the speck of wand 2's paint at C; ``covered``: fingertips lie on
    both (the table around them stays in view); ``shaft``: a dark shaft leaves the speck away
    from the counter (a wand resting on C, its band the speck)."""
    image = np.zeros((480, 640, 3), np.uint8)
    image[:] = WOOD
    if shaft:
        cv2.line(image, COUNTER_PX, GRIP_PX, SHAFT, 5)
    cv2.circle(image, COUNTER_PX, 7, GREEN, -1)
    cv2.circle(image, SPECK_PX, 4, GREEN, -1)
    if covered:
        cv2.circle(image, COUNTER_PX, 9, SKIN, -1)
        cv2.circle(image, SPECK_PX, 6, SKIN, -1)
    return image


def _cast(pipeline: Pipeline, after: np.ndarray) -> str:
    """Wand 2's reading, switch closed: the pair under fingertips in every picture before the cue (the
    camera never saw it bare), then ``after`` in every frame from the cue on."""
    for i in range(15):
        pipeline.see_table(Frame(_picture(True), -3.0 + 0.2 * i, i))
    pipeline.freeze_table()
    return wand_two_after_the_cue(pipeline, after, [*TOKENS, FAR], FixedTipSwitches({2: True}))


def test_a_pair_of_patches_still_from_the_cue_with_no_shaft_is_not_the_wand(config) -> None:
    """The pair alone, bare from the cue on, with no shaft: it was read as wand 2 resting on C; no wand is
    there, so wand 2 is unseen."""
    assert _cast(two_token_pipeline(config), _picture(False)) == MISSING


def test_a_wand_resting_still_from_the_cue_is_read(config) -> None:
    """The same bead and band with the shaft running on from the band to the fist: a wand at rest on C."""
    assert _cast(two_token_pipeline(config), _picture(False, shaft=True)) == f"{TARGET} C"


def test_a_pair_once_seen_with_no_shaft_stays_refused_while_it_lies_still(config) -> None:
    """The pair seen bare for a few frames, then with something dark beside its band (the rims and
    middles of tokens beside it flicker in and out of looking like a shaft): it has not moved, so it is
    still no wand."""
    pipeline = two_token_pipeline(config)
    for i in range(15):
        pipeline.see_table(Frame(_picture(True), -3.0 + 0.2 * i, i))
    pipeline.freeze_table()
    casting = pipeline.casting(0.0, [2], [*TOKENS, FAR], FixedTipSwitches({2: True}))
    for i in range(60):
        image = _picture(False, shaft=i >= 3)
        if (result := casting.observe(i / 30, pipeline.look(Frame(image, i / 30, i)).axes)) is not None:
            assert result.wands[2].status == MISSING
            return
    raise AssertionError("the casting was never decided")


def test_a_pair_is_joined_by_a_shaft_leaving_the_band_away_from_the_tip() -> None:
    bare, wand = _picture(False), _picture(False, shaft=True)
    tip, band = np.array(COUNTER_PX, float), np.array(SPECK_PX, float)
    assert shaft_joins(wand, tip, band, 4.0, 7.0, 20.0, 150.0)
    assert not shaft_joins(bare, tip, band, 4.0, 7.0, 20.0, 150.0)
    # Dark between the two (a row of tokens' dark rims, a shaft of another wand) does not join them.
    between = bare.copy()
    cv2.line(between, COUNTER_PX, SPECK_PX, SHAFT, 5)
    cv2.circle(between, COUNTER_PX, 7, GREEN, -1)
    cv2.circle(between, SPECK_PX, 4, GREEN, -1)
    assert not shaft_joins(between, tip, band, 4.0, 7.0, 20.0, 150.0)
    # Nor does the dark rim of the next token in a row, just past the band on the far side.
    rim = bare.copy()
    onward = band + 14.0 * (band - tip) / np.linalg.norm(band - tip)
    cv2.circle(rim, (int(round(onward[0])), int(round(onward[1]))), 8, SHAFT, 2)
    assert not shaft_joins(rim, tip, band, 4.0, 7.0, 20.0, 150.0)


def _paint(saturation: int, value: int) -> tuple[int, ...]:
    """Wand 2's green at another saturation and value (a shaded bead, a flat printed token)."""
    return tuple(int(c) for c in cv2.cvtColor(np.uint8([[[65, saturation, value]]]), cv2.COLOR_HSV2BGR)[0, 0])


def test_a_band_is_paired_with_the_bead_its_shaft_runs_from_not_a_brighter_token_beside_it(config) -> None:
    """Wand 2 rests on A leaning back toward its player, its shaft running on from the band to the fist; a
    token of its green, printed flat and more saturated than the shaded bead, lies as far from the band
    on the other side. By saturation alone the band was paired with the token (the wand read at a token
    nobody touched); the band is threaded on the shaft that runs on away from the bead, so the wand is
    the bead on A."""
    tip, band, grip = table_px(850.0, 120.0, 6.0), table_px(850.0, 215.0, 61.0), table_px(850.0, 330.0, 127.0)
    token = table_px(790.0, 200.0, 0.0)
    image = np.zeros((480, 640, 3), np.uint8)
    image[:] = WOOD
    cv2.line(image, tip, grip, SHAFT, 5)
    cv2.circle(image, token, 7, _paint(250, 230), -1)
    cv2.circle(image, tip, 7, _paint(205, 215), -1)
    cv2.circle(image, band, 4, _paint(205, 215), -1)
    pipeline = two_token_pipeline(config)
    seen = pipeline.find(image)[2]
    assert np.linalg.norm(seen.tip_px - tip) <= 1.0
    assert seen.band_px is not None and np.linalg.norm(seen.band_px - band) <= 1.0
    # The wand stage alone, told nothing of the shaft, takes the token.
    alone = find_wands(image, pipeline.paints, config.markers, pipeline.bead_px, pipeline.band_reach_px)[2]
    assert np.linalg.norm(alone.tip_px - token) <= 1.0

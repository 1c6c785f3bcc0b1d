"""A band farther from a patch than a wand's band sits from its tip: the patch is not the tip. On a
development table (5100004, a confusable casting) a token of a wand's paint, uncovered by an arm while
the wand's tip lay under that arm, was paired with the wand's real band 16-18 cm off and read as the
tip resting on that token, without a question."""
from __future__ import annotations

import cv2
import numpy as np

from tests.vision_two_tokens import GREEN, SKIN, TOKENS, WOOD, table_px, two_token_pipeline
from vision.decide import TARGET
from vision.frames import Frame
from vision.pipeline import Pipeline
from vision.targets import Candidate
from vision.touch import FixedTipSwitches

SHAFT = (30, 30, 30)  # the wand's dark shaft
TIP = (850.0, 120.0, 15.0)  # wand 2's bead resting on A
BAND = (850.0, 230.0, 60.0)  # its band, 110 mm back up its shaft toward its player
FAR = Candidate("C", 850.0, 400.0, 12.0)  # a counter of its colour, 17 cm past the band, on the table


def _picture(counter: str, wand: bool) -> np.ndarray:
    """640x480 wood; the counter of wand 2's colour at C ``counter`` ("covered" by a hand, or "bare");
    with ``wand``, wand 2's shaft and band in view, its tip under an arm."""
    image = np.zeros((480, 640, 3), np.uint8)
    image[:] = WOOD
    c = table_px(FAR.x_mm, FAR.y_mm, 0.0)
    cv2.circle(image, c, 7, GREEN, -1)
    if counter == "covered":
        cv2.circle(image, c, 24, SKIN, -1)
    if wand:
        cv2.line(image, table_px(*TIP), table_px(850.0, 330.0, 100.0), SHAFT, 5)
        cv2.circle(image, table_px(*TIP), 7, GREEN, -1)
        cv2.circle(image, table_px(*BAND), 4, GREEN, -1)
        cv2.circle(image, table_px(*TIP), 16, SKIN, -1)  # the arm over the tip
    return image


def _cast(pipeline: Pipeline) -> str:
    """Wand 2's reading: before the cue the counter lies under a hand and the wand is not over the table
    (the camera never saw the counter bare); after it, the counter is bare and the wand's band in view."""
    for i in range(15):
        pipeline.see_table(Frame(_picture("covered", False), -3.0 + 0.2 * i, i))
    pipeline.freeze_table()
    casting = pipeline.casting(0.0, [2], [*TOKENS, FAR], FixedTipSwitches({2: True}))
    after = _picture("bare", True)
    for i in range(60):
        if (result := casting.observe(i / 30, pipeline.look(Frame(after, i / 30, i)).axes)) is not None:
            reading = result.wands[2]
            return f"{TARGET} {reading.target}" if reading.status == TARGET else f"{reading.status} {reading.why}"
    raise AssertionError("the casting was never decided")


def test_a_counter_of_the_wands_colour_out_of_its_bands_reach_is_not_its_tip(config) -> None:
    pipeline = two_token_pipeline(config)
    band = np.array(table_px(*BAND), float)
    counter = np.array(table_px(FAR.x_mm, FAR.y_mm, 0.0), float)
    # In the picture the counter lies within the band's reach (any place, any pose): the wand stage pairs
    # them, the counter taken for a tip resting on C with its band.
    assert np.linalg.norm(band - counter) < pipeline.band_reach_px
    assert pipeline.find(_picture("bare", True))[2].band_px is not None
    # But at no tip height does the band lie within a wand's band's reach of it (170 mm or more to the
    # band's 110): the counter is not the tip, and the wand (its tip under the arm) is not read C.
    assert _cast(pipeline) != f"{TARGET} C"


def test_a_wand_seen_whole_keeps_its_band(config) -> None:
    """The same wand with nothing over its tip: tip and band are one wand's, and it is read A."""
    pipeline = two_token_pipeline(config)
    for i in range(15):
        pipeline.see_table(Frame(_picture("covered", False), -3.0 + 0.2 * i, i))
    pipeline.freeze_table()
    whole = _picture("covered", False)
    cv2.line(whole, table_px(*TIP), table_px(850.0, 330.0, 100.0), SHAFT, 5)
    cv2.circle(whole, table_px(*TIP), 7, GREEN, -1)
    cv2.circle(whole, table_px(*BAND), 4, GREEN, -1)
    seen = pipeline.look(Frame(whole, 0.0, 0)).sightings
    assert seen[2].band_px is not None

"""A tip bead partly hidden under a fist or a sleeve: what shows of it says where its centre can be, and
with the tip switch closed (the bead rests on a token) that is enough to read the token under it."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.axis import WandAxis
from vision.bench.casting import run_scene
from vision.bench.tips import SceneTips
from vision.decide import TARGET, UNSURE, averaged
from vision.markers import TableView, bead_spread
from tests.vision_two_tokens import BEAD_MM, CAMERA, GEO, TOKENS, two_token_pipeline
from vision.pipeline import Pipeline
from vision.render.scene import make_scene

WOOD = (60, 110, 160)
SKIN = (120, 160, 210)
PAINT = (200, 40, 200)
OTHER_PAINT = (40, 220, 40)
R = 8.0  # px, the bead's radius
CENTRE = np.array([100.0, 100.0])


def _picture(*shapes: tuple[tuple[int, int], int, tuple[int, int, int]]) -> np.ndarray:
    image = np.zeros((200, 200, 3), np.uint8)
    image[:] = WOOD
    for centre, radius, colour in shapes:
        cv2.circle(image, centre, radius, colour, -1)
    return image


def _classes(image: np.ndarray) -> np.ndarray:
    """Wand 3's colour as 3, another wand's as 1."""
    classes = np.zeros(image.shape[:2], np.uint8)
    classes[(image == PAINT).all(axis=2)] = 3
    classes[(image == OTHER_PAINT).all(axis=2)] = 1
    return classes


def _spread(image: np.ndarray, config, table: TableView | None) -> np.ndarray | None:
    classes = _classes(image)
    ys, xs = np.nonzero(classes == 3)
    return bead_spread(image, classes, 3, np.array([xs.mean(), ys.mean()]), R, config.markers, table)


def test_a_bead_half_under_a_fist_is_placed_within_a_few_pixels(config) -> None:
    image = _picture(((100, 100), 8, PAINT), ((128, 100), 28, SKIN))  # the fist covers the right half
    spread = _spread(image, config, TableView(_picture()))
    assert spread is not None
    off = np.linalg.norm(spread - CENTRE, axis=1)
    assert off.min() <= 0.75  # the true centre is among the places
    assert off.max() <= 0.5 * R  # and the places are few: the table around the visible part rules out the rest
    blob_centre = np.array(np.nonzero((_classes(image) == 3).T)).mean(axis=1)
    assert np.linalg.norm(blob_centre - CENTRE) > 2.5  # where the patch's own centre would have put it


def test_a_sliver_is_not_a_bead_without_a_core_of_paint(config) -> None:
    image = _picture(((100, 100), 8, PAINT), ((102, 100), 9, SKIN))  # a rim a pixel or two wide
    assert _spread(image, config, TableView(_picture())) is None


def test_a_band_seen_alone_is_not_a_beads_part(config) -> None:
    """A band (half a bead's radius) partly under a fist: it spans too little for a bead's part."""
    image = _picture(((100, 100), 4, PAINT), ((112, 100), 10, SKIN))
    table = TableView(_picture())
    assert _spread(image, config, table) is None
    any_span = config.markers.model_copy(update={"partial_min_span": 0.0})
    assert _spread(image, config.model_copy(update={"markers": any_span}), table) is not None


def test_a_half_disc_of_paint_on_bare_table_is_not_a_hidden_bead(config) -> None:
    """Where the rest of the bead would be, the table is in plain view, as before the cue."""
    image = _picture(((100, 100), 8, PAINT))
    image[:, 101:] = WOOD
    assert _spread(image, config, TableView(_picture())) is None
    assert _spread(image, config, None) is None  # without the table as it was: not read either


def test_another_wands_bead_does_not_hide_this_ones(config) -> None:
    """Beads resting on tokens lie side by side: a patch whose rest would be under another wand's bead
    is not this wand's bead (the rim a token of this colour shows around the other bead)."""
    image = _picture(((100, 100), 8, PAINT), ((128, 100), 28, OTHER_PAINT))
    assert _spread(image, config, TableView(_picture())) is None


# -- reading a partly hidden tip ------------------------------------------------------------------------
@pytest.fixture
def pipeline(config) -> Pipeline:
    return two_token_pipeline(config)


def _hidden_tip(centre_mm: tuple[float, float], spread_mm: float, shown: float = 0.45) -> WandAxis:
    """Wand 2's tip resting at ``centre_mm``, ``shown`` of its area in view, its centre known to within
    ``spread_mm``; the patch's own centre lies a bead toward A."""
    rest = BEAD_MM + 3.0
    ring = [(centre_mm[0] + dx, centre_mm[1] + dy, rest) for dx in (-spread_mm, 0, spread_mm)
            for dy in (-spread_mm, 0, spread_mm)]
    spread = CAMERA.project(np.array(ring))
    radius = float(GEO.bead_radius_px(np.array([[*centre_mm, rest]]), BEAD_MM)[0]) * np.sqrt(shown)
    patch = CAMERA.project(np.array([[centre_mm[0] + 12.0, centre_mm[1], rest]]))[0]
    return WandAxis(2, patch, None, 0.0, "tip", radius, spread)


def test_a_resting_tip_partly_hidden_is_read_where_it_can_be_with_its_switch_closed(pipeline) -> None:
    axis = _hidden_tip((815.0, 120.0), 2.0)  # on B, near its edge toward A
    alone = pipeline.read(axis, TOKENS)
    assert (alone.status, alone.why) == (UNSURE, "hidden")  # the camera alone: a partial patch is not read
    reading = pipeline.read(axis, TOKENS, touching=True)
    assert (reading.status, reading.target) == (TARGET, "B")
    assert pipeline.read(axis, TOKENS, touching=False).status == UNSURE


def test_a_partly_hidden_tip_that_may_lie_on_either_token_is_asked(pipeline) -> None:
    reading = pipeline.read(_hidden_tip((825.0, 120.0), 6.0), TOKENS, touching=True)
    assert reading.status == UNSURE and reading.best in ("A", "B") and reading.why == "hidden"


def test_a_still_wand_partly_hidden_in_some_frames_must_hold_for_every_frames_places() -> None:
    whole = WandAxis(2, np.array([100.0, 100.0]), None, 0.0, "tip", 6.0)
    hidden = WandAxis(2, np.array([102.0, 100.0]), None, 0.0, "tip", 4.0, np.array([[101.0, 100.0], [103.0, 100.0]]))
    one = averaged([whole, hidden])
    assert one.tip_radius_px == pytest.approx(5.0)
    assert one.spread_px is not None
    assert sorted(map(tuple, one.spread_px)) == [(100.0, 100.0), (101.0, 100.0), (103.0, 100.0)]
    assert averaged([whole, whole]).spread_px is None


def test_a_token_of_the_wands_colour_under_a_sleeves_edge_is_not_a_hidden_bead(config) -> None:
    """A token painted like the tip, half under a sleeve whose edge changed how it looks: new to the
    picture, but where the table already showed this colour over more than a quarter of a bead."""
    shaded = tuple(int(c * 0.8) for c in PAINT)
    image = _picture(((100, 100), 8, shaded), ((128, 100), 28, SKIN))
    table = TableView(_picture(((100, 100), 8, PAINT)))
    classes = np.zeros(image.shape[:2], np.uint8)
    classes[(image == shaded).all(axis=2)] = 3
    before = np.zeros_like(classes)
    before[(table.image == PAINT).all(axis=2)] = 3
    ys, xs = np.nonzero(classes == 3)
    centre = np.array([xs.mean(), ys.mean()])
    assert bead_spread(image, classes, 3, centre, R, config.markers, table) is not None
    assert bead_spread(image, classes, 3, centre, R, config.markers, table, before) is None


def test_rendered_tips_half_under_a_fist_are_read_with_their_switches_closed(config) -> None:
    """Hard castings (dim light, blur, JPEG) whose tips a fist half hides: the camera alone asks; with the
    wands' tip switches (a real switch's faults included) they are read, never wrongly."""
    alone: list = []
    found: list = []
    for seed in (421, 424, 426, 441):
        scene = make_scene(seed, "hover", True, motion=True, tips_in_view=True)
        found += run_scene(Pipeline(scene.calibration, config), scene, 0.0, tips=SceneTips(scene), camera_only=alone)[1]
    hidden = [i for i, o in enumerate(found) if o.tip_visible < 0.7]
    assert len(hidden) >= 5
    assert sum(alone[i].right for i in hidden) <= 1
    assert sum(found[i].right for i in hidden) >= 4
    assert not any(o.silent_error for o in found + alone)

"""A wand seen coming in and then lost under a fist (tip and band alike) is asked as hidden, the token
nearest where it was last seen offered first; never read from it, and never called missing as if it had
not come to the table. A wand never seen this casting stays missing."""
from __future__ import annotations

import cv2
import numpy as np

from tests.vision_two_tokens import BEAD_MM, CAMERA, GEO, TOKENS, two_token_pipeline
from vision.axis import WandAxis
from vision.config import VisionConfig
from vision.decide import LOST, MISSING, TARGET, UNSURE, Casting, CastingResult, WandReading
from vision.frames import Frame
from vision.lost_tip import from_seen, likeliest, seen_segment
from vision.pipeline import Pipeline
from vision.swap import SeatPlace, seat_of
from vision.targets import Candidate
from vision.touch import FixedTipSwitches

WOOD = (60, 110, 160)
GREY = (150, 150, 150)
SKIN = (120, 160, 210)
SHAFT = (40, 45, 55)
GREEN = tuple(int(c) for c in cv2.cvtColor(np.uint8([[[65, 240, 220]]]), cv2.COLOR_HSV2BGR)[0, 0])  # wand 2's paint
REST = BEAD_MM + 3.0  # a 12 mm bead resting on a token 3 mm thick
FPS = 30.0


def _px(point: np.ndarray) -> tuple[int, int]:
    x, y = CAMERA.project(np.asarray(point, float)[None])[0]
    return int(round(x)), int(round(y))


def _table() -> np.ndarray:
    image = np.zeros((480, 640, 3), np.uint8)
    image[:] = WOOD
    for c in TOKENS:
        cv2.circle(image, _px([c.x_mm, c.y_mm, 0.0]), int(round(c.radius_mm * GEO.px_per_mm())), GREY, -1)
    return image


def _wand_on_a(fist_over_tip: bool) -> np.ndarray:
    """Wand 2 resting on A, leaning back at 60 degrees toward +y, its player's fist round the grip; with
    ``fist_over_tip`` the fist (seen from above) covers its tip and band alike."""
    tip = np.array([TOKENS[0].x_mm, TOKENS[0].y_mm, REST])
    back = np.array([0.0, np.cos(np.radians(60.0)), np.sin(np.radians(60.0))])
    image = _table()
    cv2.line(image, _px(tip), _px(tip + 250.0 * back), SHAFT, 3)
    cv2.circle(image, _px(tip + 110.0 * back), 4, GREEN, -1)
    cv2.circle(image, _px(tip), int(round(float(GEO.bead_radius_px(tip[None], BEAD_MM)[0]))), GREEN, -1)
    grip = tip + 215.0 * back
    cv2.circle(image, _px(grip), int(round(float(GEO.bead_radius_px(grip[None], 35.0)[0]))), SKIN, -1)
    if fist_over_tip:
        middle = (np.array(_px(tip)) + np.array(_px(tip + 110.0 * back))) / 2
        reach = np.linalg.norm(np.array(_px(tip)) - np.array(_px(tip + 110.0 * back))) / 2
        cv2.circle(image, (int(middle[0]), int(middle[1])), int(reach + 15), SKIN, -1)
    return image


def _cast(pipeline: Pipeline, frames: list[np.ndarray], touching: bool | None,
          candidates: list[Candidate] | None = None) -> CastingResult:
    for i in range(10):
        pipeline.see_table(Frame(_table(), -2.0 + 0.2 * i, i))
    pipeline.freeze_table()
    tips = None if touching is None else FixedTipSwitches({2: touching})
    casting = pipeline.casting(0.0, [2], candidates or list(TOKENS), tips)
    for i in range(120):
        image = frames[min(i, len(frames) - 1)]
        if (result := casting.observe(i / FPS, pipeline.look(Frame(image, i / FPS, i)).axes)) is not None:
            return result
    raise AssertionError("the casting was never decided")


def test_the_pictures_show_the_wand_then_nothing_of_it(config: VisionConfig) -> None:
    """What the tests below rest on: the wand is found whole with its band, and then not at all."""
    pipeline = two_token_pipeline(config)
    for i in range(10):
        pipeline.see_table(Frame(_table(), -2.0 + 0.2 * i, i))
    pipeline.freeze_table()
    seen = pipeline.find(_wand_on_a(False))
    assert 2 in seen and seen[2].band_px is not None
    lost = pipeline.find(_wand_on_a(True))
    assert 2 not in lost and not getattr(lost, "unpaired", {}).get(2)


def test_a_wand_lost_under_its_fist_is_asked_as_hidden_with_its_token_first(config: VisionConfig) -> None:
    """Seen resting on A for a fifth of a second, then a fist over tip and band: asked, A offered first."""
    frames = [_wand_on_a(False)] * 6 + [_wand_on_a(True)]
    for touching in (True, None):
        reading = _cast(two_token_pipeline(config), frames, touching).wands[2]
        assert (reading.status, reading.why, reading.best) == (UNSURE, "hidden", "A")


def test_a_lost_wand_is_never_read_even_with_one_token_within_reach(config: VisionConfig) -> None:
    """Only A on the table and the switch closed: where the tip was last seen does not say where it rests
    (an arm lying still since before the cue is the table to the camera), so it is asked, not read."""
    frames = [_wand_on_a(False)] * 6 + [_wand_on_a(True)]
    reading = _cast(two_token_pipeline(config), frames, True, [TOKENS[0]]).wands[2]
    assert reading.status == UNSURE and reading.best == "A"


def test_a_wand_never_seen_this_casting_is_missing(config: VisionConfig) -> None:
    assert _cast(two_token_pipeline(config), [_wand_on_a(True)], True).wands[2].status == MISSING


def _axis(source: str, tip: tuple[float, float]) -> WandAxis:
    return WandAxis(1, np.array(tip), np.array(tip), 0.0, source, 0.0 if source == LOST else 6.0)


def _read(axis: WandAxis) -> WandReading:
    if axis.source == LOST:
        return WandReading(axis.strength, UNSURE, None, 0.0, None, {}, axis.source, "A", "hidden")
    return WandReading(axis.strength, TARGET, "B", 1.0, None, {}, axis.source, "B")


def _decide(config: VisionConfig, lost_after: bool) -> CastingResult:
    """Wand 1 seen gliding in for 0.3 s, then not seen (``lost_after``: told as lost) for 2 s."""
    casting = Casting(0.0, [1], config.decide, _read)
    for i in range(60):
        t = i / FPS
        if i < 9:
            axes = {1: _axis("tip", (100.0 + 10 * i, 200.0))}
        else:
            axes = {1: _axis(LOST, (180.0, 200.0))} if lost_after else {}
        if (result := casting.observe(t, axes)) is not None:
            return result
    raise AssertionError("the casting was never decided")


def test_a_lost_wand_does_not_look_still_or_hasten_the_casting(config: VisionConfig) -> None:
    """The casting waits for a lost wand exactly as for an unseen one, and then asks it."""
    unseen, lost = _decide(config, False), _decide(config, True)
    assert unseen.wands[1].status == MISSING
    assert (lost.wands[1].status, lost.wands[1].why) == (UNSURE, "hidden")
    assert lost.decided_at == unseen.decided_at


def test_a_lost_wand_is_no_flight_for_its_switch(config: VisionConfig) -> None:
    """A closed switch heard while the wand's tip is seen far from where it was seen a moment ago is a
    stuck switch; what stands for a lost wand is no sighting, so its switch stays trusted."""
    heard: list[set[int]] = []
    casting = Casting(0.0, [1], config.decide, _read, hear=lambda t, axes: heard.append(set(axes)))
    casting.observe(0.0, {1: _axis("tip", (100.0, 200.0))})
    casting.observe(1 / FPS, {1: _axis(LOST, (300.0, 200.0))})
    assert heard == [{1}, set()]


def test_where_it_was_last_seen_runs_along_its_line_of_sight() -> None:
    """Held up to 150 mm, a tip seen at one pixel may lie over any table point from under that pixel at
    a resting height toward the camera's foot."""
    seen_px = np.array(_px([700.0, 300.0, 60.0]))
    low, high = seen_segment(GEO, seen_px, REST)
    foot = GEO.centre[:2]
    assert np.linalg.norm(low - high) > 5.0
    assert np.linalg.norm(high - foot) < np.linalg.norm(low - foot)
    true_ground = np.array([[700.0, 300.0]])
    assert from_seen(true_ground, low, high)[0] < 1.0  # the tip 60 mm up lies over the segment


def test_likeliest_offers_first_the_token_nearest_where_the_tip_was_last_seen() -> None:
    near, far = Candidate("N", 0.0, 40.0, 15.0), Candidate("F", 0.0, -150.0, 15.0)
    assert likeliest(np.zeros(2), np.zeros(2), np.zeros(2), [far, near]) == ["N", "F"]


def test_likeliest_offers_first_the_token_the_tip_was_heading_for() -> None:
    """Last seen at the origin heading along +x: the token 120 mm on, ahead, before one 60 mm aside."""
    aside, on_the_way = Candidate("S", 0.0, 60.0, 15.0), Candidate("W", 120.0, 0.0, 15.0)
    assert likeliest(np.zeros(2), np.zeros(2), np.zeros(2), [on_the_way, aside]) == ["S", "W"]
    assert likeliest(np.zeros(2), np.zeros(2), np.array([1.0, 0.0]), [aside, on_the_way]) == ["W", "S"]
    behind = Candidate("B", -120.0, 0.0, 15.0)  # where it came from is no place it was heading for
    assert likeliest(np.zeros(2), np.zeros(2), np.array([1.0, 0.0]), [behind, aside]) == ["S", "B"]


def test_a_lost_wand_tells_nobody_whose_it_is() -> None:
    """The way a lost tip was heading is no wand's line: the swap check takes no seat from it."""
    seats = [SeatPlace("Lera", 500.0, -120.0), SeatPlace("Katya", 500.0, 920.0)]
    tip, toward_lera = np.array(_px([500.0, 400.0, 30.0])), np.array(_px([500.0, 250.0, 110.0]))
    assert seat_of(GEO, WandAxis(2, tip, toward_lera, 110.0, "band"), seats) == "Lera"
    assert seat_of(GEO, WandAxis(2, tip, toward_lera, 0.0, LOST), seats) is None

"""A tapped place snaps to the token it lands on: on a rendered table (the renderer the bench uses, its
camera's own projection standing in for a perfect table calibration), a tap 8 px off a token ends on its
centre, a tap on bare table stays where it was, and a token under a hand is never swapped for the hand."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from calibration.token_snap import TOKEN_TOP_MM, snap_tap
from vision.render import draw
from vision.render.camera import RenderCamera
from vision.render.scene import SUPERSAMPLE, Rig, random_rig
from vision.render.setup_shots import empty_table, marker_sheet_view
from vision.render.table import Token

SEED = 3
NO_MARKERS: dict[int, tuple[float, float]] = {}  # the table as the layout step sees it: just the tokens


def picture(rig: Rig, canvas: np.ndarray | None = None) -> np.ndarray:
    """The table as the camera delivers it (scaled down, with its noise and blur)."""
    table = empty_table(rig.camera, rig.layout, SEED) if canvas is None else canvas
    return marker_sheet_view(rig.camera, table, NO_MARKERS, 50.0, "DICT_4X4_50", np.random.default_rng(SEED))


def top(camera: RenderCamera, x_mm: float, y_mm: float) -> np.ndarray:
    return camera.project(np.array([[x_mm, y_mm, TOKEN_TOP_MM]]))[0]


def tap_off(camera: RenderCamera, token: Token, px: float, angle_deg: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """A tap ``px`` pixels off the token's centre as seen, and where its ray meets the tokens' tops (mm)."""
    a = math.radians(angle_deg)
    tap = top(camera, token.x_mm, token.y_mm) + px * np.array([math.cos(a), math.sin(a)])
    return (float(tap[0]), float(tap[1])), to_top(camera, tap)


def to_top(camera: RenderCamera, pixel: np.ndarray) -> tuple[float, float]:
    """The point at a token's height whose picture is ``pixel`` (Newton on the camera's own projection)."""
    guess = np.array([500.0, 400.0])
    for _ in range(20):
        at = top(camera, *guess)
        step = 1e-3
        jacobian = np.c_[top(camera, guess[0] + step, guess[1]) - at, top(camera, guess[0], guess[1] + step) - at] / step
        guess = guess + np.linalg.solve(jacobian, pixel - at)
    return float(guess[0]), float(guess[1])


@pytest.fixture(scope="module")
def rig() -> Rig:
    return random_rig(np.random.default_rng(SEED))


def test_a_tap_8_px_off_lands_on_the_token_centre(rig: Rig) -> None:
    image = picture(rig)
    to_pixels = rig.camera.project
    for token, angle in zip(rig.layout.tokens[:6], (0, 60, 120, 180, 240, 300)):
        tap, at = tap_off(rig.camera, token, 8.0, angle)
        snap = snap_tap(image, tap, token.radius_mm, at, to_pixels)
        centre = top(rig.camera, token.x_mm, token.y_mm)
        assert snap.snapped, token.id
        assert math.dist(snap.pixel, centre) <= 1.5, (token.id, snap.pixel, centre)
        assert snap.moved_px > 6.0


def test_a_token_coloured_like_the_table_still_shows_its_rim(rig: Rig) -> None:
    wood = (70, 110, 150)  # the renderer's table colour
    tokens = tuple(replace(t, colour=wood, mark=wood) for t in rig.layout.tokens)
    plain = Rig(rig.camera, rig.paints, replace(rig.layout, tokens=tokens))
    image = picture(plain)
    token = tokens[4]
    tap, at = tap_off(rig.camera, token, 8.0, 200)
    snap = snap_tap(image, tap, token.radius_mm, at, rig.camera.project)
    assert snap.snapped
    assert math.dist(snap.pixel, top(rig.camera, token.x_mm, token.y_mm)) <= 1.5


def test_a_tap_on_bare_table_is_kept_as_it_was(rig: Rig) -> None:
    image = picture(rig)
    xs = np.array([t.x_mm for t in rig.layout.tokens])
    ys = np.array([t.y_mm for t in rig.layout.tokens])
    # The bare table spot farthest from every token, away from the table's edges.
    grid = [(x, y) for x in range(250, 760, 10) for y in range(200, 620, 10)]
    bare = max(grid, key=lambda p: float(np.min(np.hypot(xs - p[0], ys - p[1]))))
    assert float(np.min(np.hypot(xs - bare[0], ys - bare[1]))) > 3 * rig.layout.tokens[0].radius_mm
    tap = tuple(float(v) for v in top(rig.camera, *bare))
    snap = snap_tap(image, (tap[0], tap[1]), rig.layout.tokens[0].radius_mm, bare, rig.camera.project)
    assert not snap.snapped
    assert snap.pixel == snap.tap


def test_a_token_under_a_hand_is_not_snapped_to_the_hand(rig: Rig) -> None:
    token = rig.layout.tokens[2]
    canvas = empty_table(rig.camera, rig.layout, SEED).copy()
    hi = rig.camera.scaled(SUPERSAMPLE)
    # A fist resting over most of the token, its forearm reaching back off the table's edge.
    fist = np.array([token.x_mm + 6.0, token.y_mm + 4.0, 30.0])
    elbow = fist + np.array([60.0, 250.0, 120.0])
    skin = (120, 150, 200)
    pieces = [draw.capsule(hi, fist, elbow, 24.0, 34.0, skin), draw.sphere(hi, fist, 28.0, skin)]
    draw.paint(hi, canvas, np.zeros(canvas.shape[:2], np.uint8), pieces)
    image = picture(rig, canvas)
    centre = top(rig.camera, token.x_mm, token.y_mm)
    for angle in (30, 150, 270):
        tap, at = tap_off(rig.camera, token, 5.0, angle)
        snap = snap_tap(image, tap, token.radius_mm, at, rig.camera.project)
        # Either the token's centre, from the part of its rim still seen, or the tap kept: never the hand.
        if snap.snapped:
            assert math.dist(snap.pixel, centre) <= 2.0, (angle, snap)
        else:
            assert snap.pixel == tap

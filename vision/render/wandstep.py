"""Rendered pictures for the wand step of calibration: the players rest their wands' tip beads on the
table in view of the camera; also the table alone, as it looked just before."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from vision.render.camera import RenderCamera
from vision.render.people import Gesture, WandPose, seats
from vision.render.scene import Paint, Scene, random_camera, random_paints
from vision.render.table import Layout, Token, incantibus_layout


@dataclass(frozen=True)
class WandStepShot:
    """``frames``: (H,W,3) BGR pictures of the wands resting; ``tips``: per frame the tip pixels by
    strength (what a person tapping on the preview would give, roughly); ``table``: the table alone."""

    camera: RenderCamera
    frames: list[np.ndarray]
    tips: list[dict[int, tuple[float, float]]]
    table: np.ndarray
    paints: dict[int, Paint]


def resting_pose(rng: np.random.Generator, shoulder: np.ndarray, facing: np.ndarray, bead_mm: float) -> WandPose:
    """A wand whose tip bead rests on the table 250-380 mm in front of the player, the wand raised
    30-60 degrees towards the player."""
    ahead = shoulder[:2] + facing * rng.uniform(250, 380) + np.array([facing[1], -facing[0]]) * rng.uniform(-120, 120)
    az = math.atan2(facing[1], facing[0]) + rng.normal(0, 0.3)
    el = math.radians(rng.uniform(30, 60))
    d = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])
    return WandPose(np.array([ahead[0], ahead[1], bead_mm]), d)


def wand_step_frames(seed: int, camera: RenderCamera | None = None, paints: dict[int, Paint] | None = None,
                     layout: Layout | None = None, lookalike_for: int | None = None, count: int = 4) -> WandStepShot:
    """``count`` frames of the four wands resting on the table (each frame moves them a little);
    ``lookalike_for``: one token painted nearly that wand's colour."""
    rng = np.random.default_rng(seed)
    camera = camera or random_camera(rng)
    paints = paints or random_paints(rng)
    layout = layout or incantibus_layout(rng)
    if lookalike_for is not None:
        t = layout.tokens[0]
        like = replace(paints[lookalike_for], hue=paints[lookalike_for].hue + 2).bgr()
        layout = replace(layout, tokens=(Token(t.id, t.kind, t.x_mm, t.y_mm, t.radius_mm, like, like),) + layout.tokens[1:])
    people = seats(rng, 4)
    table = Scene(seed, camera, layout, {}, {}, frames=1, paints=paints).render(0)[0].image
    frames, tips = [], []
    for i in range(count):
        gestures = {k: Gesture(p, [p], [None], [(-1.0, -0.5)], 0.5)
                    for k, p in ((k, resting_pose(rng, people[k - 1].shoulder, people[k - 1].facing,
                                                  paints[k].bead_radius_mm)) for k in paints)}
        # The same seed draws the same table (its grain and satchels); the frame index changes the noise.
        scene = Scene(seed, camera, layout, {k: people[k - 1] for k in paints}, gestures, frames=count,
                      paints=paints)
        frame, truth = scene.render(i + 1)
        frames.append(frame.image)
        tips.append({k: (float(w.tip_px[0] + rng.normal(0, 2)), float(w.tip_px[1] + rng.normal(0, 2)))
                     for k, w in truth.wands.items() if w.tip_visible > 0.8})
    return WandStepShot(camera, frames, tips, table, paints)

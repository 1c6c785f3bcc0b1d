"""Rendered castings behind the camera seam (``vision.frames.FrameSource``).

Spec: ``render:KIND[:hard][:SEED][:COUNT]``, KIND ``hover`` or ``distance``; COUNT castings are played
one after another, each starting with its cue. The source also says, for the frame last read, which
scene it came from, so tools can use the scene's calibration, legal targets and cue time.
"""
from __future__ import annotations

import numpy as np

from vision.frames import Frame
from vision.profile import Place, Profile, TablePlaces
from vision.render.scene import FPS, Rig, Scene, make_scene, random_rig


class BadRenderSpec(ValueError):
    """A ``render:...`` source description that cannot be read."""


class RenderedSource:
    """Castings of one kind on one table, played back to back at 30 frames/s."""

    def __init__(self, kind: str = "hover", seed: int = 1, hard: bool = False, castings: int = 3,
                 rig: Rig | None = None) -> None:
        self.kind, self.seed, self.hard, self.castings = kind, seed, hard, castings
        self.rig = rig or random_rig(np.random.default_rng(seed))
        self.scene: Scene | None = None
        self.cue_at = 0.0
        self._number = -1
        self._frame = 0
        self._index = 0
        self._closed = False

    def read(self) -> Frame | None:
        """The next frame; None after the last casting or once closed."""
        if self._closed:
            return None
        scene = self.scene
        if scene is None or self._frame >= scene.frames:
            if self._number + 1 >= self.castings:
                return None
            scene = self._next_scene()
        frame, _ = scene.render(self._frame)
        self._frame += 1
        self._index += 1
        return Frame(frame.image, self.cue_at + frame.t, self._index - 1)

    def _next_scene(self) -> Scene:
        self._number += 1
        start = self.cue_at + (self.scene.frames / FPS if self.scene else 0.0)
        # A stand-in camera for the watch tool, recordings and their tests: castings whose tips show (the
        # bench measures castings as drawn, hidden tips and all).
        self.scene = scene = make_scene(self.seed + self._number, self.kind, self.hard, motion=True, reaim=0.3, rig=self.rig,
                                        tips_in_view=True)
        self.cue_at = start
        self._frame = 0
        return scene

    def close(self) -> None:
        self._closed = True

    def profile(self) -> Profile:
        """What a perfect calibration of this table would have written (camera, table, paints)."""
        return self.rig.camera.calibration().with_parts(
            wands={str(k): p.model().model_dump() for k, p in self.rig.paints.items()})

    def places(self) -> TablePlaces:
        """Where the tokens of this table lie, as the layout step would have written it."""
        return TablePlaces(game="incantibus", places={t.id: Place(x_mm=t.x_mm, y_mm=t.y_mm, radius_mm=t.radius_mm)
                                                     for t in self.rig.layout.tokens})


def open_rendered(spec: str) -> RenderedSource:
    """A RenderedSource from ``render:KIND[:hard][:SEED][:COUNT]``."""
    parts = spec.split(":")
    if parts[0] != "render" or len(parts) < 2 or parts[1] not in ("hover", "distance"):
        raise BadRenderSpec(f"rendered source {spec!r} must look like 'render:hover' or 'render:distance:hard:7'")
    hard = "hard" in parts[2:]
    numbers = [p for p in parts[2:] if p != "hard"]
    if not all(p.isdigit() for p in numbers) or len(numbers) > 2:
        raise BadRenderSpec(f"rendered source {spec!r}: after the kind come 'hard', a seed and a count, all optional")
    seed = int(numbers[0]) if numbers else 1
    count = int(numbers[1]) if len(numbers) > 1 else 3
    return RenderedSource(parts[1], seed, hard, count)

"""The deciding moment kept for the table's question: the frame the casting was decided on, each
wand's tip where it was last seen, and each candidate's disc in that picture."""
from __future__ import annotations

import numpy as np

from vision.frames import Frame
from vision.moment import moment
from vision.pipeline import Pipeline, read_casting
from vision.render.scene import make_scene
from vision.render.source import RenderedSource
from vision.moment import read_casting_at
from vision.targets import candidates_from


def test_a_wand_hidden_at_the_moment_is_placed_where_it_was_last_seen(config) -> None:
    scene = make_scene(22, "hover")
    pipeline = Pipeline(scene.calibration, config)
    seen, truth = scene.render(scene.frames - 1)
    bare = Frame(np.full_like(seen.image, 128), seen.t + 0.1, seen.index + 1)  # every wand gone from view
    kept = moment(pipeline, [seen, bare], [1, 2, 3, 4], scene.candidates)
    assert kept.image is bare.image and kept.t == bare.t
    for k, pose in scene.gestures.items():
        tip = scene.camera.project(pose.aims[-1].tip[None])[0]
        assert np.linalg.norm(np.array(kept.tips_px[k]) - tip) < 12, (k, kept.tips_px[k], tip)
    assert moment(pipeline, [bare], [1, 2, 3, 4], scene.candidates).tips_px == {}  # never seen: no place
    for c in candidates_from(scene.candidates):  # each candidate's disc where the camera sees the token
        x, y, r = kept.places_px[c.id]
        centre = scene.camera.project(np.array([[c.x_mm, c.y_mm, 0.0]]))[0]
        assert np.hypot(x - centre[0], y - centre[1]) < 1 and 0.5 * r < c.radius_mm * pipeline.geo.px_per_mm() < 2 * r
    assert truth is not None


def test_the_moment_comes_with_the_same_reading(config) -> None:
    """Keeping the moment changes nothing of the reading itself."""
    def source() -> RenderedSource:
        s = RenderedSource("hover", seed=24, castings=1)
        s.read()
        return s
    plain, kept = source(), source()
    scene = plain.scene
    result = read_casting(Pipeline(scene.calibration, config), plain, plain.cue_at, list(scene.gestures), scene.candidates)
    read = read_casting_at(Pipeline(scene.calibration, config), kept, kept.cue_at, list(scene.gestures), scene.candidates)
    assert result is not None and read is not None
    assert read[0].as_dicts() == result.as_dicts() and read[1].t == read[0].decided_at

"""The deciding moment: the camera's picture when a casting was decided, where each wand's tip was
last seen, and where each candidate token lies in that picture, so the table can be shown what the
camera saw of a wand it could not read.

It reads the casting exactly as ``read_casting`` does (the frames pass through unchanged); it only
keeps the last few frames on the way.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.decide import TARGET, CastingResult, CastingWatch
from vision.frames import Frame, FrameSource, Passing
from vision.pipeline import Pipeline, read_casting
from vision.targets import Candidate, candidates_from
from vision.touch import TipSwitches

KEPT = 30  # frames looked back through for a wand hidden at the deciding moment (1 s at 30 fps)
STRIDE = 6  # ... every sixth of them: a wand's last place a fifth of a second apart is as good, at a sixth of the cost


@dataclass(frozen=True)
class Moment:
    """``image``: the frame the casting was decided on (BGR). ``tips_px``: each asked-about wand's tip
    where it was last seen (a wand not seen in the last second is absent). ``places_px``: each candidate's disc in the picture, as
    (x, y, radius) in pixels."""

    image: np.ndarray
    t: float
    tips_px: Mapping[int, tuple[float, float]]
    places_px: Mapping[str, tuple[float, float, float]]


def read_casting_at(pipeline: Pipeline, source: FrameSource, cue_at: float, wands: Sequence[int],
                    candidates: Iterable[Candidate | Mapping[str, Any]],
                    tips: TipSwitches | None = None, watch: CastingWatch | None = None
                    ) -> tuple[CastingResult, Moment] | None:
    """``read_casting``'s result, with the moment it was decided (the tips of the wands it could not
    read); None if the source ends first. ``watch``: as for ``read_casting``."""
    chosen = candidates_from(candidates)
    kept: deque[Frame] = deque(maxlen=KEPT)  # the last frames handed on, for a wand hidden at the end
    result = read_casting(pipeline, Passing(source, kept.append), cue_at, wands, chosen, tips=tips, watch=watch)
    if result is None or not kept:
        return None
    # Only a wand the table will be asked about needs its place in the picture: a sure casting costs nothing more.
    unsure = [k for k, w in result.wands.items() if w.status != TARGET]
    return result, moment(pipeline, list(kept), unsure, chosen)


def moment(pipeline: Pipeline, frames: Sequence[Frame], wands: Iterable[int],
           candidates: Iterable[Candidate | Mapping[str, Any]]) -> Moment:
    """The last of ``frames`` as the moment; each wand's tip from the newest frame that shows it."""
    candidates = candidates_from(candidates)
    last = frames[-1]
    tips: dict[int, tuple[float, float]] = {}
    wanted = set(wands)
    newest = list(reversed(frames))
    looked = newest[::STRIDE] + ([newest[-1]] if (len(newest) - 1) % STRIDE else [])  # and the oldest kept
    for frame in looked if wanted else ():  # newest first; most castings end with every wand in the last frame
        seen = pipeline.find(frame.image)
        for k in wanted - set(tips):
            if k in seen:
                tips[k] = (float(seen[k].tip_px[0]), float(seen[k].tip_px[1]))
        if wanted <= set(tips):
            break
    places: dict[str, tuple[float, float, float]] = {}
    if candidates:
        on_table = np.array([[c.x_mm, c.y_mm, 0.0] for c in candidates])
        centres = pipeline.geo.project(on_table)
        per_mm = pipeline.geo.bead_radius_px(on_table, 1.0)  # a flat disc off the axis grows as a bead does, near enough
        places = {c.id: (float(x), float(y), float(c.radius_mm * s)) for c, (x, y), s in zip(candidates, centres, per_mm)}
    return Moment(last.image, last.t, tips, places)

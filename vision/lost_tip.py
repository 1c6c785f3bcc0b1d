"""A wand lost under a fist: asked as hidden, the token it was heading for offered first.

Seen from above, a wand's tip, band and grip lie in that order along its line, so a fist that comes down
over the tip covers the band too: with a steep wand in the table card's pose nothing of the wand's colour
is left in view, and ``vision.hidden_tip`` (which needs the band) cannot place it. Such a wand used to be
"missing", as if it had never come to the table. But it came in to its token in view: on the development
tables 33 of 34 such wands had their tip seen with its band in the frames before the fist closed over
it, 9-17 frames before the casting was decided (``docs/wand-markers.md``).

Where it was last seen does not say where it rests: the fist closes over the tip while it still moves
(the last sighting lay a median 4-12 cm, up to 22 cm, from where the tip came to rest), and a hand can
carry it on under the fist. Nor does "something lies over it now" pin it down: an arm lying still over
the table since before the cue is, to the camera, the table. So the wand is never read from it, only
asked ("hidden"), whatever its switch says; the tokens are offered nearest first to where the tip was
heading: a reach runs nearly straight to its target, so the token lies near the line from the tip's
sighting before the last through the last, on or past it. A tip held up lies nearer the camera's foot
than where its line of sight meets the table, so "where it was last seen" is every table point under
that line of sight, from a resting tip's height up to ``LAST_SEEN_HEIGHT_MM``.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.axis import WandAxis
from vision.decide import LOST
from vision.table_geometry import TableGeometry
from vision.targets import Candidate

__all__ = ["LAST_SEEN_HEIGHT_MM", "lost_axis", "seen_segment", "from_seen", "ahead", "likeliest"]

# A tip seen coming in may be anywhere on its line of sight, from resting to a wand held as high as a
# wand is ever read (``pointing.max_height_mm``).
LAST_SEEN_HEIGHT_MM = 150.0


def lost_axis(strength: int, seen_px: np.ndarray, came_from_px: np.ndarray) -> WandAxis:
    """The axis of a wand nothing of which is seen: ``tip_px`` (2,) where its tip was last seen whole,
    ``back_px`` (2,) where it was seen the time before (the way it was heading), no bead measured, no line
    (``back_from_tip_mm`` 0), its source ``LOST``."""
    return WandAxis(strength, seen_px, came_from_px, 0.0, LOST, 0.0, None)


def seen_segment(geo: TableGeometry, seen_px: np.ndarray, rest_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """(2,), (2,) table points (mm) below a tip seen at ``seen_px`` (2,) resting (``rest_mm``, its centre's
    height) and held ``LAST_SEEN_HEIGHT_MM`` up."""
    low = geo.on_plane(seen_px[None], rest_mm)[0, :2]
    high = geo.on_plane(seen_px[None], max(LAST_SEEN_HEIGHT_MM, rest_mm))[0, :2]
    return low, high


def from_seen(ground: np.ndarray, seen_low: np.ndarray, seen_high: np.ndarray) -> np.ndarray:
    """(N,) mm from each of ``ground`` (N,2) to the segment from ``seen_low`` to ``seen_high`` (2,)."""
    d = seen_high - seen_low
    length2 = float(d @ d)
    t = np.zeros(len(ground)) if length2 <= 0 else np.clip((ground - seen_low[None]) @ d / length2, 0.0, 1.0)
    return np.asarray(np.linalg.norm(ground - (seen_low[None] + t[:, None] * d[None]), axis=1))


def ahead(ground: np.ndarray, seen_low: np.ndarray, heading: np.ndarray) -> np.ndarray:
    """(N,) mm from each of ``ground`` (N,2) to the half-line from ``seen_low`` (2,) along ``heading`` (2,):
    where a reach seen heading that way goes on to (no heading: the distance to ``seen_low``)."""
    length = float(np.linalg.norm(heading))
    if length <= 0:
        return np.asarray(np.linalg.norm(ground - seen_low[None], axis=1))
    u = heading / length
    t = np.maximum((ground - seen_low[None]) @ u, 0.0)
    return np.asarray(np.linalg.norm(ground - (seen_low[None] + t[:, None] * u[None]), axis=1))


def likeliest(seen_low: np.ndarray, seen_high: np.ndarray, heading: np.ndarray,
              candidates: Sequence[Candidate]) -> list[str]:
    """The ids of ``candidates``, nearest first (from their rims) to where a lost tip was last seen (below
    the segment from ``seen_low`` to ``seen_high``) or to where it was heading (``heading`` (2,) on the
    table, from its sighting before)."""
    if not candidates:
        return []
    centres = np.array([[c.x_mm, c.y_mm] for c in candidates])
    radii = np.array([c.radius_mm for c in candidates])
    near = np.minimum(from_seen(centres, seen_low, seen_high), ahead(centres, seen_low, heading)) - radii
    return [candidates[int(i)].id for i in np.argsort(near, kind="stable")]

"""Where a tip hidden under a fist can be: placed from what is seen of the rest of its wand.

With the table card's pose (the tip resting on the token, the wand leaning back toward its player, the
hand 215 mm behind the tip) about one tip in ten is hidden from the overhead camera by its own fist or
another player's. Its band usually still shows, threaded on the dark shaft. The band lies
``band_from_tip_mm`` back along the wand from the tip's centre, and a tip whose switch is closed rests
on a token, its centre a bead's radius (and a token's thickness) above the table. So the tip's centre
lies on the table-height plane, on the shaft's line in the image, exactly ``band_from_tip_mm`` from some
point of the band's ray; every wand angle the pose allows gives one such place. Places where the bead
would lie on table still in plain view are not possible (the camera would see it there). What is left
is the tip's uncertainty; the wand is read only when exactly one token lies within it and no other
token is near (``vision.under_tip.over_any``), else asked.

Never a patch of the wand's colour elsewhere: the band must be threaded on a shaft (dark on both of
its sides, as a tip bead never is), it must be the only band-sized patch of the wand's colour, and the
tip is looked for only within a wand's length of it.
"""
from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.axis import WandAxis
from vision.markers import BAND_MIN_AREA, Blob, TableView
from vision.table_geometry import TableGeometry

__all__ = ["band_alone", "shaft_line", "tip_places", "covered", "fist_allows", "shaft_seen", "shaft_allows",
           "shaft_joins", "placed_axis", "is_placed"]

# The table card's pose leans the wand back 20-75 degrees; a hand's own slant adds a few degrees either
# side. Flatter than 15 degrees the fist would lie on the table; steeper than 80 is the upright pose,
# whose fist sits over the tip and whose band hides under it too.
ELEVATION_DEG = (15.0, 80.0)
# The shaft's angle is found in 3-degree steps and a thin shaft of 9 mm blurs over 2-3 pixels: its line
# may be off by up to one step, which at a band's 110 mm moves the tip ~6 mm sideways.
LINE_WOBBLE_DEG = 3.0
# A band is 0.5-0.65 of its bead's radius (BAND_MIN_AREA: a quarter of its area) and sits 25-110 mm
# above a resting bead, up to 12 % nearer a camera 1 m up: at most about 0.55 of a resting bead's area,
# with the blur of a small bead's rim a little more.
BAND_MAX_AREA = 0.7
# Where people grip a wand: the table card's pose holds it a hand's length (215 mm) behind the tip, but
# hands slide along it, from a short grip just behind the band to the wand's end (250 mm, less the
# fist's own half-width). Tried in 20 mm steps: a fist is far broader than that.
GRIP_FROM_TIP_MM = (120.0, 240.0)
GRIP_STEP_MM = 20.0
# The smallest fist around a shaft (a child's: a hand 50 mm across): its middle is surely this far from
# the table in every direction from the grip, so the picture cannot show bare table there.
FIST_RADIUS_MM = 25.0
# A fist can be the table's own colour (skin over a wooden table differs by less than
# ``markers.static_diff``), but never looks *exactly* as the table did: its shading and the table's grain
# differ by more than a still table's sensor noise and JPEG (a few grey levels). Where more light, noise
# or blur than that changes the bare table too, the test only lets more places through.
FIST_DIFF = 8.0
# The shaft (9 mm, ~5 px across at the table) is looked for within this many pixels either side of the
# line (the line may be off by a step, ``LINE_WOBBLE_DEG``, and blur spreads it), and compared with the
# table this far out on both sides: beyond its own half-width and the wobble.
SHAFT_ACROSS_PX, SHAFT_SIDE_PX = 2, 7
# A run of the shaft survives this many pixels that are not dark (noise, a printed mark under it).
SHAFT_GAP_PX = 2
# A bead counts as hidden at a place when at most a fifth of its disc there looks as the table did:
# fewer visible pixels than that are too few for the wand stage to find a bead, more would be seen.
VISIBLE_AT_MOST = 0.2


def band_alone(blobs: Sequence[Blob], resting_areas_px: np.ndarray, min_roundness: float) -> Blob | None:
    """The one round, band-sized patch among a wand's patches (``resting_areas_px`` (N,): a resting tip
    bead's area where each lies), or None when there is none or more than one (then which is the band
    cannot be told, and a token of the wand's colour must never stand in for it)."""
    bands = [b for b, rest in zip(blobs, resting_areas_px)
             if BAND_MIN_AREA * rest <= b.area <= BAND_MAX_AREA * rest and b.fill >= min_roundness]
    return bands[0] if len(bands) == 1 else None


def shaft_line(image_bgr: np.ndarray, centre_px: np.ndarray, radius_px: float, contrast: float) -> np.ndarray | None:
    """(2,) unit image direction of a dark shaft running through the patch at ``centre_px`` (2,), or None:
    thin (the directions 25 degrees off are not dark) and dark along one side for a few radii, and on
    the opposite side at least just past the patch (a sleeve or a fist may lie over the shaft beyond).
    A tip bead ends its shaft, nothing dark leaves it on the far side, so only a band (threaded on the
    shaft) passes; the direction says the wand's line, whichever side its tip is on."""
    step = 3.0
    angles = np.radians(np.arange(0, 360, step))
    radii = 1.3 * radius_px + np.linspace(1.0, max(8.0, 2.0 * radius_px), 6)
    xs = centre_px[0] + np.cos(angles)[:, None] * radii[None, :]
    ys = centre_px[1] + np.sin(angles)[:, None] * radii[None, :]
    height, width = image_bgr.shape[:2]
    if xs.min() < 0 or ys.min() < 0 or xs.max() > width - 1 or ys.max() > height - 1:
        return None
    grey = image_bgr[np.round(ys).astype(int), np.round(xs).astype(int)].astype(np.float32).mean(axis=2)
    darker = np.median(grey, axis=0)[None, :] - grey  # (angles, radii): darker than its ring
    side, half = int(round(25 / step)), len(angles) // 2
    long, short = _thin(darker.min(axis=1), side), _thin(darker[:, :2].min(axis=1), side)
    both = np.maximum(np.minimum(long, np.roll(short, half)), np.minimum(short, np.roll(long, half)))
    best = int(np.argmax(both))
    if both[best] < contrast:
        return None
    a = angles[best]
    return np.array([np.cos(a), np.sin(a)])


def _thin(dark: np.ndarray, side: int) -> np.ndarray:
    """(A,) how dark each direction is, less its neighbours ``side`` steps either way: a thin stick."""
    return np.minimum(dark, dark - np.maximum(np.roll(dark, side), np.roll(dark, -side)))


def tip_places(geo: TableGeometry, band_px: np.ndarray, line: np.ndarray, band_from_tip_mm: float,
               rest_mm: float) -> np.ndarray:
    """(K,2) image points where the tip's centre can be: on the shaft's ``line`` (2,) through
    ``band_px`` (2,), either way, at the height of a bead resting on a token (``rest_mm``), and
    ``band_from_tip_mm`` from a point of the band's ray that makes the wand's elevation one the pose
    allows (``ELEVATION_DEG``). The line is tried a little turned either way (``LINE_WOBBLE_DEG``)."""
    reach = 2.0 * band_from_tip_mm * geo.px_per_mm(band_from_tip_mm)  # the band seen nearer the camera
    steps = np.arange(1.0, reach, 1.0)
    turns = np.radians([-LINE_WOBBLE_DEG, 0.0, LINE_WOBBLE_DEG])
    directions = np.concatenate([_turned(line, turns), _turned(-line, turns)])
    pixels = (band_px[None, None, :] + directions[:, None, :] * steps[None, :, None]).reshape(-1, 2)
    return pixels[_wand_fits(geo, band_px, geo.on_plane(pixels, rest_mm), band_from_tip_mm, rest_mm)]


def _turned(u: np.ndarray, turns: np.ndarray) -> np.ndarray:
    c, s = np.cos(turns), np.sin(turns)
    return np.stack([c * u[0] - s * u[1], s * u[0] + c * u[1]], axis=1)


def _wand_fits(geo: TableGeometry, band_px: np.ndarray, tips: np.ndarray, length_mm: float,
               rest_mm: float) -> np.ndarray:
    """(N,) bool: a point of the band's ray lies ``length_mm`` from each tip (N,3) above it, at an
    allowed elevation (``wand_ups``)."""
    return np.asarray((~np.isnan(wand_ups(geo, band_px, tips, length_mm, rest_mm)).any(axis=2)).any(axis=1))


def wand_ups(geo: TableGeometry, band_px: np.ndarray, tips: np.ndarray, length_mm: float,
             rest_mm: float) -> np.ndarray:
    """(N,2,3) unit directions from each tip (N,3) up the wand to a point of the band's ray
    ``length_mm`` from it at an allowed elevation (``ELEVATION_DEG``); NaN where none. The ray C + t·d
    meets the sphere |X - tip| = length twice at most, where
    |d|²t² + 2t d·(C - tip) + |C - tip|² - length² = 0: each meeting is one wand."""
    d = geo.rays(band_px[None])[0]
    c = geo.centre
    off = c[None, :] - tips
    a, b, k = float(d @ d), 2.0 * off @ d, (off * off).sum(axis=1) - length_mm ** 2
    disc = b * b - 4 * a * k
    root = np.sqrt(np.maximum(disc, 0.0))
    lo, hi = np.sin(np.radians(ELEVATION_DEG)) * length_mm
    ups = np.full((len(tips), 2, 3), np.nan)
    for i, t in enumerate(((-b - root) / (2 * a), (-b + root) / (2 * a))):
        rise = c[2] + t * d[2] - rest_mm  # the band's height above the tip's centre
        fits = (disc >= 0) & (t > 0) & (rise >= lo) & (rise <= hi)
        band = c[None, :] + t[:, None] * d[None, :]
        ups[fits, i] = (band[fits] - tips[fits]) / length_mm
    return ups


def covered(table: TableView, image_bgr: np.ndarray, places_px: np.ndarray, radii_px: np.ndarray,
            static_diff: float) -> np.ndarray:
    """(K,) bool: a bead of ``radii_px`` (K,) centred at each of ``places_px`` (K,2) would be hidden there:
    at most ``VISIBLE_AT_MOST`` of its disc looks as the table did before the cue (something lies over
    the rest: a fist, an arm, another wand)."""
    if not len(places_px):
        return np.zeros(0, bool)
    height, width = image_bgr.shape[:2]
    r = float(radii_px.max())
    x0, y0 = np.maximum(np.floor(places_px.min(axis=0) - r - 1), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(places_px.max(axis=0) + r + 2), [width, height]).astype(int)
    if x1 <= x0 or y1 <= y0:
        return np.zeros(len(places_px), bool)
    bare = table.unchanged(image_bgr, (slice(y0, y1), slice(x0, x1)), static_diff).astype(np.float32)
    # The share of bare table within each bead's disc: a box mean over the disc's square is near enough
    # for a bead of a few pixels, and one integral image serves every place.
    summed = cv2.integral(bare)
    half = np.maximum(np.round(0.8 * radii_px).astype(int), 1)
    cx = np.clip(np.round(places_px[:, 0]).astype(int) - x0, 0, x1 - x0 - 1)
    cy = np.clip(np.round(places_px[:, 1]).astype(int) - y0, 0, y1 - y0 - 1)
    ax, bx = np.clip(cx - half, 0, x1 - x0), np.clip(cx + half + 1, 0, x1 - x0)
    ay, by = np.clip(cy - half, 0, y1 - y0), np.clip(cy + half + 1, 0, y1 - y0)
    total = summed[by, bx] - summed[ay, bx] - summed[by, ax] + summed[ay, ax]
    area = np.maximum((bx - ax) * (by - ay), 1)
    return np.asarray(total / area <= VISIBLE_AT_MOST)


def fist_allows(geo: TableGeometry, table: TableView, image_bgr: np.ndarray, band_px: np.ndarray,
                places_px: np.ndarray, band_from_tip_mm: float, rest_mm: float) -> np.ndarray:
    """(K,) bool: a tip centred at each of ``places_px`` (K,2), resting (``rest_mm`` up), with its band on
    the band's ray, puts the wand's grip somewhere the picture shows something over the table (a fist,
    an arm: not bare table as before the cue, ``FIST_DIFF``) for some grip the hand may take (``GRIP_FROM_TIP_MM``).
    Each place fixes the wand's lean, and so where its fist must be: seen from above, a place too far
    from the band puts the fist over bare table short of the real one; one on the wrong side of the band
    puts it out where no hand is. The fist is projected with the calibrated camera, so one held high is
    drawn as near the camera draws it (further out, and larger)."""
    if not len(places_px):
        return np.zeros(0, bool)
    tips = geo.on_plane(places_px, rest_mm)
    ups = wand_ups(geo, band_px, tips, band_from_tip_mm, rest_mm)  # (K,2,3)
    grips_mm = np.arange(GRIP_FROM_TIP_MM[0], GRIP_FROM_TIP_MM[1] + 1e-6, GRIP_STEP_MM)
    grips = tips[:, None, None, :] + ups[:, :, None, :] * grips_mm[None, None, :, None]  # (K,2,G,3)
    flat = grips.reshape(-1, 3)
    real = ~np.isnan(flat).any(axis=1)
    height, width = image_bgr.shape[:2]
    over = np.zeros(len(flat), bool)
    if real.any():
        px = geo.project(flat[real])
        radii = geo.bead_radius_px(flat[real], FIST_RADIUS_MM)
        inside = (px >= 0).all(axis=1) & (px[:, 0] < width) & (px[:, 1] < height)
        seen = np.ones(len(px), bool)  # a fist out of the picture may be anywhere there
        if inside.any():
            seen[inside] = covered(table, image_bgr, px[inside], radii[inside], FIST_DIFF)
        over[real] = seen
    return np.asarray(over.reshape(len(places_px), -1).any(axis=1))


def shaft_start(band_radius_px: float) -> float:
    """How far (px) from a band's centre the shaft is first looked for: just past the band's rim (a band
    found a little small, and a pixel of blur)."""
    return 1.3 * band_radius_px + 1.0


def shaft_seen(image_bgr: np.ndarray, band_px: np.ndarray, line: np.ndarray, band_radius_px: float,
               contrast: float, reach_px: float) -> tuple[float, float]:
    """How far (px) from the band the dark shaft is seen running along ``line`` (2,), toward ``+line`` and
    toward ``-line``, up to ``reach_px``: thin and darker by ``contrast`` than the table either side of
    it, without a break of more than ``SHAFT_GAP_PX``. It stops where a fist, an arm or another wand
    lies over it, or at its tip."""
    grey = image_bgr.astype(np.float32).mean(axis=2)
    normal = np.array([-line[1], line[0]])
    steps = np.arange(shaft_start(band_radius_px), reach_px, 1.0)
    across = np.arange(-SHAFT_ACROSS_PX, SHAFT_ACROSS_PX + 1)
    out = []
    for sign in (1.0, -1.0):
        centre = band_px[None, :] + sign * line[None, :] * steps[:, None]  # (S,2)
        shaft = _grey_at(grey, centre, normal, across).min(axis=1)
        sides = _grey_at(grey, centre, normal, np.array([-1.0, 1.0]) * (SHAFT_SIDE_PX + SHAFT_ACROSS_PX))
        dark = sides.min(axis=1) - shaft >= contrast  # NaN (out of the picture) is never dark
        seen, gap = 0.0, 0
        for step, is_dark in zip(steps, dark):
            if is_dark:
                seen, gap = float(step), 0
            elif seen or step > steps[0] + SHAFT_GAP_PX:
                gap += 1
                if gap > SHAFT_GAP_PX:
                    break
        out.append(seen)
    return out[0], out[1]


def _grey_at(grey: np.ndarray, centre: np.ndarray, normal: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """(S,O) grey levels at each of ``centre`` (S,2) moved ``offsets`` (O,) px along ``normal``; NaN
    outside the picture."""
    height, width = grey.shape
    pts = np.round(centre[:, None, :] + offsets[None, :, None] * normal[None, None, :]).astype(int)
    inside = (pts[..., 0] >= 0) & (pts[..., 0] < width) & (pts[..., 1] >= 0) & (pts[..., 1] < height)
    values = grey[np.clip(pts[..., 1], 0, height - 1), np.clip(pts[..., 0], 0, width - 1)]
    return np.where(inside, values, np.nan)


def shaft_allows(geo: TableGeometry, band_px: np.ndarray, line: np.ndarray, places_px: np.ndarray,
                 seen_px: tuple[float, float], band_from_tip_mm: float, rest_mm: float) -> np.ndarray:
    """(K,) bool: a tip centred at each of ``places_px`` (K,2), resting, fits the shaft seen either side of
    the band (``seen_px``: how far it runs toward ``+line`` and ``-line``, ``shaft_seen``). The wand ends
    at its tip, so no shaft is seen past it: the tip lies at least as far from the band as the shaft runs
    on its side. And the shaft runs on from the band to the fist on the other side, so the front of a fist
    gripping at most ``GRIP_FROM_TIP_MM[1]`` behind the tip must lie as far out as the shaft is seen
    there: a steep wand (its tip near the band) cannot show a long run of shaft behind its band."""
    if not len(places_px):
        return np.zeros(0, bool)
    off = places_px - band_px[None, :]
    along = off @ line
    tip_side, grip_side = np.where(along >= 0, seen_px[0], seen_px[1]), np.where(along >= 0, seen_px[1], seen_px[0])
    past_shaft = np.linalg.norm(off, axis=1) >= tip_side - SHAFT_GAP_PX
    tips = geo.on_plane(places_px, rest_mm)
    ups = wand_ups(geo, band_px, tips, band_from_tip_mm, rest_mm)  # (K,2,3)
    # The farthest the shaft can show behind the band: up to the fist's front, at least a small fist's
    # half-width ahead of the farthest grip.
    grips = tips[:, None, :] + ups * (GRIP_FROM_TIP_MM[1] - FIST_RADIUS_MM)
    flat = grips.reshape(-1, 3)
    real = ~np.isnan(flat).any(axis=1)
    reach = np.full(len(flat), -np.inf)
    if real.any():
        reach[real] = np.linalg.norm(geo.project(flat[real]) - band_px[None, :], axis=1)
    return np.asarray(past_shaft & (reach.reshape(len(places_px), 2).max(axis=1) >= grip_side - SHAFT_GAP_PX))


def placed_axis(strength: int, band: Blob, places_px: np.ndarray, band_from_tip_mm: float) -> WandAxis:
    """The wand's axis with its tip placed, not seen: ``spread_px`` every place it can be,
    ``tip_radius_px`` 0 (no bead measured), its band the back point. ``tip_px`` is the band too: it is
    what the camera follows to see the wand settle (the places shift from frame to frame as a fist
    trembles over them, by more than a still wand's tip may)."""
    return WandAxis(strength, band.centre, band.centre, band_from_tip_mm, "band", 0.0, places_px)


def is_placed(axis: WandAxis) -> bool:
    """The axis's tip was placed from its band and shaft (``placed_axis``), in every frame it was
    averaged over: no bead was measured, yet there is a spread of places. A seen tip always has a
    measured bead; a frame that saw it makes the average's radius positive."""
    return axis.tip_radius_px == 0.0 and axis.spread_px is not None and axis.back_px is not None


def shaft_joins(image_bgr: np.ndarray, tip_px: np.ndarray, band_px: np.ndarray, band_radius_px: float,
                bead_radius_px: float, contrast: float, reach_px: float) -> bool:
    """Whether a dark shaft leaves the band at ``band_px`` (2,) on the side away from the tip at ``tip_px``
    (2,) and runs on for at least a bead's radius (``bead_radius_px``) past the band's rim (``shaft_seen``:
    the wand runs on from its band to the fist), or one runs through the band in any direction
    (``shaft_line``: a tip taken a little off its line). A token's dark rim or printed middle beside a
    patch is a pixel or two of dark, never a bead's radius of shaft; toward the tip says nothing (tokens
    in a row look like a shaft there, and a steep wand shows none there)."""
    if shaft_beyond(image_bgr, tip_px, band_px, band_radius_px, bead_radius_px, contrast, reach_px) >= 0:
        return True
    return shaft_line(image_bgr, np.asarray(band_px, float), band_radius_px, contrast) is not None


def shaft_beyond(image_bgr: np.ndarray, tip_px: np.ndarray, band_px: np.ndarray, band_radius_px: float,
                 bead_radius_px: float, contrast: float, reach_px: float) -> float:
    """How far (px) a dark shaft runs on from the band at ``band_px`` (2,), on the side away from the tip
    at ``tip_px`` (2,), beyond a bead's radius past where the shaft is looked for (``shaft_seen``); below
    0: not that far (a token's dark rim or print beside a patch)."""
    off = np.asarray(band_px, float) - np.asarray(tip_px, float)
    gap = float(np.linalg.norm(off))
    line = off / gap if gap > 0 else np.array([1.0, 0.0])
    away, _ = shaft_seen(image_bgr, np.asarray(band_px, float), line, band_radius_px, contrast, reach_px)
    return away - (shaft_start(band_radius_px) + bead_radius_px)

"""Finding the wands by their markers: a fluorescent bead on the tip and a smaller bead of the same
colour (the band) ``band_from_tip_mm`` further back. Each wand's paint model (hue, spread, floors, bead
size) comes from the table's profile, learned by the wand step; the colour says which wand it is.

What the table itself shows is not a wand: with a ``TableView`` (the table as seen just before the cue),
paint-coloured pixels that look as they did then (a token, a card) are left out. A tip is a round patch
of bead size; a patch without its band must be a whole bead.

Works on the raw (distorted) image; positions are undistorted later, as points, which is far cheaper
than undistorting every pixel.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from collections.abc import Callable, Mapping, Sequence

import cv2
import numpy as np

from vision.config import MarkerConfig
from vision.profile import PaintModel

# The table before the cue is the median of its last 5 pictures: a hand passing through shows in fewer
# than half of them.
TABLE_FRAMES = 5
# The light is compared over 40 x 30 cells (16 px, about 28 mm at the table): an arm covers whole
# cells, and the median cell's change of light is the lamp's, not the arm's.
LIGHT_CELLS = (40, 30)


@dataclass(frozen=True)
class Blob:
    """One patch of one wand's colour. ``centre`` (2,) distorted pixels; ``area`` in pixels; ``fill``:
    its share of its bounding box (a disc fills 0.79, a thin streak little)."""

    strength: int
    centre: np.ndarray
    area: float
    fill: float = 0.785
    saturation: float = 255.0  # mean


@dataclass(frozen=True)
class WandSighting:
    """A wand seen in one frame: its tip bead and, if visible, its band (both (2,) distorted pixels).

    ``spread_px`` (K,2), for a tip bead partly hidden: every place its centre could be if it rests on a
    token (``bead_spread``); None for a bead seen whole, or a patch no resting bead explains."""

    strength: int
    tip_px: np.ndarray
    tip_area: float
    band_px: np.ndarray | None
    band_area: float = 0.0
    spread_px: np.ndarray | None = None


class TableView:
    """The table as seen just before the cue: the per-pixel median of a few frames (moving wands and
    hands drop out of it)."""

    def __init__(self, image_bgr: np.ndarray) -> None:
        self.image = image_bgr
        self._thumb = _thumbnail(image_bgr)
        self._classes: np.ndarray | None = None

    def classes(self, paints: Mapping[int, PaintModel], hue_slack: float) -> np.ndarray:
        """(H,W) uint8 each pixel's wand colour as the table showed it (``paint_classes``), worked out
        once: a table view serves one casting, with one set of paints."""
        if self._classes is None:
            self._classes = paint_classes(cv2.cvtColor(self.image, cv2.COLOR_BGR2HSV), paints, hue_slack)
        return self._classes

    @classmethod
    def from_frames(cls, images: Sequence[np.ndarray]) -> TableView:
        """(H,W,3) uint8 BGR frames -> their median as the table."""
        stack = np.stack(list(images)[-TABLE_FRAMES:])
        return cls(np.median(stack, axis=0).astype(np.uint8) if len(stack) > 1 else stack[0])

    def unchanged(self, image_bgr: np.ndarray, box: tuple[slice, slice], diff: float) -> np.ndarray:
        """(h,w) bool: the pixels of ``box`` that look as the table did (within ``diff`` grey levels in
        every channel, at the same light): nothing lies over them now."""
        gain = light_change(self._thumb, _thumbnail(image_bgr)).astype(np.float32)
        now = image_bgr[box].astype(np.float32)
        before = self.image[box].astype(np.float32) * gain
        return np.asarray(np.abs(now - before).max(axis=2) < diff)

    def clear_static(self, image_bgr: np.ndarray, classes: np.ndarray, diff: float) -> None:
        """Set to 0 in ``classes`` (H,W) the pixels of a wand's colour that the table already showed,
        looking the same (within ``diff`` grey levels in every channel). Only coloured pixels are
        compared: they are few."""
        flat = classes.reshape(-1)
        idx = _coloured(classes)
        if idx.size == 0:
            return
        # A lamp switched or a cloud since the cue changes every pixel alike: compare at the same light.
        gain = light_change(self._thumb, _thumbnail(image_bgr))
        now = image_bgr.reshape(-1, 3)[idx].astype(np.float32)
        before = self.image.reshape(-1, 3)[idx].astype(np.float32) * gain.astype(np.float32)
        # Not the table view's own classes: a paint-like token too dim for the floors before the cue is
        # above them once the light rises, and is still the table.
        static = np.abs(now - before).max(axis=1) < diff
        flat[idx[static]] = 0


def _thumbnail(image_bgr: np.ndarray) -> np.ndarray:
    """(1200, 3) float32: the picture as 40x30 cells of its mean colour."""
    return cv2.resize(image_bgr, LIGHT_CELLS, interpolation=cv2.INTER_AREA).reshape(-1, 3).astype(np.float32)


def light_change(before: np.ndarray, now: np.ndarray) -> np.ndarray:
    """(3,) how much brighter each channel is now than before (thumbnails (N,3)): the median over cells
    of each cell's own change. Arms and sleeves reaching in change the cells they cover, not the
    light, so they must not move it: the median of the whole picture shifts when a dark sleeve covers
    a fifth of it (a saturated token then no longer matches itself), the median cell's change does not
    while most of the table stays in view."""
    return np.median((now + 1.0) / (before + 1.0), axis=0)


def paint_classes(hsv: np.ndarray, paints: Mapping[int, PaintModel], hue_slack: float = 0.0) -> np.ndarray:
    """(H,W,3) uint8 HSV -> (H,W) uint8 wand strength of each pixel's paint (0 = none). A hue goes to the
    nearest paint within that paint's tolerance plus ``hue_slack`` (a lamp of another colour shifts
    every hue); then the pixel must clear that paint's saturation and brightness floors."""
    floor_s = min(m.min_saturation for m in paints.values())
    floor_v = min(m.min_value for m in paints.values())
    vivid = cv2.inRange(hsv, (0, int(math.ceil(floor_s)), int(math.ceil(floor_v))), (255, 255, 255))  # type: ignore[call-overload]  # tuple bounds are OpenCV scalars
    classes = cv2.bitwise_and(cv2.LUT(hsv[:, :, 0], hue_table(paints, hue_slack)), vivid)
    # Each paint's own floors, checked only where some paint's colour is: few pixels.
    flat = classes.reshape(-1)
    idx = np.flatnonzero(flat)
    if idx.size:
        sat_floor, val_floor = np.zeros(256), np.zeros(256)
        for k, m in paints.items():
            sat_floor[k], val_floor[k] = m.min_saturation, m.min_value
        strength = flat[idx]
        px = hsv.reshape(-1, 3)[idx]
        flat[idx[(px[:, 1] < sat_floor[strength]) | (px[:, 2] < val_floor[strength])]] = 0
    return classes


def _coloured(classes: np.ndarray) -> np.ndarray:
    return np.flatnonzero(classes.reshape(-1))


def hue_table(paints: Mapping[int, PaintModel], hue_slack: float = 0.0) -> np.ndarray:
    """(256,) uint8 lookup from OpenCV hue (0-179) to the nearest paint's strength, 0 when none is near."""
    hue = np.arange(256, dtype=np.float64)[:, None]
    keys = np.array(list(paints), np.uint8)
    gap = np.abs((hue - np.array([m.hue for m in paints.values()])[None, :] + 90) % 180 - 90)
    reach = np.array([m.hue_tolerance + hue_slack for m in paints.values()])[None, :]
    table = keys[np.argmin(gap / reach, axis=1)]
    table[((gap / reach).min(axis=1) > 1.0) | (hue[:, 0] >= 180)] = 0
    return table.astype(np.uint8)


def _paint_range(hsv: np.ndarray, m: PaintModel) -> np.ndarray:
    """(H,W) uint8 mask of one paint model, across OpenCV's hue wrap-around at 180."""
    lo, hi = m.hue - m.hue_tolerance, m.hue + m.hue_tolerance
    floor = (int(math.ceil(m.min_saturation)), int(math.ceil(m.min_value)))
    mask = cv2.inRange(hsv, (max(lo, 0), *floor), (min(hi, 179), 255, 255))  # type: ignore[call-overload]  # tuple bounds are OpenCV scalars
    if lo < 0:
        mask |= cv2.inRange(hsv, (lo + 180, *floor), (179, 255, 255))  # type: ignore[call-overload]  # tuple bounds are OpenCV scalars
    if hi > 179:
        mask |= cv2.inRange(hsv, (0, *floor), (hi - 180, 255, 255))  # type: ignore[call-overload]  # tuple bounds are OpenCV scalars
    return mask


def marker_blobs(image_bgr: np.ndarray, paints: Mapping[int, PaintModel], cfg: MarkerConfig,
                 table: TableView | None = None) -> list[Blob]:
    """(H,W,3) uint8 BGR -> every patch of one of the wands' paints that the table did not already show.

    One labelling pass over all marker colours; a patch holding two colours (two beads touching) is
    split by colour inside its own box, so each bead stays a blob of its own."""
    return _blobs(*wand_pixels(image_bgr, paints, cfg, table), paints, cfg)


def wand_pixels(image_bgr: np.ndarray, paints: Mapping[int, PaintModel], cfg: MarkerConfig,
                table: TableView | None) -> tuple[np.ndarray, np.ndarray]:
    """(H,W) uint8 each pixel's wand strength (0: none, or the table showed it already) and (H,W,3) HSV."""
    hsv = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV)
    classes = paint_classes(hsv, paints, cfg.hue_slack)
    if table is not None:
        table.clear_static(image_bgr, classes, cfg.static_diff)
    return classes, hsv


def _blobs(classes: np.ndarray, hsv: np.ndarray, paints: Mapping[int, PaintModel], cfg: MarkerConfig) -> list[Blob]:
    n, labels, stats, _ = cv2.connectedComponentsWithStats(classes, connectivity=8)
    out: list[Blob] = []
    for i in np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= cfg.min_area_px) + 1:
        x, y, w, h = stats[i, :4]
        box = (slice(y, y + h), slice(x, x + w))
        out += _split(classes[box], labels[box] == i, hsv[:, :, 1][box], np.array([x, y], np.float64), paints, cfg)
    return out


def _split(classes: np.ndarray, mine: np.ndarray, saturation: np.ndarray, origin: np.ndarray,
           paints: Mapping[int, PaintModel], cfg: MarkerConfig) -> list[Blob]:
    """Blobs of each colour inside one labelled patch (all arrays are the patch's box)."""
    out = []
    for strength in np.unique(classes[mine]):
        part = (mine & (classes == strength)).astype(np.uint8)
        n, labels, stats, centres = cv2.connectedComponentsWithStats(part, connectivity=8)
        floor = paints[int(strength)].min_saturation + cfg.mean_saturation_over_floor
        for j in range(1, n):
            area = float(stats[j, cv2.CC_STAT_AREA])
            # Fluorescent paint is saturated through and through; a noisy fringe of a dull colour is not.
            mean = float(saturation[labels == j].mean()) if area >= cfg.min_area_px else 0.0
            if area >= cfg.min_area_px and mean >= floor:
                fill = area / float(stats[j, cv2.CC_STAT_WIDTH] * stats[j, cv2.CC_STAT_HEIGHT])
                out.append(Blob(int(strength), origin + centres[j], area, fill, mean))
    return out


BAND_MIN_AREA = 0.25  # a band's area is at least this share of its bead's (14 mm to 24 mm, seen alike)

# -- A bead in the picture, in resting bead radii (r) --------------------------------------------------
# An off-axis bead's outline is an ellipse up to ~15 % longer than its equal-area radius.
OUTLINE_STRETCH = 1.15
# What shows of a bead lies within 1.6 r of where its patch was found: the stretched outline and half a
# radius for the centre a partly hidden patch gives; the box looked through reaches a bead's breadth
# past that, so that the table around it is in view too.
PATCH_REACH, BOX_REACH = 1.6, 2.2
# Where the table already showed the wand's colour over a quarter of a bead, a patch there is a token.
TABLE_SHOWED_BEAD = 0.25
# A bead's possible centres are tried on a half-pixel grid: finer than the tip's measure.
SPREAD_STEP_PX = 0.5
# The bead's inner part (0.8 r): what must lie under the hiding thing, never on bare table; its rim
# may (blur and the outline's ellipse).
BEAD_INNER = 0.8
# A bead's outline is measured against the table in a ring 1.8-2.4 r out (clear of the bead's blur,
# near enough to share its light), and the bead's own colour in its middle (0.6 r); a pixel at least
# half bead counts.
RING_INNER, RING_OUTER, BEAD_MIDDLE, HALF_BEAD = 1.8, 2.4, 0.6, 0.5
# A band is never on its bead: at least 2 px apart (a blob split by one pixel of noise is one blob).
BAND_MIN_GAP_PX = 2.0
# Ranking bead candidates by mean saturation (0-255): a bead with its band is worth 40 levels (a lit
# patch of wood is about that less saturated than paint), a patch that could be another bead's band
# loses 80 (more than any paint's saturation spread).
WITH_BAND_RANK, BAND_OF_BIGGER_RANK = 40.0, 80.0
# A band the wand's shaft runs on from, away from the bead, is threaded on that bead's wand: worth more
# than any paint's saturation spread, so a flat token more saturated than the shaded bead loses to it.
THREADED_RANK = 80.0
# The shaft is looked for every 3 degrees on 7 rings from just outside the bead (1.25 r) out 2.5 r
# (at least 10 px: a far bead is small, its shaft still several pixels long); a shaft is thin, so the
# directions 25 degrees to either side are not dark too.
SHAFT_STEP_DEG, SHAFT_FROM, SHAFT_SPAN, SHAFT_MIN_SPAN_PX, SHAFT_RINGS, SHAFT_SIDE_DEG = 3.0, 1.25, 2.5, 10.0, 7, 25
BeadSize = Callable[[np.ndarray, float], np.ndarray]  # (N,2) pixels, bead radius mm -> (N,) radius px
# (bead, band) -> how far (px) the shaft runs on from the band away from the bead, past what a token's rim
# or print can show (0 or less: no shaft)
ShaftOn = Callable[[Blob, Blob], float]


def find_wands(image_bgr: np.ndarray, paints: Mapping[int, PaintModel], cfg: MarkerConfig, bead_px: BeadSize,
               reach_px: float, table: TableView | None = None,
               unpaired: dict[int, list[Blob]] | None = None,
               shaft_on: ShaftOn | None = None) -> dict[int, WandSighting]:
    """(H,W,3) uint8 BGR -> the wands seen, by strength.

    bead_px: how big a bead resting on a token looks at each pixel (from the calibration: a bead off the
    camera's axis looks bigger); reach_px: the farthest the band can appear from the bead. ``unpaired``
    (when given) gets the patches of each wand whose tip was not found: its band may be among them
    (``vision.hidden_tip``). ``shaft_on(tip, band)``: how far the wand's dark shaft runs on from the band
    away from the tip (``_pair``: which of two beads a band is threaded behind)."""
    classes, hsv = wand_pixels(image_bgr, paints, cfg, table)
    blobs = _blobs(classes, hsv, paints, cfg)
    found = {}
    for strength, paint in paints.items():
        mine = [b for b in blobs if b.strength == strength]
        if not mine:
            continue
        radii = bead_px(np.array([b.centre for b in mine]), paint.bead_radius_mm)
        mine = _mend(mine, 2 * float(np.median(radii)))
        radii = bead_px(np.array([b.centre for b in mine]), paint.bead_radius_mm)
        sighting = _pair(strength, mine, np.pi * radii ** 2, reach_px, cfg,
                         lambda blob, area: outline_area_at(image_bgr, blob.centre, float(np.sqrt(area / np.pi))),
                         shaft_on)
        if sighting is None:
            if unpaired is not None:
                unpaired[strength] = mine
            continue
        sighting = replace(sighting, tip_area=bead_outline_area(image_bgr, sighting, paint))
        resting = float(bead_px(sighting.tip_px[None], paint.bead_radius_mm)[0])
        if sighting.tip_area < cfg.partial_below_ratio * np.pi * resting ** 2:
            before = table.classes(paints, cfg.hue_slack) if table is not None else None
            sighting = replace(sighting, spread_px=bead_spread(image_bgr, classes, strength, sighting.tip_px, resting,
                                                               cfg, table, before))
        found[strength] = sighting
    return found


def bead_spread(image_bgr: np.ndarray, classes: np.ndarray, strength: int, centre: np.ndarray, radius_px: float,
                cfg: MarkerConfig, table: TableView | None, before: np.ndarray | None = None) -> np.ndarray | None:
    """(K,2) every centre (distorted pixels, a half-pixel grid) a bead of ``radius_px`` could have if the
    patch of wand ``strength``'s colour around ``centre`` (2,) is what shows of it (``classes``: (H,W)
    each pixel's wand colour), or None when the patch cannot be part of such a bead.

    A bead's visible part lies inside its outline, so every centre within a bead's radius of all of the
    patch is possible. The rest of the bead must lie under something: not under another wand's bead
    (both rest on tokens, side by side), and, with the table as it was before the cue, not under table
    still in plain view; a centre whose bead would cover either is not possible. A patch whose widest
    span is short of ``partial_min_span`` bead radii is not a bead's part (a band seen alone, a speck),
    nor is one without a core of paint (``partial_min_core``: the rim a token of this colour shows around
    something laid on it). Nor is a patch where the table already showed this colour over a quarter of
    a bead (``before``: the table view's ``classes``): a token of the wand's colour, its look changed by
    a sleeve's edge passing over it, would pass for a bead half under that sleeve. Without the table as
    it was (``table`` None), what hides the rest of the bead cannot be told: None."""
    if table is None:
        return None
    r = radius_px
    height, width = classes.shape
    x0, y0 = np.maximum(np.floor(centre - BOX_REACH * r - 2), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(centre + BOX_REACH * r + 3), [width, height]).astype(int)
    box = (slice(y0, y1), slice(x0, x1))
    yy, xx = np.mgrid[y0:y1, x0:x1]
    mine = classes[box] == strength
    around = np.hypot(xx - centre[0], yy - centre[1]) <= PATCH_REACH * r
    near = mine & around
    if before is not None and int((before[box][around] == strength).sum()) >= TABLE_SHOWED_BEAD * np.pi * r * r:
        return None
    pts = np.column_stack([xx[near], yy[near]]).astype(np.float64)
    if len(pts) < 3:  # no hull
        return None
    core = cv2.distanceTransform(np.pad(near, 1).astype(np.uint8), cv2.DIST_L2, 3)
    if float(core.max()) < cfg.partial_min_core * r:
        return None
    hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64)
    span = float(np.max(np.linalg.norm(hull[:, None] - hull[None], axis=2))) + 1.0
    if span < cfg.partial_min_span * r:
        return None
    # The outline of a bead off the camera's axis is an ellipse up to ~15 % longer than its equal-area
    # radius; the patch may bleed a pixel beyond it (blur, JPEG).
    outer = OUTLINE_STRETCH * r + cfg.partial_slack_px
    offsets = np.arange(-r, r + 1e-9, SPREAD_STEP_PX)
    grid = pts.mean(axis=0)[None, :] + np.stack(np.meshgrid(offsets, offsets), -1).reshape(-1, 2)
    grid = grid[np.linalg.norm(grid[:, None, :] - hull[None], axis=2).max(axis=1) <= outer]
    if not len(grid):
        return None
    bare = (table.unchanged(image_bgr, box, cfg.static_diff) | (classes[box] != 0)) & ~mine
    if bare.any():
        # How far each pixel is from what the bead cannot lie under; its inner part covers none of it.
        clear = cv2.distanceTransform((~bare).astype(np.uint8), cv2.DIST_L2, 3)
        gx = np.clip(np.round(grid[:, 0]).astype(int) - x0, 0, clear.shape[1] - 1)
        gy = np.clip(np.round(grid[:, 1]).astype(int) - y0, 0, clear.shape[0] - 1)
        grid = grid[clear[gy, gx] > max(BEAD_INNER * r - cfg.partial_slack_px, 1.0)]
    return grid if len(grid) else None


def uniform_bead(px_per_mm: float) -> BeadSize:
    """A bead that looks the same size everywhere (``px_per_mm`` of the table): for pictures without a
    calibration."""
    return lambda pixels, radius_mm: np.full(len(pixels), radius_mm * px_per_mm)


def bead_outline_area(image_bgr: np.ndarray, sighting: WandSighting, paint: PaintModel) -> float:
    """(H,W,3) uint8 BGR -> the tip bead's area in pixels, counting only its pixels that are at least
    half bead.

    A pixel on the outline mixes bead and table. How saturated the mix looks depends on the colours:
    yellow paint keeps its saturation over warm wood even when it covers a quarter of the pixel, blue
    loses it early, so the colour test alone makes yellow beads look up to 25 % too big. Each pixel's
    share of bead is its colour's place between the table's (the median of a ring around the bead) and
    the bead's (the median of its middle)."""
    found = outline_area_at(image_bgr, sighting.tip_px, float(np.sqrt(sighting.tip_area / np.pi)))
    return sighting.tip_area if found is None else found


def outline_area_at(image_bgr: np.ndarray, centre: np.ndarray, r: float) -> float | None:
    """The area (px) of the bead around ``centre`` (2,) seen about ``r`` px in radius, counting its
    pixels that are at least half bead (``bead_outline_area``); None at the picture's edge."""
    crop, dist = _around(image_bgr, centre, RING_OUTER * r + 2.0)
    ring = (dist >= RING_INNER * r) & (dist <= RING_OUTER * r)
    if not ring.any():
        return None
    # Not the paint model's floors: the size must not depend on how strict this night's model is.
    share = _bead_share(crop.astype(np.float32), dist <= max(BEAD_MIDDLE * r, 1.0), ring)
    return float(((share >= HALF_BEAD) & (dist <= PATCH_REACH * r)).sum())


def _around(image_bgr: np.ndarray, centre: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """The (h,w,3) box of the image within ``radius`` of ``centre`` (2,) and each pixel's distance (h,w)
    from it."""
    height, width = image_bgr.shape[:2]
    x0, y0 = (np.maximum(np.floor(centre - radius), 0)).astype(int)
    x1, y1 = np.minimum(np.ceil(centre + radius) + 1, [width, height]).astype(int)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    return np.ascontiguousarray(image_bgr[y0:y1, x0:x1]), np.hypot(xx - centre[0], yy - centre[1])


def _bead_share(crop: np.ndarray, middle: np.ndarray, ring: np.ndarray) -> np.ndarray:
    """(h,w,3) float32 colours, (h,w) masks of the bead's middle and the ring around it -> (h,w) each
    pixel's colour placed between the ring's (0) and the middle's (1)."""
    table = np.median(crop[ring], axis=0)
    bead = np.median(crop[middle], axis=0) - table
    return ((crop - table) @ bead) / max(float(bead @ bead), 1e-6)


def _mend(blobs: list[Blob], reach_px: float) -> list[Blob]:
    """Join pieces of one bead cut apart by a stick lying across it (same colour, closer than a bead's
    width); the bigger piece absorbs the smaller."""
    out: list[Blob] = []
    for b in sorted(blobs, key=lambda b: -b.area):
        near = next((i for i, o in enumerate(out) if float(np.linalg.norm(o.centre - b.centre)) < reach_px), None)
        if near is None:
            out.append(b)
            continue
        o = out[near]
        area = o.area + b.area
        out[near] = Blob(o.strength, (o.centre * o.area + b.centre * b.area) / area, area, o.fill,
                         (o.saturation * o.area + b.saturation * b.area) / area)
    return out


def _pair(strength: int, blobs: list[Blob], bead_areas: np.ndarray, reach_px: float, cfg: MarkerConfig,
          outline: Callable[[Blob, float], float | None] | None = None,
          shaft_on: ShaftOn | None = None) -> WandSighting | None:
    """The bead is a round blob of bead size (``bead_areas``: (N,) each blob's expected bead area where
    it lies) with, preferably, a clearly smaller band blob within reach; the most saturated wins, a
    bead with its band first. ``outline(blob, expected area)``: the bead's area measured at its
    outline, for a lone blob too small by the paint's floors. Where two beads could be paired with a
    band (a token of the wand's paint beside its tip), the pairing whose band has the shaft running on
    from it away from the bead the farthest (``shaft_on``) is the wand: a token's pairing points the
    shaft's way only by chance."""
    best: tuple[float, WandSighting] | None = None
    sized = [(tip, bead_area) for tip, bead_area in zip(blobs, bead_areas)
             if cfg.bead_area_min_ratio * bead_area <= tip.area <= cfg.bead_area_max_ratio * bead_area
             and tip.fill >= cfg.min_roundness]
    beads = [tip for tip, _ in sized]
    bands_of = {id(tip): [b for b in blobs if b is not tip and b.area <= cfg.band_area_max_ratio * tip.area
                          and b.area >= cfg.band_area_min_ratio * bead_area
                          and BAND_MIN_GAP_PX <= float(np.linalg.norm(b.centre - tip.centre)) <= reach_px]
                for tip, bead_area in sized}
    # Two beads with a band each: a token of the wand's paint beside its tip. Only then is the shaft looked
    # for, and only the pairing it runs on from farthest counts: another wand's shaft lying by chance on
    # the line from a token's band is seen for a short way, the wand's own runs on to the fist.
    threaded: tuple[float, Blob, Blob] | None = None
    if shaft_on is not None and sum(bool(bands) for bands in bands_of.values()) > 1:
        runs = [(shaft_on(tip, b), tip, b) for tip, _ in sized for b in bands_of[id(tip)]]
        longest = max(runs, key=lambda run: run[0])
        threaded = longest if longest[0] > 0 else None
    for tip, bead_area in sized:
        bands = bands_of[id(tip)]
        on_shaft = threaded is not None and threaded[1] is tip
        if threaded is not None and on_shaft:
            band: Blob | None = threaded[2]
        else:
            band = max(bands, key=lambda b: b.area) if bands else None
        # A bead with its band is far likelier a wand than a lone patch of colour.
        if band is None and tip.area < cfg.lone_bead_min_ratio * bead_area \
                and not _whole_at_outline(tip, bead_area, cfg, outline):
            continue
        # The wand's band seen out of this patch's reach: the tip is hidden (under its fist) and the
        # patch is something else of the wand's colour (a token), never the tip. A band is at least
        # half a bead across (``BAND_MIN_AREA``): smaller specks (noise, a glint) say nothing.
        if band is None and any(b is not tip and b.area >= BAND_MIN_AREA * bead_area
                                and b.area <= cfg.band_area_max_ratio * tip.area
                                and float(np.linalg.norm(b.centre - tip.centre)) > reach_px
                                and not _band_of_a_bigger_bead(b, beads, reach_px, cfg) for b in blobs):
            continue
        # Fluorescent paint is the most saturated thing on the table; a lit patch of wood or a sleeve
        # of the same hue is less so.
        rank = tip.saturation + (WITH_BAND_RANK if band is not None else 0.0) + (THREADED_RANK if on_shaft else 0.0)
        # A band held nearer the camera, or grown by a patch of its colour, can pass for a bead; it is
        # then still smaller than the wand's real bead beside it, whose band it is.
        if _band_of_a_bigger_bead(tip, beads, reach_px, cfg):
            rank -= BAND_OF_BIGGER_RANK
        if best is None or rank > best[0]:
            best = (rank, WandSighting(strength, tip.centre, tip.area, band.centre if band else None,
                                       band.area if band else 0.0))
    return best[1] if best else None


def _band_of_a_bigger_bead(blob: Blob, beads: list[Blob], reach_px: float, cfg: MarkerConfig) -> bool:
    """``blob`` could be the band of another bead-sized blob within reach: one it is clearly smaller than."""
    return any(b is not blob and blob.area <= cfg.band_area_max_ratio * b.area
               and BAND_MIN_GAP_PX <= float(np.linalg.norm(b.centre - blob.centre)) <= reach_px for b in beads)


def _whole_at_outline(tip: Blob, bead_area: float, cfg: MarkerConfig,
                      outline: Callable[[Blob, float], float | None] | None) -> bool:
    """A lone blob too small by the paint's floors is still a whole bead if its outline says so. Blur,
    defocus and dim light leave only a bead's middle saturated enough for the floors (so the blob
    shrinks), while its outline, half bead and half table, stays where it is. A band is 14 mm to the
    bead's 24: at most about half a bead's area even held higher, so it never measures a whole bead."""
    if outline is None or cfg.lone_bead_outline_ratio <= 0:
        return False
    found = outline(tip, bead_area)
    return found is not None and cfg.lone_bead_outline_ratio * bead_area <= found <= cfg.bead_area_max_ratio * bead_area


def shaft_direction(image_bgr: np.ndarray, tip_px: np.ndarray, bead_px: float, contrast: float) -> np.ndarray | None:
    """(2,) unit image direction from the tip back along the dark shaft, or None if no thin dark stick
    clearly leaves the bead. Used when the band is hidden: the wand's own shape still gives its line.

    Looks along 120 directions over a few radii just outside the bead. The shaft is dark at every
    radius (by ``contrast`` grey levels below each ring's median) and thin: the directions 25 degrees
    to either side are not dark too, which rules out dark tokens and sleeves."""
    step = SHAFT_STEP_DEG
    angles = np.radians(np.arange(0, 360, step))
    radii = SHAFT_FROM * bead_px + np.linspace(0.0, max(SHAFT_MIN_SPAN_PX, SHAFT_SPAN * bead_px), SHAFT_RINGS)
    xs = tip_px[0] + np.cos(angles)[:, None] * radii[None, :]
    ys = tip_px[1] + np.sin(angles)[:, None] * radii[None, :]
    h, w = image_bgr.shape[:2]
    if xs.min() < 0 or ys.min() < 0 or xs.max() > w - 1 or ys.max() > h - 1:
        return None
    grey = image_bgr[np.round(ys).astype(int), np.round(xs).astype(int)].mean(axis=2)  # (angles, radii)
    dark = (np.median(grey, axis=0)[None, :] - grey).min(axis=1)  # darker than its ring at every radius
    side = int(round(SHAFT_SIDE_DEG / step))
    narrow = dark - np.maximum(np.roll(dark, side), np.roll(dark, -side))
    best = int(np.argmax(np.minimum(dark, narrow)))
    if min(dark[best], narrow[best]) < contrast:
        return None
    a = angles[best]
    return np.array([np.cos(a), np.sin(a)])

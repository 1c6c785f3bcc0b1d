"""Learning each wand's paint as this table's camera sees it: the wand step of calibration.

The players hold their wands in view with the tip beads resting on the table (so the bead's height is
its own radius), a few frames are taken, and from them each wand gets a ``PaintModel``: its hue, how
far its pixels stray from that hue, the saturation and brightness floors under this light, and the
bead's real size. Pure functions of frames: no camera, no files.

    learn_paints(frames, tips=None, background=None, geometry=None) -> {strength: PaintModel}
    told_apart(models)                 -> plain-words problems; empty when every wand is its own colour
    lookalikes(table, models, scale)   -> patches of the table that could be taken for a wand's tip
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from vision.markers import WandSighting, bead_outline_area
from vision.profile import PaintModel, paint_hue_gap
from vision.table_geometry import TableGeometry

# The documented paints (docs/wand-markers.md), in OpenCV hue: only used to say which wand a colour
# belongs to when no tip positions are given, never as the model itself.
DOCUMENTED_HUES = {1: 27.0, 2: 65.0, 3: 110.0, 4: 152.0}
DOCUMENTED_BEAD_RADIUS_MM = 12.0
COLOUR_NAMES = ((8, "red"), (20, "orange"), (35, "yellow"), (80, "green"), (100, "cyan"), (130, "blue"),
                (165, "magenta"), (180, "red"))
# A pixel that could be paint at all: fluorescent paint stays clearly coloured even in dim light.
SEED_SATURATION = 90
SEED_VALUE = 60
MIN_BLOB_PX = 6
HUE_MARGIN = 6  # between two wands' hue ranges, for a lamp of another colour later in the night
# A band (14 mm to the bead's 24: 0.58 of its radius) or a speck where the bead was hidden is smaller
# than the bead: a wand's samples within 0.85 of its biggest are its bead.
BEAD_SAMPLE_SHARE = 0.85
# A bead is looked for within 3 bead radii of the tip given (a tap or a rough guess is off by a radius
# or two), among its top 5 % most saturated pixels, then within 12 hue steps of their hue and 3/4 of
# their saturation (the bead's fringe mixes with the table).
TIP_SEARCH_RADII, TOP_SHARE_PCT, NEAR_HUE, NEAR_SATURATION = 3, 95, 12, 0.75
# Without a calibration the camera is taken as the documented one: about 60 degrees wide, a metre up,
# so a mm on the table spans 0.85 px for every 1000 px of the image's width.
DOCUMENTED_PX_PER_MM = 0.85
# Against the empty table, a pixel changed by over 40 grey levels is something laid on it (the camera's
# noise and a lamp's flicker stay far below).
CHANGED_LEVELS = 40
# Of a wand's colour the most vivid patches (within 0.9 of the most) are its paint; the biggest of
# them is the tip bead.
VIVID_SHARE = 0.9
# A bead is round: it fills at least 0.45 of its box (a disc fills 0.79), its box no more than 2.2 times
# longer than wide, and its radius 0.4-2.2 of a resting bead's (partly hidden; held high).
ROUND_FILL, ROUND_ASPECT, BEAD_RADIUS_RANGE = 0.45, 2.2, (0.4, 2.2)
# The hue spread learned: the core's 98th percentile of hue gaps and 4 steps of margin, at least 6 and
# at most 18 (wider would reach the next wand's paint, 38 steps away at the nearest).
HUE_SPREAD_PCT, HUE_SPREAD_MARGIN, HUE_SPREAD_RANGE = 98, 4, (6, 18)
# The floors: 0.6 of the core's 3rd-percentile saturation (70-200) and 0.35 of its brightness (20-160),
# room for a dimmer moment of the night; kept 10 levels above the table's own saturation in that hue
# (its 99.5th percentile, where 50 pixels of the table show it) but below 0.8 of the bead's median.
FLOOR_PCT = 3
SATURATION_FLOOR, SATURATION_FLOOR_RANGE = 0.6, (70, 200)
VALUE_FLOOR, VALUE_FLOOR_RANGE = 0.35, (20, 160)
TABLE_PIXELS, TABLE_SATURATION_PCT, TABLE_SATURATION_MARGIN, BEAD_SATURATION_SHARE = 50, 99.5, 10, 0.8


class PaintError(ValueError):
    """The frames do not show a wand's paint well enough to learn it."""


@dataclass(frozen=True)
class Sample:
    """One wand's bead in one frame: its pixels' HSV (N,3) and its centre (2,) and equal-area radius."""

    strength: int
    hsv: np.ndarray
    centre: np.ndarray
    radius_px: float
    frame: int = 0


@dataclass(frozen=True)
class Lookalike:
    strength: int
    centre_px: tuple[float, float]
    area_px: float
    words: str


def documented_paints() -> dict[int, PaintModel]:
    """The documented paints (docs/wand-markers.md) as models, for a table whose wand step has not run
    yet; a profile's learned models replace them."""
    return {k: PaintModel(hue=h, hue_tolerance=12, min_saturation=180, min_value=70,
                          bead_radius_mm=DOCUMENTED_BEAD_RADIUS_MM) for k, h in DOCUMENTED_HUES.items()}


def colour_name(hue: float) -> str:
    return next(name for edge, name in COLOUR_NAMES if hue < edge)


# -- learning ------------------------------------------------------------------------------------
def learn_paints(frames: Sequence[np.ndarray], tips: Sequence[Mapping[int, Sequence[float]]] | None = None,
                 background: np.ndarray | None = None, geometry: TableGeometry | None = None,
                 expected: Sequence[int] = (1, 2, 3, 4)) -> dict[int, PaintModel]:
    """Frames (H,W,3) uint8 BGR of the wands held in view, tips resting on the table -> a paint model
    per wand seen. ``tips``: per frame, rough tip pixels by strength (else each bead is found as the
    biggest saturated patch of a colour near a documented paint, ignoring what ``background`` (the table
    without wands) already shows). ``geometry`` (a TableGeometry) turns the bead's size into mm; without
    it the documented size is kept. Raises PaintError naming the wands it could not see."""
    samples: dict[int, list[Sample]] = {k: [] for k in expected}
    for i, image in enumerate(frames):
        bead_px = _bead_px(image, geometry)
        found = _samples_at(image, tips[i], bead_px) if tips is not None else _samples_found(image, background, bead_px)
        for s in found:
            if s.strength in samples:
                samples[s.strength].append(replace(s, frame=i))
    unseen = [k for k, v in samples.items() if len(v) == 0]
    if unseen:
        raise PaintError(f"no bead of wand(s) {unseen!r} was seen: hold every wand in view, tip on the table")
    table_hsv = None if background is None else cv2.cvtColor(background, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    # A band or a speck of paint seen where the bead was hidden is smaller than the bead: keep the beads.
    samples = {k: [s for s in v if s.radius_px >= BEAD_SAMPLE_SHARE * max(o.radius_px for o in v)]
               for k, v in samples.items()}
    models = {k: _model(v, geometry, table_hsv) for k, v in samples.items()}
    if geometry is None:
        return models
    return {k: m.model_copy(update={"bead_radius_mm": round(_bead_radius_mm(samples[k], frames, m, geometry), 2)})
            for k, m in models.items()}


def _samples_at(image: np.ndarray, tips: Mapping[int, Sequence[float]], bead_px: float) -> list[Sample]:
    """The bead around each given rough tip pixel: near it, the round patch of the most vivid colour."""
    out = []
    for k, tip in tips.items():
        x0, y0 = (max(int(v - TIP_SEARCH_RADII * bead_px), 0) for v in tip)
        x1, y1 = int(tip[0] + TIP_SEARCH_RADII * bead_px) + 1, int(tip[1] + TIP_SEARCH_RADII * bead_px) + 1
        hsv = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1]), cv2.COLOR_BGR2HSV)
        seeds = _seed_mask(hsv)
        vivid = hsv[seeds > 0]
        if len(vivid) < MIN_BLOB_PX:
            continue
        # The bead is the most saturated thing around its tip; a wooden table can be fairly saturated too.
        top = vivid[vivid[:, 1] >= np.percentile(vivid[:, 1], TOP_SHARE_PCT)]
        hue = _circular_mean(top[:, 0].astype(np.float64))
        near = np.abs((hsv[:, :, 0].astype(np.int16) - int(round(hue)) + 90) % 180 - 90) <= NEAR_HUE
        near &= hsv[:, :, 1] >= NEAR_SATURATION * float(np.median(top[:, 1]))
        blobs = _round_blobs(k, hsv, seeds & (near.astype(np.uint8) * 255), bead_px)
        if blobs:
            here = np.asarray(tip, float) - [x0, y0]
            best = min(blobs, key=lambda b: float(np.linalg.norm(b.centre - here)))
            out.append(Sample(k, best.hsv, best.centre + [x0, y0], best.radius_px))
    return out


def _bead_px(image: np.ndarray, geometry: TableGeometry | None) -> float:
    """Roughly how many pixels a bead's radius spans on the table: from the geometry, else from a camera
    of the documented kind (about 60 degrees wide, a metre up)."""
    if geometry is not None:
        return DOCUMENTED_BEAD_RADIUS_MM * geometry.px_per_mm(0.0)
    return DOCUMENTED_BEAD_RADIUS_MM * DOCUMENTED_PX_PER_MM * image.shape[1] / 1000


def _samples_found(image: np.ndarray, background: np.ndarray | None, bead_px: float) -> list[Sample]:
    """Every saturated, round, bead-sized patch of a colour near a documented paint that is not on the
    empty table; of each wand's colour the most saturated such patch is its tip bead (skin, sleeves and
    cardboard are far less saturated than fluorescent paint)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    seeds = _seed_mask(hsv) if background is not None else cv2.inRange(hsv, (0, 150, SEED_VALUE), (180, 255, 255))  # type: ignore[call-overload]  # tuple bounds are OpenCV scalars
    if background is not None:
        changed = np.abs(image.astype(np.int16) - background.astype(np.int16)).max(axis=2) > CHANGED_LEVELS
        seeds &= changed.astype(np.uint8) * 255
    gap = np.abs((hsv[:, :, 0].astype(np.int16)[None] - np.array(list(DOCUMENTED_HUES.values()), np.int16)[:, None, None]
                  + 90) % 180 - 90)
    out = []
    for k, near in zip(DOCUMENTED_HUES, gap <= NEAR_HUE):
        found = _round_blobs(k, hsv, seeds & (near.astype(np.uint8) * 255), bead_px)
        if found:
            # The paint is the most vivid patch of its colour; of its patches the tip bead is the
            # biggest (the band is a smaller bead of the same paint).
            top = max(_vivid(s) for s in found)
            out.append(max((s for s in found if _vivid(s) >= VIVID_SHARE * top), key=lambda s: s.radius_px))
    return out


def _round_blobs(k: int, hsv: np.ndarray, mask: np.ndarray, bead_px: float) -> list[Sample]:
    n, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for j in range(1, n):
        area = float(stats[j, cv2.CC_STAT_AREA])
        w, h = stats[j, cv2.CC_STAT_WIDTH], stats[j, cv2.CC_STAT_HEIGHT]
        round_enough = area >= ROUND_FILL * w * h and max(w, h) <= ROUND_ASPECT * min(w, h)
        smallest, biggest = BEAD_RADIUS_RANGE
        if MIN_BLOB_PX <= area and smallest * bead_px <= math.sqrt(area / math.pi) <= biggest * bead_px and round_enough:
            s = _sample(k, hsv, labels == j, centres[j])
            if s is not None:
                out.append(s)
    return out


def _vivid(s: Sample) -> float:
    return float(np.median(s.hsv[:, 1].astype(np.float64)))


def _seed_mask(hsv: np.ndarray) -> np.ndarray:
    return cv2.inRange(hsv, (0, SEED_SATURATION, SEED_VALUE), (180, 255, 255))  # type: ignore[call-overload]  # tuple bounds are OpenCV scalars


def _sample(strength: int, hsv: np.ndarray, mask: np.ndarray, centre: np.ndarray) -> Sample | None:
    pixels = hsv[mask]
    if len(pixels) < MIN_BLOB_PX:
        return None
    return Sample(strength, pixels, np.asarray(centre, float), math.sqrt(len(pixels) / math.pi))


def _model(samples: list[Sample], geometry: TableGeometry | None, table_hsv: np.ndarray | None) -> PaintModel:
    """Hue centre and spread, floors with a margin for a dimmer moment of the night, and the bead size."""
    # A frame where the bead was hidden may have offered a knuckle instead: keep the samples that agree
    # with the most vivid one.
    ref = _circular_mean(_core(max(samples, key=_vivid))[:, 0].astype(np.float64))
    samples = [s for s in samples if _hue_gap(_circular_mean(_core(s)[:, 0].astype(np.float64)), ref) <= 6]
    # The bead's middle is its true colour; the fringe mixes with the table.
    core = np.concatenate([_core(s) for s in samples])
    hue = _circular_mean(core[:, 0].astype(np.float64))
    gaps = np.array([_hue_gap(h, hue) for h in core[:, 0]])
    tolerance = float(np.clip(np.percentile(gaps, HUE_SPREAD_PCT) + HUE_SPREAD_MARGIN, *HUE_SPREAD_RANGE))
    saturation = float(np.clip(np.percentile(core[:, 1], FLOOR_PCT) * SATURATION_FLOOR, *SATURATION_FLOOR_RANGE))
    if table_hsv is not None:
        # Keep clear of what the table itself shows in this colour (wood, cloth), while keeping most of
        # the bead: above the table's saturation there, below the bead's own.
        near = np.abs((table_hsv[:, 0].astype(np.int16) - int(round(hue)) + 90) % 180 - 90) <= tolerance
        if near.sum() > TABLE_PIXELS:
            table_sat = float(np.percentile(table_hsv[near, 1], TABLE_SATURATION_PCT)) + TABLE_SATURATION_MARGIN
            saturation = float(np.clip(max(saturation, table_sat), SATURATION_FLOOR_RANGE[0],
                                       BEAD_SATURATION_SHARE * np.median(core[:, 1])))
    value = float(np.clip(np.percentile(core[:, 2], FLOOR_PCT) * VALUE_FLOOR, *VALUE_FLOOR_RANGE))
    radius = DOCUMENTED_BEAD_RADIUS_MM
    return PaintModel(hue=round(hue % 180, 2), hue_tolerance=round(tolerance, 2), min_saturation=round(saturation, 1),
                      min_value=round(value, 1), bead_radius_mm=round(radius, 2), samples=len(samples))


def _core(s: Sample) -> np.ndarray:
    """The blob's pixels nearest its median colour: half of them, the fringe left out."""
    sat = s.hsv[:, 1].astype(np.float64)
    return s.hsv[sat >= np.median(sat)]


def _bead_radius_mm(samples: list[Sample], frames: Sequence[np.ndarray], model: PaintModel,
                    geometry: TableGeometry) -> float:
    """The bead rests on the table, so its centre is one radius up: solve radius_px = f(radius_mm) for
    each sample, the apparent radius measured exactly as the pipeline measures a tip
    (``vision.markers.bead_outline_area``), so that its sizes tell heights without a bias; the median."""
    radii = []
    for s in samples:
        sighting = WandSighting(s.strength, s.centre, math.pi * s.radius_px ** 2, None)
        seen = math.sqrt(bead_outline_area(frames[s.frame], sighting, model) / math.pi)
        r = DOCUMENTED_BEAD_RADIUS_MM
        for _ in range(6):
            point = geometry.at_height(s.centre, np.array([r]))
            r = seen / max(float(geometry.bead_radius_px(point, 1.0)[0]), 1e-6)
        radii.append(r)
    return float(np.clip(np.median(radii), 3, 40))


def _circular_mean(hues: np.ndarray) -> float:
    a = hues * (2 * np.pi / 180)
    return float(np.degrees(np.arctan2(np.sin(a).mean(), np.cos(a).mean())) / 2 % 180)


def _hue_gap(a: float, b: float) -> float:
    d = abs(float(a) - float(b)) % 180
    return min(d, 180 - d)


# -- checks --------------------------------------------------------------------------------------
def told_apart(models: Mapping[int, PaintModel]) -> list[str]:
    """Every pair of wands whose colours the camera could mistake for each other, in plain words."""
    problems = []
    keys = sorted(models)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            ma, mb = models[a], models[b]
            if paint_hue_gap(ma, mb) <= ma.hue_tolerance + mb.hue_tolerance + HUE_MARGIN:
                problems.append(f"wands {a} and {b} look alike to the camera ({colour_name(ma.hue)} and "
                                f"{colour_name(mb.hue)}, hues {ma.hue:.0f} and {mb.hue:.0f}): repaint one of "
                                f"them in another of the documented colours")
    return problems


def paint_mask(hsv: np.ndarray, model: PaintModel) -> np.ndarray:
    """(H,W,3) uint8 HSV -> (H,W) bool: the pixels this paint model takes for paint."""
    gap = np.abs((hsv[:, :, 0].astype(np.int16) - int(round(model.hue)) + 90) % 180 - 90)
    return (gap <= model.hue_tolerance) & (hsv[:, :, 1] >= model.min_saturation) & (hsv[:, :, 2] >= model.min_value)


def lookalikes(table_bgr: np.ndarray, models: Mapping[int, PaintModel], px_per_mm: float) -> list[Lookalike]:
    """(H,W,3) uint8 BGR of the table without wands -> the patches a wand's paint model accepts that are
    at least a quarter of a bead: a token, a card or a sleeve that could be taken for that wand's tip."""
    hsv = cv2.cvtColor(table_bgr, cv2.COLOR_BGR2HSV)
    out = []
    for k, model in sorted(models.items()):
        bead = math.pi * (model.bead_radius_mm * px_per_mm) ** 2
        mask = paint_mask(hsv, model).astype(np.uint8)
        n, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for j in range(1, n):
            area = float(stats[j, cv2.CC_STAT_AREA])
            if area >= 0.25 * bead:
                x, y = (float(v) for v in centres[j])
                out.append(Lookalike(k, (x, y), area, f"something at pixel ({x:.0f}, {y:.0f}) has the colour of "
                                     f"wand {k}'s {colour_name(model.hue)} paint and could be taken for its tip: "
                                     f"take it off the table or turn it over, then check again"))
    return out

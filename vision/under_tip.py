"""Which token is under a wand's tip: the table card's reading ("touch the token with the tip, hold the
wand as you like").

One camera cannot tell how high the tip is, so every height from the bead resting on a token up to
``hover_height_mm`` above that is tried (fewer when the bead looks too big for the lower ones: it is
then nearer the camera; and fewer when a whole bead looks too small for the higher ones: a bead held
higher is nearer the camera and never looks smaller than it is). Each height puts the tip over one point of the table. The tip is over a token
when that point lies within the token (plus ``under_tip_slack_mm``) at every height tried, and every
other token stays at least ``neighbour_margin_mm`` further off at every height; a tip near two tokens is
"between" them (a question for the tablet, never a guess). Where the wand's line points does not count:
a wand held low and leaning back, as people hold one, points 5-15 cm past the token it hovers over.
"""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

import numpy as np

from vision.axis import WandAxis
from vision.config import PointingConfig
from vision.table_geometry import TableGeometry
from vision.targets import Candidate

OVER, BETWEEN, CLEAR, OVERSIZED = "over", "between", "clear", "oversized"


@dataclass(frozen=True)
class TipReading:
    """``status``: over one token, between tokens, clear of every token (then the wand may be aimed
    from afar), or oversized: the tip's patch is too big for a bead at any height it is tried at.
    ``token`` is the one under the tip (or the nearest when between); ``gap_mm`` how much further off
    the runner-up is than the token at their worst heights."""

    status: str
    token: str | None
    runner_up: str | None
    gap_mm: float


def hover_heights(geo: TableGeometry, axis: WandAxis, bead_radius_mm: float, cfg: PointingConfig,
                  touching: bool | None = None) -> np.ndarray:
    """(H,) tip heights (mm) the bead could be at while over a token: from resting on it up to the
    hover limit, without the heights the bead looks clearly too big for (empty when it looks too big
    for all of them: ``bead_height_tolerance`` is loose enough that only a patch merged with something
    of its colour, or a bead held far out of reach of the table, gets there) nor those a whole bead
    looks too small for). A closed tip switch (``touching``) leaves only the resting height: the bead
    is on the token, whatever its size says, unless it looks too big for every height."""
    low = bead_radius_mm + cfg.touch_lift_mm
    heights = np.arange(low - cfg.touch_lift_mm, low + cfg.hover_height_mm + 1e-6, max(cfg.height_step_mm, 1.0))
    if axis.tip_radius_px <= 0:
        return np.array([low]) if touching else heights
    expected = geo.bead_radius_px(geo.at_height(axis.tip_px, heights), bead_radius_mm)
    fits = axis.tip_radius_px <= cfg.bead_height_tolerance * expected
    if touching:
        # Resting, whatever its size says; still refused when too big for every height the camera alone
        # would try, so a closed switch never makes the size test stricter.
        return np.array([low]) if fits.any() else np.array([])
    heights, expected = heights[fits], expected[fits]
    return not_too_high(axis, heights, expected, resting_bead_px(geo, axis, bead_radius_mm, cfg), cfg)


def not_too_high(axis: WandAxis, heights: np.ndarray, expected_px: np.ndarray, resting_px: float,
                 cfg: PointingConfig) -> np.ndarray:
    """``heights`` (H,) without those the bead looks too small for (``expected_px`` (H,): its radius
    there; ``bead_heights``): without this, a touching tip near a token's edge is "between" at the
    higher heights and the tablet asks for nothing. A bead too small for every height, or too small to
    be whole, is kept at all of them."""
    low = bead_heights(axis, heights, expected_px, resting_px, cfg)
    return low if low is not None and len(low) else heights


def highest_for_bead(geo: TableGeometry, axis: WandAxis, bead_radius_mm: float, cfg: PointingConfig) -> float:
    """The highest (mm) the tip bead can be for how big it looks (``bead_heights``); a bead too small
    to be whole may be as high as any wand."""
    heights = np.arange(cfg.min_height_mm, cfg.max_height_mm + 1e-9, max(cfg.height_step_mm, 1.0))
    expected = geo.bead_radius_px(geo.at_height(axis.tip_px, heights), bead_radius_mm)
    fits = bead_heights(axis, heights, expected, resting_bead_px(geo, axis, bead_radius_mm, cfg), cfg)
    if fits is None:
        return cfg.max_height_mm
    return float(fits.max()) if len(fits) else cfg.min_height_mm


def bead_heights(axis: WandAxis, heights: np.ndarray, expected_px: np.ndarray, resting_px: float,
                 cfg: PointingConfig) -> np.ndarray | None:
    """The one bead-size rule: of ``heights`` (H,) (``expected_px`` (H,): a bead's radius there), those
    a whole bead looking its size could be at. A bead nearer the camera looks bigger, and its measured
    size is never much below the true one (``bead_shrink_tolerance``), so a bead looking its resting
    size is not 45 mm up. None when the bead looks smaller than a whole one (``whole_bead_ratio``:
    dimmed, blurred, partly hidden): its size says nothing about its height."""
    if axis.tip_radius_px < cfg.whole_bead_ratio * resting_px:
        return None
    return heights[axis.tip_radius_px >= cfg.bead_shrink_tolerance * expected_px]


def resting_bead_px(geo: TableGeometry, axis: WandAxis, bead_radius_mm: float, cfg: PointingConfig) -> float:
    """The tip bead's apparent radius (px) if it rested on a token where it is seen."""
    rest = geo.at_height(axis.tip_px, np.array([bead_radius_mm + cfg.touch_lift_mm]))
    return float(geo.bead_radius_px(rest, bead_radius_mm)[0])


def mostly_hidden(geo: TableGeometry, axis: WandAxis, bead_radius_mm: float, cfg: PointingConfig) -> bool:
    """The tip bead looks far smaller than a resting bead (``partial_bead_ratio``): a fist or a sleeve
    hides most of it, so its patch's centre may be a bead's radius off the tip's and the token under
    it cannot be told (upright wands and hovers with the hand over the tip misread this way)."""
    return 0 < axis.tip_radius_px < cfg.partial_bead_ratio * resting_bead_px(geo, axis, bead_radius_mm, cfg)


def under_tip(geo: TableGeometry, axis: WandAxis, candidates: Sequence[Candidate], bead_radius_mm: float,
              cfg: PointingConfig, touching: bool | None = None) -> TipReading:
    """Which candidate token the tip is over, if any (``touching``: the wand's tip switch, if known)."""
    heights = hover_heights(geo, axis, bead_radius_mm, cfg, touching)
    if len(heights) == 0:
        # Far bigger than a bead held within reach of a token: the bead has run into a patch of its own
        # colour (a token, a sleeve), so neither its centre nor its line can be trusted.
        return TipReading(OVERSIZED, None, None, 0.0)
    return over_which(geo.at_height(axis.tip_px, heights)[:, :2], candidates, cfg)


def resting_spread(geo: TableGeometry, axis: WandAxis, candidates: Sequence[Candidate], bead_radius_mm: float,
                   cfg: PointingConfig) -> TipReading:
    """Which token a partly hidden tip bead rests on (its tip switch closed), from every place its centre
    may be (``axis.spread_px``): over a token only if all of them are."""
    assert axis.spread_px is not None
    return over_which(geo.on_plane(axis.spread_px, bead_radius_mm + cfg.touch_lift_mm)[:, :2], candidates, cfg)


def over_which(ground: np.ndarray, candidates: Sequence[Candidate], cfg: PointingConfig,
               extra_slack_mm: float = 0.0) -> TipReading:
    """(P,2) table points (mm) where the tip may be over -> over one token if it holds every point (within
    ``under_tip_slack_mm`` plus ``extra_slack_mm`` past its edge), with every other token
    ``neighbour_margin_mm`` further off; between tokens; or clear of every token."""
    if not candidates:
        return TipReading(CLEAR, None, None, 0.0)
    centres = np.array([[c.x_mm, c.y_mm] for c in candidates])
    radii = np.array([c.radius_mm for c in candidates])
    edge = np.linalg.norm(ground[:, None, :] - centres[None], axis=2) - radii[None]  # (P,N) <0 inside
    worst, best_case = edge.max(axis=0), edge.min(axis=0)
    i = int(np.argmin(worst))
    others = np.delete(best_case, i)
    runner = None if len(others) == 0 else int(np.argmin(np.where(np.arange(len(candidates)) == i, np.inf, best_case)))
    gap = float(others.min() - worst[i]) if len(others) else float("inf")
    runner_id = candidates[runner].id if runner is not None else None
    slack = cfg.under_tip_slack_mm + extra_slack_mm
    if worst[i] <= slack and gap >= cfg.neighbour_margin_mm:
        return TipReading(OVER, candidates[i].id, runner_id, gap)
    if best_case.min() <= slack + cfg.neighbour_margin_mm:
        return TipReading(BETWEEN, candidates[int(np.argmin(best_case))].id, runner_id, gap)
    return TipReading(CLEAR, None, None, gap)


def over_any(ground: np.ndarray, candidates: Sequence[Candidate], cfg: PointingConfig) -> TipReading:
    """(P,2) table points (mm) where a resting tip may be, none of them seen -> over the one token any of
    them lies within (plus ``under_tip_slack_mm``: beads rest against a token's rim), when every other
    token stays ``neighbour_margin_mm`` further from all of them; between tokens when two are within
    reach; clear when none is. Unlike ``over_which`` the tip need not be over the token at every point:
    the points are where it *may* be, and a resting tip lies on some token."""
    if not candidates or not len(ground):
        return TipReading(CLEAR, None, None, 0.0)
    centres = np.array([[c.x_mm, c.y_mm] for c in candidates])
    radii = np.array([c.radius_mm for c in candidates])
    nearest = (np.linalg.norm(ground[:, None, :] - centres[None], axis=2) - radii[None]).min(axis=0)  # (N,)
    order = np.argsort(nearest)
    i = int(order[0])
    runner = candidates[int(order[1])].id if len(candidates) > 1 else None
    gap = float(nearest[order[1]] - max(nearest[i], 0.0)) if len(candidates) > 1 else float("inf")
    if nearest[i] > cfg.under_tip_slack_mm:
        return TipReading(CLEAR, None, None, gap)
    if len(candidates) > 1 and nearest[order[1]] <= cfg.under_tip_slack_mm + cfg.neighbour_margin_mm:
        return TipReading(BETWEEN, candidates[i].id, runner, gap)
    return TipReading(OVER, candidates[i].id, runner, gap)

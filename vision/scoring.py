"""How well each candidate token explains one wand's pose.

One camera cannot tell how high the tip is, so every height from a bead resting on a token
(``min_height_mm``) up to ``max_height_mm`` is tried. For each height the tip is a point in 3D; with the
band (or the gripping hand) at its known distance along the wand, the axis follows, and with it the
spot where the wand meets the table. A token scores by the best height under two readings:

- hover (the table's convention): the tip at most ``hover_height_mm`` up and within
  ``hover_radius_mm`` of the token's centre, the wand aimed at it;
- aim: the axis, continued, passes through the token, allowing a person's few degrees of aiming error;
  this reading counts ``far_weight`` times less: a wand held high aiming far and a wand held low
  hovering look alike from above, and the convention says which to believe.

When only the shaft's line is seen, every tilt is tried and the line only confirms the tip's hover
reading; when only the tip is seen, its hover reading alone counts, ``tip_only_weight`` times less.
Scores are likelihoods (0..1); ``none_score`` stands for "pointing at none of them".
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Sequence

import numpy as np

from vision.axis import WandAxis
from vision.config import PointingConfig
from vision.table_geometry import TableGeometry
from vision.targets import Candidate

# A shaft's line seen without its band gives no length: the back point is tried at these distances
# from the tip, from just past the bead to most of the wand (250 mm, less the fist over its end).
SHAFT_LENGTHS_MM = (30.0, 45.0, 60.0, 80.0, 110.0, 150.0, 200.0)
# A tip's place at the table is found within about 3 px (5 mm at 0.57 px/mm): a hover just past the
# radius still counts.
HOVER_SLACK_MM = 5.0
# A wand must point down at least this much (about 3 degrees) to point at a token at all.
LEVEL = 0.05


@dataclass(frozen=True)
class TokenScores:
    """Scores by token id, best first; ``posterior`` normalises them with the none-score."""

    scores: dict[str, float]
    posterior: dict[str, float]

    @property
    def ranked(self) -> list[tuple[str, float]]:
        return sorted(self.scores.items(), key=lambda kv: -kv[1])


def candidate_array(candidates: Sequence[Candidate]) -> tuple[list[str], np.ndarray]:
    """Candidates -> ids and (N,3) centres [x_mm, y_mm, radius_mm]."""
    ids = [c.id for c in candidates]
    arr = np.array([[c.x_mm, c.y_mm, c.radius_mm] for c in candidates], np.float64)
    return ids, arr.reshape(-1, 3)


def score_tokens(geo: TableGeometry, axis: WandAxis, candidates: Sequence[Candidate], cfg: PointingConfig,
                 bead_radius_mm: float | None = None) -> TokenScores:
    """Scores of every candidate token for one wand; with ``bead_radius_mm`` the tip bead's apparent size
    also rules out hover heights it looks too big for."""
    ids, tokens = candidate_array(candidates)
    if not ids:
        return TokenScores({}, {})
    heights = np.arange(cfg.min_height_mm, cfg.max_height_mm + 1e-9, cfg.height_step_mm)
    tips = geo.at_height(axis.tip_px, heights)  # (H,3)
    if bead_radius_mm is not None:
        # Heights the bead looks too big for are kept for aiming but never count as hovering.
        heights = np.where(_looks_higher(geo, axis, tips, bead_radius_mm, cfg), np.inf, heights)
    tip_only = _hover_only(tips, heights, tokens, cfg)
    if axis.back_px is None:
        s = tip_only * cfg.tip_only_weight
    elif axis.back_from_tip_mm <= 0:
        # Only the shaft's line is known: try wands of every tilt, and let the line only confirm
        # what the tip's place says (a shadow or a dark token can pass for a shaft).
        s = np.zeros(len(ids))
        for length in SHAFT_LENGTHS_MM:
            s = np.maximum(s, _readings(geo, axis, tips, heights, tokens, cfg, length))
        s = np.sqrt(s * tip_only)
    else:
        s = _readings(geo, axis, tips, heights, tokens, cfg, axis.back_from_tip_mm)
    return _scored(ids, s, cfg)


def aim_scores(geo: TableGeometry, axis: WandAxis, candidates: Sequence[Candidate], cfg: PointingConfig,
               lowest_mm: float, highest_mm: float | None = None) -> TokenScores:
    """Where a wand held in the air is aimed: the aim reading alone, with the tip tried from ``lowest_mm``
    (its switch says the bead is off the token) up to ``highest_mm`` (default ``max_height_mm``). Needs
    a back point: the band or hand at its known distance, or a point on the shaft's line."""
    ids, tokens = candidate_array(candidates)
    if not ids or axis.back_px is None:
        return TokenScores({}, {})
    top = cfg.max_height_mm if highest_mm is None else max(highest_mm, lowest_mm)
    tips = geo.at_height(axis.tip_px, np.arange(lowest_mm, top + 1e-9, cfg.height_step_mm))
    # Only the shaft's line seen (band hidden): its length is not known, so every length is tried.
    lengths = (axis.back_from_tip_mm,) if axis.back_from_tip_mm > 0 else SHAFT_LENGTHS_MM
    s = np.zeros(len(ids))
    for length in lengths:
        dirs, fit = wand_directions(geo, axis, tips, cfg, length)
        s = np.maximum(s, _aim(tips, dirs, fit, tokens, cfg))
    return _scored(ids, s, cfg)


def _scored(ids: list[str], s: np.ndarray, cfg: PointingConfig) -> TokenScores:
    """(N,) likelihoods by token id, with their posterior beside "pointing at none of them"."""
    total = float(s.sum()) + cfg.none_score
    return TokenScores(dict(zip(ids, s.tolist())), {i: float(v) / total for i, v in zip(ids, s)})


def _readings(geo: TableGeometry, axis: WandAxis, tips: np.ndarray, heights: np.ndarray, tokens: np.ndarray,
              cfg: PointingConfig, length: float) -> np.ndarray:
    """(N,) per token: the better of the hover reading and the (down-weighted) aim reading."""
    dirs, fit = wand_directions(geo, axis, tips, cfg, length)
    return np.maximum(_hover(tips, dirs, fit, heights, tokens, cfg), cfg.far_weight * _aim(tips, dirs, fit, tokens, cfg))


def wand_directions(geo: TableGeometry, axis: WandAxis, tips: np.ndarray, cfg: PointingConfig,
                    length: float) -> tuple[np.ndarray, np.ndarray]:
    """For each tip hypothesis (H,3): the wand's unit direction back->tip (H,3), and how well the back
    point's ray fits a wand of the known length (H,) in 0..1.

    The back point lies on its pixel's ray at ``back_from_tip_mm`` from the tip; of the two such points
    the one nearer the camera is taken (wands point down at the table)."""
    if axis.back_px is None:
        raise ValueError("a wand's direction needs the back point of its axis")
    c = geo.centre
    d = geo.rays(axis.back_px[None])[0]
    d = d / np.linalg.norm(d)
    w = c[None, :] - tips  # (H,3)
    b = w @ d
    gap2 = np.einsum("ij,ij->i", w, w) - b * b  # squared distance from each tip to the back ray
    L = length
    reach = np.sqrt(np.clip(L * L - gap2, 0.0, None))
    s = -b - reach  # the nearer intersection along the ray
    backs = c[None, :] + s[:, None] * d[None, :]
    dirs = tips - backs
    dirs /= np.maximum(np.linalg.norm(dirs, axis=1, keepdims=True), 1e-9)
    miss = np.sqrt(np.clip(gap2, 0, None)) - L  # > 0 when no wand of that length fits
    fit = np.exp(-0.5 * (np.clip(miss, 0, None) / cfg.length_sigma_mm) ** 2)
    fit = fit * (dirs[:, 2] < -LEVEL)  # a wand pointing up or level points at no token
    return dirs, fit


def bead_radius_px(geo: TableGeometry, points: np.ndarray, radius_mm: float) -> np.ndarray:
    """(H,3) bead centres in table mm -> (H,) apparent radius in pixels (``TableGeometry.bead_radius_px``)."""
    return geo.bead_radius_px(points, radius_mm)


def _looks_higher(geo: TableGeometry, axis: WandAxis, tips: np.ndarray, radius_mm: float,
                  cfg: PointingConfig) -> np.ndarray:
    """(H,) True for tip hypotheses that the bead looks clearly too big for: it is nearer the camera, so
    higher up. Only ever rules out (a bead partly hidden looks smaller, never bigger)."""
    scale = cfg.hover_max_bead_scale
    if axis.tip_radius_px <= 0 or scale <= 0:
        return np.zeros(len(tips), bool)
    return axis.tip_radius_px > scale * bead_radius_px(geo, tips, radius_mm)


def _offsets(tips: np.ndarray, dirs: np.ndarray, tokens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(H,3) tips and directions, (N,3) tokens -> along (H,N) and perpendicular (H,N) distances of each
    token centre from each hypothesised axis."""
    centres = np.c_[tokens[:, :2], np.zeros(len(tokens))]
    v = centres[None, :, :] - tips[:, None, :]  # (H,N,3)
    along = np.einsum("hnk,hk->hn", v, dirs)
    perp = np.sqrt(np.clip(np.einsum("hnk,hnk->hn", v, v) - along ** 2, 0, None))
    return along, perp


def _hover(tips, dirs, fit, heights, tokens, cfg: PointingConfig) -> np.ndarray:
    """(N,) best hover likelihood per token: the tip low and within reach of the token's centre, the
    wand aimed at it."""
    along, perp = _offsets(tips, dirs, tokens)
    flat = np.linalg.norm(tips[:, None, :2] - tokens[None, :, :2], axis=2)
    # Hovering, the wand points down at the token; a wand lying nearly flat is aimed from afar.
    steep = -dirs[:, 2] >= math.sin(math.radians(cfg.hover_min_tilt_deg))
    inside = (flat <= cfg.hover_radius_mm + HOVER_SLACK_MM) & ((heights <= cfg.hover_height_mm) & steep)[:, None]
    return (_aimed(along, perp, tokens, cfg) * inside * fit[:, None]).max(axis=0)


def _hover_only(tips, heights, tokens, cfg: PointingConfig) -> np.ndarray:
    """(N,) hover likelihood from the tip alone (no axis seen)."""
    flat = np.linalg.norm(tips[:, None, :2] - tokens[None, :, :2], axis=2)
    near = np.exp(-0.5 * (flat / cfg.tip_only_sigma_mm) ** 2) * (flat <= cfg.hover_radius_mm + tokens[None, :, 2])
    return (near * (heights <= cfg.hover_height_mm)[:, None]).max(axis=0)


def _aim(tips, dirs, fit, tokens, cfg: PointingConfig) -> np.ndarray:
    """(N,) best aiming likelihood per token over all tip heights."""
    along, perp = _offsets(tips, dirs, tokens)
    return (_aimed(along, perp, tokens, cfg) * fit[:, None]).max(axis=0)


def _aimed(along: np.ndarray, perp: np.ndarray, tokens: np.ndarray, cfg: PointingConfig) -> np.ndarray:
    """(H,N) likelihood that the axis passes through each token ahead of the tip, allowing a person's
    few degrees of aiming error (which grows with the distance)."""
    spread = np.sqrt(cfg.aim_sigma_mm ** 2 + (np.clip(along, 0, None) * math.tan(math.radians(cfg.aim_sigma_deg))) ** 2)
    ahead = (along > -tokens[None, :, 2]) & (along <= cfg.max_reach_mm)
    return np.exp(-0.5 * (perp / spread) ** 2) * ahead

"""Dynamic time warping: how far a heard phrase is from each enrolled chant, whatever its tempo.

``distances`` compares a phrase with every take at once (a quick first pass); ``chant_distance``
then looks at the alignment with the few nearest takes, syllable by syllable.

The cost of the cheapest alignment is divided by the number of steps in it, so a slow chant and a
quick one land on the same scale. The recursion walks anti-diagonals (every cell on one depends only
on the two before it), which lets numpy fill a whole diagonal of every template at once: one segment
against thirty templates is a few hundred small array operations, quick enough for a Pi.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def frame_costs(query: np.ndarray, templates: np.ndarray) -> np.ndarray:
    """(n, d) query and (T, M, d) padded templates -> (T, n, M) Euclidean frame distances."""
    q2 = np.sum(query**2, axis=1)[None, :, None]
    t2 = np.sum(templates**2, axis=2)[:, None, :]
    cross = np.einsum("nd,tmd->tnm", query, templates)
    return np.sqrt(np.maximum(q2 + t2 - 2.0 * cross, 0.0))


def band_mask(n: int, lengths: np.ndarray, m_max: int, band: float) -> np.ndarray:
    """(T, n, m_max) bool: cells within ``band`` of the diagonal, measured as a fraction of each
    sequence, so a warp may stretch a syllable but not match one phrase to half of another."""
    i = (np.arange(n) + 0.5)[None, :, None] / n
    j = (np.arange(m_max) + 0.5)[None, None, :] / lengths[:, None, None]
    return (np.abs(i - j) <= band) & (np.arange(m_max)[None, None, :] < lengths[:, None, None])


def _pad(templates: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """list of (m_t, d) -> (T, M, d) zero-padded stack and (T,) lengths."""
    lengths = np.array([len(t) for t in templates])
    stack = np.zeros((len(templates), lengths.max(), templates[0].shape[1]), dtype=np.float64)
    for k, template in enumerate(templates):
        stack[k, : len(template)] = template
    return stack, lengths


def distances(
    query: np.ndarray, templates: Sequence[np.ndarray], band: float = 0.35, max_stretch: float = 2.0
) -> np.ndarray:
    """(n, d) query against T templates of shape (m_t, d) -> (T,) path-normalised DTW costs;
    ``inf`` where the lengths differ by more than ``max_stretch`` times or nothing fits the band."""
    found = np.full(len(templates), np.inf)
    lengths = np.array([len(t) for t in templates])
    fits = (len(query) > 0) & (lengths > 0) & (lengths <= max_stretch * len(query)) & (len(query) <= max_stretch * lengths)
    if fits.any():
        found[fits] = _aligned([t for t, ok in zip(templates, fits) if ok], query, band)
    return found


def _aligned(templates: Sequence[np.ndarray], query: np.ndarray, band: float) -> np.ndarray:
    stack, lengths = _pad(templates)
    costs = frame_costs(query.astype(np.float64), stack)
    costs[~band_mask(len(query), lengths, stack.shape[1], band)] = np.inf
    total, steps = _accumulate(costs)
    rows = np.arange(len(templates))
    end_total, end_steps = total[rows, len(query), lengths], steps[rows, len(query), lengths]
    reached = np.isfinite(end_total) & (end_steps > 0)
    return np.divide(end_total, end_steps, out=np.full(len(templates), np.inf), where=reached)


def _accumulate(costs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(T, n, M) frame costs -> (T, n+1, M+1) cheapest accumulated cost and its path length."""
    n_templates, n, m = costs.shape
    total = np.full((n_templates, n + 1, m + 1), np.inf)
    steps = np.zeros((n_templates, n + 1, m + 1))
    total[:, 0, 0] = 0.0
    for k in range(2, n + m + 1):
        i = np.arange(max(1, k - m), min(n, k - 1) + 1)
        j = k - i
        # Candidates in the order diagonal, from above, from the left.
        before = np.stack([total[:, i - 1, j - 1], total[:, i - 1, j], total[:, i, j - 1]])
        lengths = np.stack([steps[:, i - 1, j - 1], steps[:, i - 1, j], steps[:, i, j - 1]])
        best = np.argmin(before, axis=0)
        total[:, i, j] = costs[:, i - 1, j - 1] + np.take_along_axis(before, best[None], 0)[0]
        steps[:, i, j] = np.take_along_axis(lengths, best[None], 0)[0] + 1.0
    return total, steps


def distance(query: np.ndarray, template: np.ndarray, band: float = 0.35, max_stretch: float = 2.0) -> float:
    """(n, d) against (m, d) -> one path-normalised DTW cost."""
    return float(distances(query, [template], band, max_stretch)[0])


def path(query: np.ndarray, template: np.ndarray, band: float = 0.35) -> tuple[np.ndarray, np.ndarray]:
    """The cheapest alignment of (n, d) ``query`` with (m, d) ``template``: (steps, 2) pairs of
    (query frame, template frame) from the start to the end, and the (steps,) frame costs on it."""
    stack, lengths = _pad([template])
    costs = frame_costs(query.astype(np.float64), stack)
    costs[~band_mask(len(query), lengths, stack.shape[1], band)] = np.inf
    total, _ = _accumulate(costs)
    i, j, cells = len(query), len(template), []
    while i > 0 and j > 0:
        cells.append((i - 1, j - 1))
        before = [total[0, i - 1, j - 1], total[0, i - 1, j], total[0, i, j - 1]]
        i, j = [(i - 1, j - 1), (i - 1, j), (i, j - 1)][int(np.argmin(before))]
    pairs = np.array(cells[::-1])
    return pairs, costs[0, pairs[:, 0], pairs[:, 1]]


def chant_distance(query: np.ndarray, template: np.ndarray, band: float = 0.35, parts: int = 3) -> float:
    """How far a phrase is from one enrolled take: the mean of the path-normalised cost and the
    cost over the worst of ``parts`` equal stretches of the take. A phrase sharing two syllables of
    three with the chant ("Canto") is close on average but far on the syllable it lacks."""
    pairs, costs = path(query, template, band)
    if len(costs) == 0 or not np.all(np.isfinite(costs)):
        return float("inf")
    part = pairs[:, 1] * parts // len(template)
    weakest = max(costs[part == k].mean() for k in range(parts) if np.any(part == k))
    return float(0.5 * (costs.mean() + weakest))

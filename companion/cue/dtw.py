"""Dynamic time warping: how far a heard phrase is from each enrolled chant, whatever its tempo.

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


def distances(query: np.ndarray, templates: Sequence[np.ndarray], band: float = 0.35) -> np.ndarray:
    """(n, d) query against T templates of shape (m_t, d) -> (T,) path-normalised DTW costs
    (``inf`` where no alignment fits the band)."""
    if len(templates) == 0:
        return np.zeros(0)
    if len(query) == 0:
        return np.full(len(templates), np.inf)
    stack, lengths = _pad(templates)
    costs = frame_costs(query.astype(np.float64), stack)
    costs[~band_mask(len(query), lengths, stack.shape[1], band)] = np.inf
    total, steps = _accumulate(costs)
    rows = np.arange(len(templates))
    return total[rows, len(query), lengths] / steps[rows, len(query), lengths]


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


def distance(query: np.ndarray, template: np.ndarray, band: float = 0.35) -> float:
    """(n, d) against (m, d) -> one path-normalised DTW cost."""
    return float(distances(query, [template], band)[0])

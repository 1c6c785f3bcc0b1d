"""Hands drawn from plain geometry, for the tests of what is computed from landmarks."""
from __future__ import annotations

import numpy as np

from vision.hands import Hand


def _rotate(v: np.ndarray, degrees: float) -> np.ndarray:
    a = np.radians(degrees)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) @ v


def drawn_hand(wrist: tuple[float, float], forward_deg: float, size: float = 100.0,
               index_deg: float | None = None, curl_deg: float = 0.0, score: float = 0.9) -> Hand:
    """A right hand seen from above. Angles are image angles (0 = +x, 90 = +y, i.e. down).

    forward_deg: the way from the wrist to the knuckles; index_deg: the way the index finger's
    first bone points (default: forward); curl_deg: how much each further bone bends."""
    w = np.asarray(wrist, dtype=np.float64)
    forward = _rotate(np.array([1.0, 0.0]), forward_deg)
    side = _rotate(forward, 90.0)
    marks = np.zeros((21, 2))
    marks[0] = w
    for finger, lateral in enumerate((-0.45, -0.25, 0.0, 0.2, 0.4)):  # thumb .. little finger
        root = w + forward * size * (0.5 if finger == 0 else 0.9) + side * lateral * size
        bone = forward if finger else _rotate(forward, -40.0)
        if finger == 1 and index_deg is not None:
            bone = _rotate(np.array([1.0, 0.0]), index_deg)
        first = 1 + 4 * finger
        marks[first] = root
        for k, length in enumerate((0.3, 0.2, 0.18)):
            bone = _rotate(bone, curl_deg if (finger == 1 and k) else 0.0)
            marks[first + k + 1] = marks[first + k] + bone * length * size
    return Hand(marks, "Right", score)

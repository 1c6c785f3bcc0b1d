"""The versions of one image that the hand model is shown, and how their hands are merged.

Every function takes and returns BGR uint8 images of shape (H, W, 3); offsets are (2,) pixel
vectors to subtract from a view's coordinates to get the original image's coordinates.
"""
from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.hands.config import HandsConfig
from vision.hands.hand import Hand

View = Callable[[np.ndarray, HandsConfig], tuple[np.ndarray, np.ndarray]]


def plain(image: np.ndarray, config: HandsConfig) -> tuple[np.ndarray, np.ndarray]:
    return image, np.zeros(2)


def padded(image: np.ndarray, config: HandsConfig) -> tuple[np.ndarray, np.ndarray]:
    """A replicated border: the arm continues past the edge, so a cut-off palm looks whole."""
    pad = int(round(config.pad_fraction * max(image.shape[:2])))
    bordered = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    return bordered, np.array([pad, pad], dtype=np.float64)


def swapped(image: np.ndarray, config: HandsConfig) -> tuple[np.ndarray, np.ndarray]:
    """Padded, red and blue swapped: pale or cold-lit skin turns warm."""
    bordered, offset = padded(image, config)
    return np.ascontiguousarray(bordered[..., ::-1]), offset


VIEWS: dict[str, View] = {"plain": plain, "padded": padded, "swapped": swapped}


def paint_out(image: np.ndarray, hands: list[Hand], grow: float = 0.1) -> np.ndarray:
    """A copy of the image with each hand's outline filled with the image's median colour."""
    out = image.copy()
    fill = tuple(int(c) for c in np.median(image.reshape(-1, 3), axis=0))
    for hand in hands:
        centre = hand.landmarks.mean(axis=0)
        grown = centre + (hand.landmarks - centre) * (1.0 + grow)
        hull = cv2.convexHull(np.round(grown).astype(np.int32))
        cv2.fillConvexPoly(out, hull, fill)
    return out


def same_hand(a: Hand, b: Hand, config: HandsConfig) -> bool:
    """Whether two detections are one hand: landmarks close relative to the hand's size."""
    spread = float(np.linalg.norm(a.landmarks - b.landmarks, axis=1).mean())
    return spread < config.same_hand_distance * max(a.size_px, b.size_px, 1.0)


def merge(found: list[Hand], new: list[Hand], config: HandsConfig) -> list[Hand]:
    """Add new hands to found ones; of two detections of one hand the surer one stays."""
    merged = list(found)
    for hand in new:
        twin = next((i for i, h in enumerate(merged) if same_hand(h, hand, config)), None)
        if twin is None:
            merged.append(hand)
        elif hand.score > merged[twin].score:
            merged[twin] = hand
    return merged

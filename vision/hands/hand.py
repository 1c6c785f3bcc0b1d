"""One hand seen in one image: 21 landmarks in pixels, which hand of the person it is, how sure."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

Handedness = Literal["Left", "Right"]

# MediaPipe's landmark numbering (the same in the legacy solution and the Tasks API).
WRIST = 0
THUMB_TIP = 4
INDEX_MCP, INDEX_PIP, INDEX_DIP, INDEX_TIP = 5, 6, 7, 8
MIDDLE_MCP, RING_MCP, PINKY_MCP = 9, 13, 17
INDEX_FINGER = (INDEX_MCP, INDEX_PIP, INDEX_DIP, INDEX_TIP)
PALM = (WRIST, INDEX_MCP, MIDDLE_MCP, RING_MCP, PINKY_MCP)


@dataclass(frozen=True, eq=False)
class Hand:
    """A hand found in an image.

    landmarks: (21, 2) float64, pixel x, y in the image the tracker was given.
    z: (21,) float64 relative depth (MediaPipe's scale, wrist ~0, smaller is nearer), or None.
    handedness: the PERSON's hand ("Right" is their right hand), already un-mirrored.
    score: handedness/presence confidence in [0, 1].
    """

    landmarks: np.ndarray
    handedness: Handedness
    score: float
    z: np.ndarray | None = None

    def __post_init__(self) -> None:
        if np.shape(self.landmarks) != (21, 2):
            raise ValueError(f"a hand has 21 (x, y) landmarks, got shape {np.shape(self.landmarks)!r}")
        if self.handedness not in ("Left", "Right"):
            raise ValueError(f"handedness must be 'Left' or 'Right', not {self.handedness!r}")

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Bounding box of the landmarks: (x0, y0, x1, y1) in pixels."""
        (x0, y0), (x1, y1) = self.landmarks.min(axis=0), self.landmarks.max(axis=0)
        return float(x0), float(y0), float(x1), float(y1)

    @property
    def size_px(self) -> float:
        """Diagonal of the bounding box: the hand's apparent size."""
        x0, y0, x1, y1 = self.box
        return float(np.hypot(x1 - x0, y1 - y0))

    def palm_center(self) -> np.ndarray:
        """(2,) mean of the wrist and the four finger roots, in pixels."""
        return self.landmarks[list(PALM)].mean(axis=0)

    def index_direction(self) -> np.ndarray:
        """(2,) unit vector along the index finger, from its root (MCP/PIP) towards its tip.

        A line fitted through all four index joints, so one jittery joint does not swing it."""
        joints = self.landmarks[list(INDEX_FINGER)]
        _, _, vt = np.linalg.svd(joints - joints.mean(axis=0))
        axis = vt[0]
        return axis if np.dot(axis, joints[-1] - joints[0]) >= 0 else -axis

    def forward_direction(self) -> np.ndarray:
        """(2,) unit vector from the wrist to the middle finger's root: the way the hand reaches."""
        v = self.landmarks[MIDDLE_MCP] - self.landmarks[WRIST]
        return v / max(float(np.linalg.norm(v)), 1e-9)

    def index_straightness(self) -> float:
        """1.0 for a straight index finger, lower as it curls: chord MCP->tip over the joint path."""
        joints = self.landmarks[list(INDEX_FINGER)]
        path = float(np.linalg.norm(np.diff(joints, axis=0), axis=1).sum())
        return float(np.linalg.norm(joints[-1] - joints[0])) / max(path, 1e-9)

    def moved(self, offset: np.ndarray, scale: float = 1.0) -> Hand:
        """The same hand in another image's pixels: (landmarks - offset) / scale."""
        return Hand((self.landmarks - offset) / scale, self.handedness, self.score, self.z)

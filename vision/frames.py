"""Frames and the one seam every camera sits behind."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


@dataclass(frozen=True)
class Frame:
    """One camera image.

    image: HxWx3 uint8, BGR (OpenCV's order).
    t: host monotonic time in seconds (``time.monotonic()``) when the frame was exposed, so frames
       line up with the cue and with button presses.
    index: frame counter of its source, starting at 0.
    """

    image: np.ndarray
    t: float
    index: int


class FrameSource(Protocol):
    """A camera, a recording or a rendered scene: the pipeline never knows which."""

    def read(self) -> Frame | None:
        """The next frame, or None when the source has ended (a recording) or is unavailable."""

    def close(self) -> None:
        """Release the device."""

"""Frames and the one seam every camera sits behind."""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable
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


class Passing:
    """A frame source that shows each frame it hands on to ``each`` first (kept for a look back, or
    written to a recording); ``close`` closes the source."""

    def __init__(self, source: FrameSource, each: Callable[[Frame], None]) -> None:
        self.source, self.each = source, each

    def read(self) -> Frame | None:
        frame = self.source.read()
        if frame is not None:
            self.each(frame)
        return frame

    def close(self) -> None:
        self.source.close()

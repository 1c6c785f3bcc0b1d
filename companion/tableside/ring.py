"""The last moments of camera pictures, so a casting can be read from the instant of its cue.

The camera thread ``add``s every frame; a reading asks for the frames from the cue on with
``since(t)``, which behaves as a ``vision.frames.FrameSource``: each ``read()`` returns the next
frame, waiting for the camera when it has none yet, and None once the deadline has passed.
"""
from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from vision.frames import Frame

KEEP_S = 2.0     # a cue is heard well within this of the last syllable
MAX_FRAMES = 90  # 640x480 BGR frames are ~0.9 MB each


class FrameRing:
    def __init__(self, keep_s: float = KEEP_S, max_frames: int = MAX_FRAMES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.keep_s, self.clock = keep_s, clock
        self._frames: deque[Frame] = deque(maxlen=max_frames)
        self._arrived = threading.Condition()

    def add(self, frame: Frame) -> None:
        with self._arrived:
            self._frames.append(frame)
            while self._frames and self._frames[0].t < frame.t - self.keep_s:
                self._frames.popleft()
            self._arrived.notify_all()

    def latest(self) -> Frame | None:
        with self._arrived:
            return self._frames[-1] if self._frames else None

    def next_after(self, t: float, deadline: float) -> Frame | None:
        """The oldest frame exposed after ``t``, waiting until ``deadline`` (clock time) for one."""
        with self._arrived:
            while True:
                found = next((f for f in self._frames if f.t > t), None)
                left = deadline - self.clock()
                if found is not None or left <= 0:
                    return found
                self._arrived.wait(min(left, 0.1))

    def since(self, t: float, timeout_s: float) -> RingSource:
        return RingSource(self, t, self.clock() + timeout_s)


class RingSource:
    """Frames from ``t`` on, in order, until ``deadline``: the pipeline's frame source for one reading."""

    def __init__(self, ring: FrameRing, t: float, deadline: float) -> None:
        self.ring, self.deadline = ring, deadline
        self._last = t - 1e-6  # the frame exposed at the cue itself counts

    def read(self) -> Frame | None:
        frame = self.ring.next_after(self._last, self.deadline)
        if frame is not None:
            self._last = frame.t
        return frame

    def close(self) -> None:
        self.deadline = 0.0

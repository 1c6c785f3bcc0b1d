"""OpenCV ``VideoCapture``: USB webcams by index, and recorded video files."""
from __future__ import annotations

import time
from pathlib import Path
from collections.abc import Callable

import cv2

from vision.frames import Frame
from vision.sources.errors import SourceUnavailable

Clock = Callable[[], float]


def _opened(target: int | str, what: str) -> cv2.VideoCapture:
    capture = cv2.VideoCapture(target)
    if not capture.isOpened():
        capture.release()
        raise SourceUnavailable(f"cannot open {what}")
    return capture


class WebcamSource:
    """A live camera through ``cv2.VideoCapture(index)``; each frame is stamped when it arrives."""

    def __init__(self, index: int, size: tuple[int, int] | None = (640, 480), clock: Clock = time.monotonic) -> None:
        self.index, self._clock, self._count = index, clock, 0
        self._capture = _opened(index, f"camera {index!r}: is a USB camera plugged in (see `ls /dev/video*`)?")
        if size is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> Frame | None:
        ok, image = self._capture.read()
        if not ok or image is None:
            return None
        self._count += 1
        return Frame(image, self._clock(), self._count - 1)

    def close(self) -> None:
        self._capture.release()


class VideoFileSource:
    """A recorded session as a video file. Frames keep the recording's own timeline,
    ``start + position in the video``, so they line up with a recorded cue and button log."""

    def __init__(self, path: str | Path, start: float = 0.0) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise SourceUnavailable(f"no video file at {str(self.path)!r}")
        self._capture = _opened(str(self.path), f"video {str(self.path)!r}: not a video OpenCV can read")
        self._fps = self._capture.get(cv2.CAP_PROP_FPS) or 0.0
        self.start, self._count = start, 0

    def _time_of(self, index: int) -> float:
        """Seconds into the recording: from the frame rate when known, which is exact for
        constant-rate recordings, else OpenCV's position (ms) of the frame just decoded."""
        if self._fps > 0:
            return index / self._fps
        return self._capture.get(cv2.CAP_PROP_POS_MSEC) / 1000.0

    def read(self) -> Frame | None:
        ok, image = self._capture.read()
        if not ok or image is None:
            return None
        self._count += 1
        return Frame(image, self.start + self._time_of(self._count - 1), self._count - 1)

    def close(self) -> None:
        self._capture.release()

"""The camera as the guided flow sees it: the latest picture, kept fresh by one thread.

The tablet shows it as a JPEG it asks for a few times a second; the steps take the latest picture
(the table, the layout) or the pictures of the next few seconds (the wands, the validation). A
source that ends (a recording, a rendered casting) is opened again, so the picture never freezes.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

import cv2
import numpy as np

from companion.threads import Background
from vision.frames import Frame, FrameSource

Opener = Callable[[], FrameSource]
FPS = 10.0  # plenty for a person tapping on a picture, and gentle on a Pi's CPU
RETRY_S = 1.0  # a camera that fails to open is tried again at this pace, not ten times a second


class NoPicture(ValueError):
    """The camera has sent no picture yet (or stopped sending them)."""


class LiveFeed(Background):
    def __init__(self, opener: Opener, fps: float = FPS, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__("calibration-feed", join_s=3)
        self.opener, self.period, self.clock = opener, 1.0 / fps, clock
        self._latest: Frame | None = None
        self._error = "the camera has not sent a picture yet"
        self._arrived = threading.Condition()

    def _run(self) -> None:
        source: FrameSource | None = None
        while not self._stop.is_set():
            started = self.clock()
            try:
                source = source or self.opener()
                frame = source.read()
            except Exception as e:  # noqa: BLE001 - a camera that fails is said on the page, and tried again
                frame, self._error = None, f"the camera is not answering ({e})"
                self._stop.wait(RETRY_S)
            if frame is None and source is not None:
                source.close()
                source = None  # ended or failed: open it again on the next turn
            elif frame is not None:
                with self._arrived:
                    self._latest = Frame(frame.image, self.clock(), frame.index)
                    self._arrived.notify_all()
            self._stop.wait(max(0.0, self.period - (self.clock() - started)))
        if source is not None:
            source.close()

    def latest(self) -> Frame:
        """The newest picture; NoPicture names why there is none."""
        with self._arrived:
            if self._latest is None:
                raise NoPicture(f"no picture from the camera: {self._error}; is it plugged in?")
            return self._latest

    def wait_first(self, timeout_s: float = 10.0) -> Frame:
        with self._arrived:
            self._arrived.wait_for(lambda: self._latest is not None, timeout_s)
        return self.latest()

    def gather(self, seconds: float, stop: threading.Event | None = None) -> list[Frame]:
        """Every new picture of the next ``seconds`` (wall clock), or until ``stop`` is set."""
        frames: list[Frame] = []
        end = self.clock() + seconds
        last_t = self._latest.t if self._latest else -1.0
        with self._arrived:
            while (left := end - self.clock()) > 0 and not (stop is not None and stop.is_set()):
                self._arrived.wait(min(left, 0.2))
                if self._latest is not None and self._latest.t > last_t:
                    frames.append(self._latest)
                    last_t = self._latest.t
        return frames

    def jpeg(self, quality: int = 80) -> bytes:
        return encode_jpeg(self.latest().image, quality)


def encode_jpeg(image: np.ndarray, quality: int = 80) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise NoPicture("the camera's picture could not be encoded")
    return bytes(data.tobytes())


class LatestSource:
    """A FrameSource over a camera that something else already reads (the table side's frame ring):
    each read gives its newest picture, or None when it has none, so the feed opens it again."""

    def __init__(self, latest: Callable[[], Frame | None]) -> None:
        self.latest = latest

    def read(self) -> Frame | None:
        return self.latest()

    def close(self) -> None:
        pass

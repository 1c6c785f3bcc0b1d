"""The Raspberry Pi camera through picamera2, which on the Pi comes from apt, not from PyPI."""
from __future__ import annotations

import time
from typing import Any
from collections.abc import Callable

import numpy as np

from vision.frames import Frame
from vision.sources.errors import SourceUnavailable

INSTALL_HINT = (
    "picamera2 is not installed: on the Raspberry Pi run `sudo apt install python3-picamera2`, "
    "and build Incanto's venv with `python3 -m venv --system-site-packages .venv` so it can see it")


def _picamera2_class() -> Any:
    try:
        from picamera2 import Picamera2
    except ImportError as e:
        raise SourceUnavailable(INSTALL_HINT) from e
    return Picamera2


class Picamera2Source:
    """Frames from the Pi camera in BGR (picamera2's "RGB888" is laid out B, G, R, as OpenCV
    wants). Each frame is stamped with the sensor's exposure time when that time is on the
    monotonic clock, else with the time it arrived."""

    def __init__(self, size: tuple[int, int] = (640, 480), clock: Callable[[], float] = time.monotonic) -> None:
        self._clock, self._count = clock, 0
        try:
            self._camera = _picamera2_class()()
        except (RuntimeError, IndexError) as e:  # picamera2 raises these when no camera is attached
            raise SourceUnavailable(f"no Raspberry Pi camera found ({e}): check the ribbon cable") from e
        self._camera.configure(self._camera.create_video_configuration(main={"size": size, "format": "RGB888"}))
        self._camera.start()

    def _stamp(self, metadata: dict[str, Any]) -> float:
        arrived = self._clock()
        sensor_ns = metadata.get("SensorTimestamp")
        if sensor_ns is None or self._clock is not time.monotonic:
            return arrived
        sensor = sensor_ns / 1e9
        return sensor if 0.0 <= arrived - sensor < 1.0 else arrived

    def read(self) -> Frame | None:
        try:
            request = self._camera.capture_request()
        except RuntimeError:
            return None
        try:
            image, metadata = request.make_array("main"), request.get_metadata()
        finally:
            request.release()
        self._count += 1
        return Frame(np.ascontiguousarray(image[:, :, :3]), self._stamp(metadata), self._count - 1)

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()

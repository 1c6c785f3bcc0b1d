"""One function that turns a source description into a frame source.

    picamera2            the Raspberry Pi camera
    camera:0, 0          a USB camera through OpenCV (index 0)
    PATH.mp4             a recorded video file
    FOLDER               a folder of images (times from timestamps.csv, else from fps)
    render:NAME...       a rendered scene (vision.render.source.open_rendered)
"""
from __future__ import annotations

import importlib
import time
from pathlib import Path
from collections.abc import Callable

from vision.frames import FrameSource
from vision.sources.capture import VideoFileSource, WebcamSource
from vision.sources.errors import BadSourceSpec, SourceUnavailable
from vision.sources.folder import ImageFolderSource
from vision.sources.picamera import Picamera2Source

FORMS = "'picamera2', 'camera:N' or N, a video file, an image folder, or 'render:...'"


def camera_index(spec: str | int) -> int | None:
    """The index of a USB camera spec ('camera:1', '1' or 1), or None if it is not one."""
    if isinstance(spec, int):
        return spec
    text = spec.removeprefix("camera:")
    if text.isdigit():
        return int(text)
    if spec.startswith("camera:"):
        raise BadSourceSpec(f"camera source {spec!r} needs a number, like 'camera:0'")
    return None


def open_rendered(spec: str) -> FrameSource:
    try:
        module = importlib.import_module("vision.render.source")
    except ImportError as e:
        raise SourceUnavailable(f"cannot open {spec!r}: rendered scenes need vision.render.source, "
                                f"which is not available ({e})") from e
    return module.open_rendered(spec)  # type: ignore[no-any-return]


def open_source(spec: str | int, *, fps: float | None = None, size: tuple[int, int] = (640, 480),
                clock: Callable[[], float] = time.monotonic) -> FrameSource:
    """Open the source a spec describes; BadSourceSpec or SourceUnavailable name what is wrong."""
    index = camera_index(spec)
    if index is not None:
        return WebcamSource(index, size, clock)
    assert isinstance(spec, str)
    if spec == "picamera2":
        return Picamera2Source(size, clock)
    if spec.startswith("render:"):
        return open_rendered(spec)
    path = Path(spec).expanduser()
    if path.is_dir():
        return ImageFolderSource(path, fps)
    if path.is_file():
        return VideoFileSource(path)
    raise SourceUnavailable(f"source {spec!r} is neither a camera nor an existing file or folder; "
                            f"give one of {FORMS}")

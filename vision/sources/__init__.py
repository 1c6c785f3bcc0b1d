"""Camera sources behind one interface (``vision.frames.FrameSource``): the Pi camera, USB
cameras, recorded sessions and rendered scenes; and ``CameraWatch``, which keeps a game going
when a camera is unplugged and picks it up again when it is back."""
from vision.sources.capture import VideoFileSource, WebcamSource
from vision.sources.errors import BadSourceSpec, SourceUnavailable
from vision.sources.folder import ImageFolderSource
from vision.sources.open import open_source
from vision.sources.picamera import Picamera2Source
from vision.sources.watch import Backoff, CameraStatus, CameraWatch

__all__ = [
    "open_source", "CameraWatch", "CameraStatus", "Backoff", "BadSourceSpec", "SourceUnavailable",
    "WebcamSource", "VideoFileSource", "ImageFolderSource", "Picamera2Source",
]

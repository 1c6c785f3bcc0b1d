"""The calibration tool's error, and the profile's own camera and table put together for the table
side's rendered camera, which writes its perfect calibration through ``save``.

The one file that vision and the cue read is the profile (``vision.profile.Profile``); ``save`` writes
exactly that."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vision.profile import CameraIntrinsics, ImageSize, Profile, TablePose, save_profile


class CalibrationError(ValueError):
    """A step that cannot be done, or a profile that cannot be used, said in plain words (a ``Said``
    when a tablet may show it: then in the tablet's language)."""


@dataclass(frozen=True)
class MeasuredCamera:
    """The profile's camera model at the image size it was measured at (a profile keeps the two apart)."""

    image: ImageSize
    intrinsics: CameraIntrinsics


@dataclass(frozen=True)
class Calibration:
    camera: MeasuredCamera
    table: TablePose | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def profile(self) -> Profile:
        return Profile(image=self.camera.image, camera=self.camera.intrinsics, table=self.table, notes=self.extra)


def save(calibration: Calibration, path: Path) -> None:
    """Write it as a profile, atomically."""
    save_profile(calibration.profile(), Path(path))

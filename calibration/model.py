"""The calibration tool's error, and a plain-values view of a profile's camera and table kept for the
table side's rendered camera, which writes its perfect calibration through ``save``.

The one file that vision and the cue read is the profile (``vision.profile.Profile``); ``save`` writes
exactly that."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vision.profile import CameraIntrinsics as ProfileIntrinsics
from vision.profile import ImageSize, Profile, save_profile
from vision.profile import TablePose as ProfileTablePose


class CalibrationError(ValueError):
    """A step that cannot be done, or a profile that cannot be used, said in plain words."""


@dataclass(frozen=True)
class CameraIntrinsics:
    """Pinhole model with OpenCV's distortion coefficients (k1, k2, p1, p2, k3), at an image size."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0)
    rms_px: float | None = None


@dataclass(frozen=True)
class TablePose:
    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]
    rms_px: float | None = None


@dataclass(frozen=True)
class Calibration:
    camera: CameraIntrinsics
    table: TablePose | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def profile(self) -> Profile:
        c, t = self.camera, self.table
        dist = (tuple(float(v) for v in c.dist) + (0.0,) * 5)[:5]
        camera = ProfileIntrinsics(fx=c.fx, fy=c.fy, cx=c.cx, cy=c.cy, dist=dist, rms_px=c.rms_px)  # type: ignore[arg-type]
        table = None if t is None else ProfileTablePose(rvec=t.rvec, tvec=t.tvec, rms_px=t.rms_px)
        return Profile(image=ImageSize(width=c.width, height=c.height), camera=camera, table=table, notes=self.extra)


def save(calibration: Calibration, path: Path) -> None:
    """Write it as a profile, atomically."""
    save_profile(calibration.profile(), Path(path))

"""What calibration measures, as plain values saved to one JSON file that vision reads."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

SCHEMA = 1


class CalibrationError(ValueError):
    """A calibration file that is missing, damaged or of an unknown version."""


@dataclass(frozen=True)
class CameraIntrinsics:
    """Pinhole model with OpenCV's distortion coefficients (k1, k2, p1, p2, k3)."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0)
    rms_px: float | None = None  # reprojection error of the calibration, if measured

    def matrix(self) -> np.ndarray:
        """3x3 camera matrix K."""
        return np.array([[self.fx, 0, self.cx], [0, self.fy, self.cy], [0, 0, 1]], dtype=np.float64)

    def dist_coeffs(self) -> np.ndarray:
        """(N,) float64 distortion coefficients."""
        return np.asarray(self.dist, dtype=np.float64)


@dataclass(frozen=True)
class TablePose:
    """Where the table plane is: the table frame has its origin at a table corner, x and y along the
    table in millimetres, z up. ``rvec``/``tvec`` map table coordinates into camera coordinates
    (OpenCV's solvePnP convention)."""

    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]
    rms_px: float | None = None


@dataclass(frozen=True)
class Calibration:
    camera: CameraIntrinsics
    table: TablePose | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def table_calibrated(self) -> bool:
        return self.table is not None


def save(calibration: Calibration, path: Path) -> None:
    """Write atomically, so a pulled plug never leaves half a file."""
    data = {"schema": SCHEMA, **asdict(calibration)}
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2))
    tmp.replace(path)


def load(path: Path) -> Calibration:
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise CalibrationError(f"no calibration at {str(path)!r}: run `python -m calibration` first") from None
    except json.JSONDecodeError as e:
        raise CalibrationError(f"calibration file {str(path)!r} is damaged: {e}") from None
    if data.get("schema") != SCHEMA:
        raise CalibrationError(f"calibration file {str(path)!r} has schema {data.get('schema')!r}, expected {SCHEMA}")
    cam = data["camera"]
    camera = CameraIntrinsics(**{**cam, "dist": tuple(cam.get("dist", ()))})
    table = data.get("table")
    pose = TablePose(tuple(table["rvec"]), tuple(table["tvec"]), table.get("rms_px")) if table else None
    return Calibration(camera, pose, data.get("extra", {}))

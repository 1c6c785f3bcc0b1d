"""What is calibrated, what to run next, and the refusal of an uncalibrated table."""
from __future__ import annotations

import os
from pathlib import Path

from calibration.model import Calibration, CalibrationError, load

CAMERA_COMMAND = "python -m calibration camera --images 'board/*.jpg' --board chessboard:9x6:25"
TABLE_COMMAND = "python -m calibration table --source picamera2"


def default_path() -> Path:
    """``$INCANTO_CALIBRATION``, else the file vision's configuration names (``calibration_file``), so
    the tool writes exactly what the camera pipeline reads."""
    if "INCANTO_CALIBRATION" in os.environ:
        return Path(os.environ["INCANTO_CALIBRATION"])
    from vision.config import load_config  # imported late: the tool's other steps need no vision

    return load_config().calibration_file


def load_if_present(path: Path) -> Calibration | None:
    return load(path) if Path(path).exists() else None


def require_camera(path: Path) -> Calibration:
    if not Path(path).exists():
        raise CalibrationError(f"the camera is not calibrated (no {str(path)!r}): photograph a printed "
                               f"chessboard 10-20 times from different angles, then run `{CAMERA_COMMAND}`")
    return load(path)


def require_table(path: Path) -> Calibration:
    """The calibration, if it knows where the table is; else CalibrationError naming what to run."""
    calibration = require_camera(path)
    if not calibration.table_calibrated:
        raise CalibrationError(f"the table is not calibrated in {str(path)!r}: lay the table markers at "
                               f"their places, clear the table, then run `{TABLE_COMMAND}`")
    return calibration


def describe(path: Path) -> list[str]:
    """Lines for `python -m calibration status`: what is known, then the next step."""
    try:
        calibration = load_if_present(path)
    except CalibrationError as e:
        return [f"calibration file: {e}", f"next: run `{CAMERA_COMMAND}` to start again"]
    if calibration is None:
        return [f"calibration file: {str(path)!r} (not there yet)", "camera: not calibrated",
                "table: not calibrated", f"next: `{CAMERA_COMMAND}`"]
    return [f"calibration file: {str(path)!r}", _camera_line(calibration), *_table_lines(calibration)]


def _camera_line(calibration: Calibration) -> str:
    c = calibration.camera
    rms = "" if c.rms_px is None else f", reprojection error {c.rms_px:.2f} px"
    return f"camera: calibrated {c.width}x{c.height}, fx {c.fx:.1f} fy {c.fy:.1f}, centre ({c.cx:.1f}, {c.cy:.1f}){rms}"


def _table_lines(calibration: Calibration) -> list[str]:
    if calibration.table is None:
        return ["table: not calibrated", f"next: `{TABLE_COMMAND}`"]
    t = calibration.table
    rms = "" if t.rms_px is None else f", marker fit {t.rms_px:.2f} px"
    height = float(sum(v * v for v in t.tvec)) ** 0.5
    return [f"table: calibrated, camera {height / 1000:.2f} m from the table corner{rms}",
            "next: nothing; re-run the table step whenever the camera or the table moves"]

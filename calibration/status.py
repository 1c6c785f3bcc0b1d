"""What is calibrated, what to run next, and the refusal of an uncalibrated table."""
from __future__ import annotations

import os
import time
from pathlib import Path

import cv2
import numpy as np

from calibration.model import CalibrationError
from calibration.profiles import changes, load, load_if_present, load_kept
from vision.profile import Profile

CAMERA_COMMAND = "python -m calibration camera --images 'board/*.jpg' --board chessboard:9x6:25"
TABLE_COMMAND = "python -m calibration table --source picamera2"
WANDS_COMMAND = "python -m calibration wands --source picamera2"
LAYOUT_COMMAND = "python -m calibration layout --game incantibus --taps TAPS.json"

__all__ = ["CAMERA_COMMAND", "TABLE_COMMAND", "default_path", "describe", "load_if_present", "require_camera",
           "require_table"]


def default_path() -> Path:
    """``$INCANTO_PROFILE`` (or the older ``$INCANTO_CALIBRATION``), else the file vision's configuration
    names (``calibration_file``), so the tool writes exactly what the camera pipeline reads."""
    for name in ("INCANTO_PROFILE", "INCANTO_CALIBRATION"):
        if name in os.environ:
            return Path(os.environ[name])
    from vision.config import load_config  # imported late: the tool's other steps need no vision settings

    return load_config().calibration_file


def require_camera(path: Path, resolution: tuple[int, int] | None = None) -> Profile:
    if not Path(path).exists():
        raise CalibrationError(f"the camera is not calibrated (no {str(path)!r}): photograph a printed "
                               f"chessboard 10-20 times from different angles, then run `{CAMERA_COMMAND}`")
    return load(path, resolution)


def require_table(path: Path, resolution: tuple[int, int] | None = None) -> Profile:
    """The profile, if it knows where the table is; else CalibrationError naming what to run."""
    profile = require_camera(path, resolution)
    if profile.table is None:
        raise CalibrationError(f"the table is not calibrated in {str(path)!r}: lay the table markers at "
                               f"their places, clear the table, then run `{TABLE_COMMAND}`")
    return profile


def describe(path: Path, resolution: tuple[int, int] | None = None) -> list[str]:
    """Lines for `python -m calibration status`: what is known, then the next step; with the camera's
    ``resolution``, a profile made for another is refused and the last good one described."""
    if not Path(path).exists():
        return [f"profile: {str(path)!r} (not there yet)", "camera: not calibrated",
                "table: not calibrated", f"next: `{CAMERA_COMMAND}`"]
    try:
        profile, refused = load_kept(path, resolution)
    except CalibrationError as e:
        return [f"profile: {e}", f"next: run `{CAMERA_COMMAND}` to start again"]
    lines = [f"profile: {str(path)!r}"] + ([f"refused: {refused}"] if refused else [])
    return lines + [_camera_line(profile), *_table_lines(profile), _wands_line(profile), _places_line(profile),
                    _cue_line(profile), *_change_line(path), _next(profile)]


def _change_line(path: Path) -> list[str]:
    """The last change: what, when (UTC) and from where, so a calibration nobody at the table made is seen."""
    last = changes(path, 1)
    if not last:
        return []
    at = last[0].get("at")
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at)) if isinstance(at, (int, float)) else "at an unknown time"
    return [f"last change: {last[0].get('what', '?')}, {when}, from {last[0].get('by', '?')} "
            f"(calibration {last[0].get('version')}; earlier ones can be rolled back to)"]


def _camera_line(profile: Profile) -> str:
    c, (w, h) = profile.camera, profile.resolution()
    rms = "" if c.rms_px is None else f", reprojection error {c.rms_px:.2f} px"
    return f"camera: calibrated {w}x{h}, fx {c.fx:.1f} fy {c.fy:.1f}, centre ({c.cx:.1f}, {c.cy:.1f}){rms}"


def _table_lines(profile: Profile) -> list[str]:
    if profile.table is None:
        return ["table: not calibrated"]
    t = profile.table
    rms = "" if t.rms_px is None else f", marker fit {t.rms_px:.2f} px"
    rotation = cv2.Rodrigues(np.array(t.rvec))[0]
    height = float((-rotation.T @ np.array(t.tvec))[2])  # the camera's centre in table mm, z up
    return [f"table: calibrated, camera {height / 1000:.2f} m above the table{rms}"]


def _wands_line(profile: Profile) -> str:
    if not profile.wands:
        return "wands: not learned"
    return "wands: " + ", ".join(f"{k}: hue {m.hue:.0f}, bead {m.bead_radius_mm:.1f} mm" for k, m in sorted(profile.wands.items()))


def _places_line(profile: Profile) -> str:
    if profile.places is None:
        return "places: not laid out"
    count = len(profile.places.tokens) if profile.places.tokens else "a file of"
    return f"places: {count} places laid out" if profile.places.tokens else f"places: from {profile.places.file!r}"


def _cue_line(profile: Profile) -> str:
    return "cue: recorded" if profile.cue and profile.cue.templates else "cue: not recorded (the tablet's calibration page records it)"


def _next(profile: Profile) -> str:
    if profile.table is None:
        return f"next: `{TABLE_COMMAND}`"
    if not profile.wands:
        return f"next: `{WANDS_COMMAND}`"
    if profile.places is None:
        return f"next: `{LAYOUT_COMMAND}`"
    return "next: nothing; re-run the table step whenever the camera or the table moves"

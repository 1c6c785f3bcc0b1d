"""What is calibrated, what to run next, and the refusal of an uncalibrated table."""
from __future__ import annotations

import os
import time
from pathlib import Path

import cv2
import numpy as np

from calibration.model import CalibrationError
from calibration.profiles import changes, load, load_if_present, load_kept
from companion.words.said import Said, said_again
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
        return [f"profile: {str(path)!r} (not there yet)", Said("calibration.known.no_camera", "camera: not calibrated"),
                Said("calibration.known.no_table", "table: not calibrated"), f"next: `{CAMERA_COMMAND}`"]
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
    what = said_again(str(last[0].get("what", "?")), last[0].get("words"))
    if not isinstance(at, (int, float)):
        return [Said("calibration.known.last_change_undated", "last change: {what}, at an unknown time, from {by} "
                     "(calibration {version}; earlier ones can be rolled back to)", what=what,
                     by=str(last[0].get("by", "?")), version=str(last[0].get("version")))]
    return [Said("calibration.known.last_change", "last change: {what}, {when}, from {by} (calibration {version}; "
                 "earlier ones can be rolled back to)", what=what,
                 when=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at)), by=str(last[0].get("by", "?")),
                 version=str(last[0].get("version")))]


# Each line of what the Pi knows names its catalogue words, so the calibration page says it in the tablet's language.
def _camera_line(profile: Profile) -> str:
    c, (w, h) = profile.camera, profile.resolution()
    values = {"size": f"{w}x{h}", "fx": f"{c.fx:.1f}", "fy": f"{c.fy:.1f}", "cx": f"{c.cx:.1f}", "cy": f"{c.cy:.1f}"}
    if c.rms_px is None:
        return Said("calibration.known.camera", "camera: calibrated {size}, fx {fx} fy {fy}, centre ({cx}, {cy})", **values)
    return Said("calibration.known.camera_rms", "camera: calibrated {size}, fx {fx} fy {fy}, centre ({cx}, {cy}), "
                "reprojection error {rms} px", rms=f"{c.rms_px:.2f}", **values)


def _table_lines(profile: Profile) -> list[str]:
    if profile.table is None:
        return [Said("calibration.known.no_table", "table: not calibrated")]
    t = profile.table
    rotation = cv2.Rodrigues(np.array(t.rvec))[0]
    height = f"{float((-rotation.T @ np.array(t.tvec))[2]) / 1000:.2f}"  # the camera's centre in table mm, z up
    if t.rms_px is None:
        return [Said("calibration.known.table", "table: calibrated, camera {metres} m above the table", metres=height)]
    return [Said("calibration.known.table_rms", "table: calibrated, camera {metres} m above the table, marker fit {rms} px",
                 metres=height, rms=f"{t.rms_px:.2f}")]


def _wands_line(profile: Profile) -> str:
    if not profile.wands:
        return Said("calibration.known.no_wands", "wands: not learned")
    wands = sorted(profile.wands.items())
    return Said("calibration.known.wands", "wands: {wands} learned; hue {hues}; tip bead {beads} mm",
                wands=", ".join(str(k) for k, _ in wands), hues=", ".join(f"{m.hue:.0f}" for _, m in wands),
                beads=", ".join(f"{m.bead_radius_mm:.1f}" for _, m in wands))


def _places_line(profile: Profile) -> str:
    if profile.places is None:
        return Said("calibration.known.no_places", "places: not laid out")
    if profile.places.tokens:
        return Said("calibration.known.places", "places: {count} places laid out", count=len(profile.places.tokens))
    return Said("calibration.known.places_file", "places: from {file}", file=repr(profile.places.file))


def _cue_line(profile: Profile) -> str:
    if profile.cue and profile.cue.templates:
        return Said("calibration.known.cue", "cue: recorded")
    return Said("calibration.known.no_cue", "cue: not recorded (the tablet's calibration page records it)")


def _next(profile: Profile) -> str:
    if profile.table is None:
        return f"next: `{TABLE_COMMAND}`"
    if not profile.wands:
        return f"next: `{WANDS_COMMAND}`"
    if profile.places is None:
        return f"next: `{LAYOUT_COMMAND}`"
    return "next: nothing; re-run the table step whenever the camera or the table moves"

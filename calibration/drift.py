"""During play: are the table's markers still where the profile says? If they are not, the camera or
the table moved since the table step, and every casting would be read against the wrong table.

Hands and wands cover markers all the time during play, so a hidden marker is no alarm; markers that
are seen but lie elsewhere are. ``MarkerWatch`` looks now and then and reports to the status board
through the ``report(device, level, message, fix)`` callable it is given.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from calibration.geometry import table_to_pixels
from calibration.table import DEFAULT_LAYOUT, TableLayout, find_markers
from companion.words.said import Said
from vision.profile import CameraIntrinsics, Profile, TablePose

DEVICE = "table markers"
TOLERANCE_PX = 4.0  # corner detection wanders about 1 px; a bumped camera moves markers by tens
MIN_SEEN = 2  # two markers that agree tell a moved table from a misread one
STEP = {"step": "table"}  # the calibration page's step that finds the table again (the status page links it)

# (device, level, message, fix, details), as StatusBoard.report
Report = Callable[[str, str, str, str, dict[str, Any]], object]


@dataclass(frozen=True)
class MarkerCheck:
    """One look: the shift of each marker seen (px, mean over its corners) and the markers not seen."""

    shifts_px: dict[int, float]
    hidden: list[int]
    tolerance_px: float = TOLERANCE_PX

    @property
    def moved(self) -> list[int]:
        return sorted(i for i, s in self.shifts_px.items() if s > self.tolerance_px)

    @property
    def checked(self) -> bool:
        return len(self.shifts_px) >= MIN_SEEN

    @property
    def level(self) -> str:
        """"warning" when the markers moved; "off" when too few are seen to tell (the markers were put
        away, or hands cover them): nothing is wrong that is known, but nothing is checked; else "ok"."""
        if self.moved_table:
            return "warning"
        return "ok" if self.checked else "off"

    @property
    def moved_table(self) -> bool:
        # One marker off while the others sit still is that marker nudged; most of them off is the view.
        return len(self.moved) * 2 > len(self.shifts_px) or (self.checked and len(self.moved) >= MIN_SEEN)

    def words(self, layout: TableLayout) -> tuple[Said, str]:
        """(message, fix) in the table's words, each naming its catalogue entry (a German tablet says it)."""
        if self.moved_table:
            worst = max(self.shifts_px.values())
            return (Said("device.markers.moved", "the camera or the table moved since the table step: markers "
                         "{markers} are up to {px} px from where they were; castings may be misread",
                         markers=", ".join(map(str, self.moved)), px=f"{worst:.0f}"),
                    Said("device.markers.moved_fix",
                         "Put the camera back, or find the table again on the calibration page's table step."))
        if not self.checked:
            return (Said("device.markers.hidden", "cannot check whether the camera or the table moved: markers "
                         "{markers} are not visible: are they covered?", markers=layout.numbered(self.hidden)),
                    Said("device.markers.hidden_fix", "Leave the markers at their places during play, uncovered."))
        seen, every = len(self.shifts_px), len(self.shifts_px) + len(self.hidden)
        if self.moved:
            return (Said("device.markers.in_place_nudged", "table markers where the table step saw them ({seen} of "
                         "{every} seen); marker {marker} was nudged", seen=seen, every=every,
                         marker=layout.numbered(self.moved[:1])), "")
        return (Said("device.markers.in_place", "table markers where the table step saw them ({seen} of {every} seen)",
                     seen=seen, every=every), "")


def check_markers(image: np.ndarray, camera: CameraIntrinsics, pose: TablePose, layout: TableLayout,
                  tolerance_px: float = TOLERANCE_PX) -> MarkerCheck:
    """Compare the markers in an (H, W, 3) BGR frame with where the profile's pose puts them."""
    seen = find_markers(image, layout.dictionary)
    shifts = {}
    for marker_id in layout.markers:
        if marker_id in seen:
            expected = table_to_pixels(layout.corners_mm(marker_id), camera.matrix(), camera.dist_coeffs(),
                                       np.array(pose.rvec), np.array(pose.tvec))
            shifts[marker_id] = float(np.mean(np.linalg.norm(seen[marker_id] - expected, axis=1)))
    return MarkerCheck(shifts, sorted(set(layout.markers) - set(shifts)), tolerance_px)


class MarkerWatch:
    """Checks a frame every ``every_s`` seconds of frame time and reports when the verdict changes."""

    def __init__(self, camera: CameraIntrinsics, pose: TablePose, layout: TableLayout, report: Report,
                 every_s: float = 10.0) -> None:
        self.camera, self.pose, self.layout, self.report = camera, pose, layout, report
        self.every_s = every_s
        self.last: MarkerCheck | None = None
        self._next_t: float | None = None
        self._said: tuple[str, str] | None = None

    def look(self, image: np.ndarray, t: float) -> MarkerCheck | None:
        """Check this frame if it is time; None when it is not."""
        if self._next_t is not None and t < self._next_t:
            return None
        self._next_t = t + self.every_s
        self.last = check_markers(image, self.camera, self.pose, self.layout)
        message, fix = self.last.words(self.layout)
        if (self.last.level, message) != self._said:
            self._said = (self.last.level, message)
            self.report(DEVICE, self.last.level, message, fix, dict(STEP))
        return self.last


def watch_for(profile: Profile, report: Report, every_s: float = 10.0) -> MarkerWatch | None:
    """The watch for a calibrated profile, with the marker layout its table step used; None without a table."""
    if profile.table is None:
        return None
    layout_file = profile.notes.get("table", {}).get("layout")
    try:
        layout = TableLayout.load(Path(layout_file)) if layout_file else TableLayout.load(DEFAULT_LAYOUT)
    except ValueError:
        layout = TableLayout.load(DEFAULT_LAYOUT)
    return MarkerWatch(profile.camera, profile.table, layout, report, every_s)

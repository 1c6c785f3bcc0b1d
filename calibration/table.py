"""Where the table is: ArUco markers laid at known places on it, and the pose they give.

The table frame has its origin at a table corner, x and y along the table in millimetres and z
up. Each marker lies flat with its printed top edge towards +y, so seen from above its corners
in ArUco's order (top-left, top-right, bottom-right, bottom-left) are at
(cx - s/2, cy + s/2), (cx + s/2, cy + s/2), (cx + s/2, cy - s/2), (cx - s/2, cy - s/2).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from calibration.boards import aruco_dictionary
from calibration.model import CalibrationError
from companion.words.said import InEach, Said
from vision.profile import CameraIntrinsics, TablePose

DEFAULT_LAYOUT = Path(__file__).parent / "data" / "table_markers.json"
CORNER_SIGNS = np.array([(-1, 1), (1, 1), (1, -1), (-1, -1)], dtype=np.float64)


@dataclass(frozen=True)
class TableLayout:
    """Marker ids and their centres on the table (mm), all of one side length and dictionary."""

    dictionary: str
    marker_mm: float
    markers: dict[int, tuple[float, float]]
    min_markers: int = 3  # one or two markers can be a misread; three that agree are the table
    max_rms_px: float = 2.0  # markers that do not fit one plane this well are refused
    where: dict[int, str] = field(default_factory=dict)  # where each marker lies, in the table's words
    # where each marker lies in another language (``where_de``: German), beside the English ``where``
    where_in: dict[str, dict[int, str]] = field(default_factory=dict)

    def name(self, marker_id: int) -> str:
        """``marker 3 (far left, beyond the books)``: how every message names a marker."""
        where = self.where.get(marker_id)
        return f"marker {marker_id}" + (f" ({where})" if where else "")

    def numbered(self, marker_ids: list[int]) -> str:
        """``3 (far left, beyond the books); 0``: markers by number, each with where the layout file says it
        lies (its own words in each language it gives, as whoever laid the table wrote them): a tablet
        says the description in its own language."""
        said: list[str] = [Said("calibration.marker.where", "{marker} ({where})", marker=i, where=self.described(i))
                           if self.where.get(i) else str(i) for i in marker_ids]
        if not said:
            return ""
        joined = said[-1]
        for one in reversed(said[:-1]):
            joined = Said("calibration.marker.and", "{first}; {rest}", first=one, rest=joined)
        return joined

    def described(self, marker_id: int) -> InEach:
        """Where the marker lies, in each language the layout file describes it in."""
        texts = {"en": self.where[marker_id]}
        texts.update({lang: where[marker_id] for lang, where in self.where_in.items() if marker_id in where})
        return InEach(texts)

    def corners_mm(self, marker_id: int) -> np.ndarray:
        """(4, 3) float64 table coordinates of one marker's corners, in ArUco's corner order."""
        centre = np.asarray(self.markers[marker_id], dtype=np.float64)
        flat = centre + CORNER_SIGNS * self.marker_mm / 2.0
        return np.hstack([flat, np.zeros((4, 1))])

    @classmethod
    def load(cls, path: Path) -> TableLayout:
        try:
            data = json.loads(Path(path).read_text())
            markers = {int(k): (float(v[0]), float(v[1])) for k, v in data["markers"].items()}
            where = {int(k): str(v) for k, v in data.get("where", {}).items()}
            where_in = {key[len("where_"):]: {int(k): str(v) for k, v in value.items()}
                        for key, value in data.items() if key.startswith("where_")}
            layout = cls(str(data["dictionary"]), float(data["marker_mm"]), markers,
                         int(data.get("min_markers", 3)), float(data.get("max_rms_px", 2.0)), where, where_in)
        except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
            raise CalibrationError(f"table layout {str(path)!r} cannot be read: {e!r}") from None
        aruco_dictionary(layout.dictionary)
        return layout


def find_markers(image: np.ndarray, dictionary: str) -> dict[int, np.ndarray]:
    """Markers of one explicitly named dictionary in an (H, W, 3) BGR or (H, W) grey image:
    id -> (4, 2) float32 corner pixels. An id seen twice is dropped: it cannot be placed."""
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(dictionary), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(image)
    if ids is None:
        return {}
    flat = [int(i) for i in ids.ravel()]
    return {i: c.reshape(4, 2) for i, c in zip(flat, corners) if flat.count(i) == 1}


@dataclass(frozen=True)
class TableFit:
    pose: TablePose
    markers_used: list[int]
    markers_missing: list[int]


def solve_table_pose(seen: dict[int, np.ndarray], layout: TableLayout, camera: CameraIntrinsics) -> TableFit:
    """The table's pose from the layout markers seen; refused unless enough of them fit one plane."""
    used = sorted(i for i in seen if i in layout.markers)
    missing = sorted(set(layout.markers) - set(used))
    if len(used) < layout.min_markers:
        raise CalibrationError(Said(
            "calibration.refused.table_markers_few", "only {seen} of the table's markers were seen (ids {used}; missing "
            "{missing}), at least {least} are needed: markers {hidden} are not visible: are they covered?",
            seen=len(used), used=repr(used), missing=repr(missing), least=layout.min_markers,
            hidden=layout.numbered(missing)))
    objects = np.vstack([layout.corners_mm(i) for i in used])
    pixels = np.vstack([seen[i] for i in used]).astype(np.float64)
    k, dist = camera.matrix(), camera.dist_coeffs()
    # SQPnP, not IPPE: IPPE's rotation vector blows up for a camera looking straight down, a
    # rotation of exactly 180 degrees, which is how most tables are seen.
    ok, rvec, tvec = cv2.solvePnP(objects, pixels, k, dist, flags=cv2.SOLVEPNP_SQPNP)
    if not ok:
        raise CalibrationError(Said("calibration.refused.table_no_pose", "no table pose fits markers {used}", used=repr(used)))
    rvec, tvec = cv2.solvePnPRefineLM(objects, pixels, k, dist, rvec, tvec)
    rms = _rms(objects, pixels, rvec, tvec, k, dist)
    if rms > layout.max_rms_px:
        raise CalibrationError(Said("calibration.refused.table_markers_misplaced", "markers {used} do not lie where the "
                                    "layout says (error {error} px > {most} px): check the layout file and the camera "
                                    "calibration", used=repr(used), error=f"{rms:.1f}", most=layout.max_rms_px))
    pose = TablePose(rvec=tuple(map(float, rvec.ravel())), tvec=tuple(map(float, tvec.ravel())), rms_px=rms)  # type: ignore[arg-type]
    return TableFit(pose, used, missing)


def _rms(objects: np.ndarray, pixels: np.ndarray, rvec: np.ndarray, tvec: np.ndarray,
         k: np.ndarray, dist: np.ndarray) -> float:
    projected, _ = cv2.projectPoints(objects, rvec, tvec, k, dist)
    return float(np.sqrt(np.mean(np.sum((projected.reshape(-1, 2) - pixels) ** 2, axis=1))))

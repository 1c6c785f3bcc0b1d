"""The steps of the tool, each from its input to the profile it updates: one code path for the
command line and the tablet. Each refuses with CalibrationError in plain words and changes nothing."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Mapping, Sequence

import numpy as np

from calibration.boards import parse_board
from calibration.camera import CameraCalibration, calibrate_camera
from calibration.geometry import pixels_to_table, table_to_pixels
from calibration.layout import ToTable, check_taps, from_board, game_places, lay_out, on_table, snap_taps, snapped
from calibration.model import CalibrationError
from calibration.profiles import keep_places, load_if_present, save
from calibration.status import require_camera, require_table
from calibration.token_snap import TOKEN_TOP_MM, Snap, ToPixels
from calibration.table import TableFit, TableLayout, find_markers, solve_table_pose
from calibration.wands import WandsLearned, known_places, learn_wands, with_wands
from companion.words.said import Said
from vision.places import TablePlaces
from vision.profile import Profile, save_places


def calibrate(profile: Path, images: list[np.ndarray], board: str, fix_aspect: bool) -> tuple[CameraCalibration, bool]:
    """Camera intrinsics from board photos into the profile; also says whether a table pose was cleared.
    A profile that cannot be read is started afresh: this is the first step."""
    result = calibrate_camera(images, parse_board(board), fix_aspect=fix_aspect)
    try:
        old = load_if_present(profile)
    except CalibrationError:
        old = None
    notes = {**(old.notes if old else {}), "camera": {
        "board": board, "images": len(images), "used": len(result.used),
        "per_view_rms_px": [round(e, 4) for e in result.per_view_rms_px]}}
    # A new camera calibration moves every pixel, so an older table pose no longer holds; the wands'
    # paints, the places (in table mm) and the cue do.
    kept = old.model_dump(by_alias=True, include={"wands", "places", "cue"}) if old and old.resolution() == (
        result.image.width, result.image.height) else {}
    save(Profile.model_validate({**kept, "image": result.image.model_dump(), "camera": result.intrinsics.model_dump(),
                                 "table": None, "notes": notes}), profile)
    return result, old is not None and old.table is not None


def find_table(profile: Path, image: np.ndarray, layout_path: Path) -> TableFit:
    """The table's pose from the markers in one picture, saved into the profile."""
    known = require_camera(profile)
    _same_size(image, *known.resolution())
    layout = TableLayout.load(layout_path)
    fit = solve_table_pose(find_markers(image, layout.dictionary), layout, known.camera)
    notes = {**known.notes, "table": {"layout": str(layout_path), "dictionary": layout.dictionary,
                                      "markers_used": fit.markers_used, "markers_missing": fit.markers_missing}}
    save(known.with_parts(table=fit.pose.model_dump(), notes=notes), profile)
    return fit


def _same_size(image: np.ndarray, width: int, height: int) -> None:
    if image.shape[1] != width or image.shape[0] != height:
        raise CalibrationError(Said("calibration.refused.picture_size", "the picture is {picture} but the camera was "
                                    "calibrated at {size}: set the camera to {size} or run the camera step again",
                                    picture=f"{image.shape[1]}x{image.shape[0]}", size=f"{width}x{height}"))


@dataclass(frozen=True)
class LaidOut:
    """What the layout step wrote, and how each tapped place was found: snapped onto its token or kept."""

    places: TablePlaces
    snaps: dict[str, Snap]  # empty when there was no picture to snap on

    @property
    def snapped(self) -> list[str]:
        """Places moved onto the centre of the token found under their tap."""
        return [n for n, s in self.snaps.items() if s.snapped]

    @property
    def kept(self) -> list[str]:
        """Places whose tap found no clear token: they stay where they were tapped."""
        return [n for n, s in self.snaps.items() if not s.snapped]


def place_taps(profile: Path, game: str, taps: Mapping[str, Any], out: Path, board: bool = False,
               image: np.ndarray | None = None) -> LaidOut:
    """Taps on the camera image -> the game's places file at ``out``; returns what was written. With
    ``board``, places not tapped are placed from the board's layout fitted to the tapped ones. With
    ``image`` (the picture the taps were made on), each tap first snaps to the token it lands on."""
    known = require_table(profile)
    places = game_places(game)
    pixels = check_taps(taps, places, known.resolution(), every_place=not board)
    # The taps as tapped must already lay out a board: why a layout no board has is refused never
    # depends on what the newest picture shows under the taps.
    laid = lay_out(pixels, places, _to_table(known), board)
    snaps: dict[str, Snap] = {}
    if image is not None:
        _same_size(image, *known.resolution())
        snaps = snap_taps(image, pixels, places, _to_table(known, TOKEN_TOP_MM), _to_pixels(known))
        laid = lay_out(snapped(pixels, snaps), places, _to_table(known), board)
    save_places(laid, out)
    # Vision reads the places from the profile itself; the table side reads the places file.
    save(known.with_parts(places={"tokens": laid.dump()["places"]}), profile)
    keep_places(profile, out)
    return LaidOut(laid, snaps)


def learn_wand_paints(profile: Path, frames: Sequence[np.ndarray], empty_table: np.ndarray | None = None) -> WandsLearned:
    """The wands' paints from pictures of them held in view, saved into the profile with the warnings."""
    if not frames:
        raise CalibrationError(Said("calibration.refused.no_wand_pictures",
                                    "no pictures of the wands: is the camera sending pictures?"))
    height, width = frames[0].shape[:2]
    known = require_table(profile, (width, height))
    learned = learn_wands(known, frames, empty_table, known_places(known, profile))
    save(with_wands(known, learned), profile)
    return learned


def board_suggestions(profile: Path, game: str, taps: Mapping[str, Any]) -> dict[str, list[float]]:
    """Where on the picture the board puts every place not tapped yet, given the tapped ones."""
    known = require_table(profile)
    places = game_places(game)
    found = on_table(check_taps(taps, places, known.resolution(), every_place=False), _to_table(known))
    rest = from_board(found, places)
    c, pose = known.camera, known.table
    assert pose is not None
    pixels = table_to_pixels(np.array([[x, y, 0.0] for x, y in rest.values()]), c.matrix(), c.dist_coeffs(),
                             np.array(pose.rvec), np.array(pose.tvec))
    return {n: [round(float(u), 1), round(float(v), 1)] for n, (u, v) in zip(rest, pixels)}


def _to_table(known: Profile, z_mm: float = 0.0) -> ToTable:
    c, pose = known.camera, known.table
    assert pose is not None  # require_table refused an uncalibrated table
    return lambda px: pixels_to_table(px, c.matrix(), c.dist_coeffs(), np.array(pose.rvec), np.array(pose.tvec), z_mm)


def _to_pixels(known: Profile) -> ToPixels:
    c, pose = known.camera, known.table
    assert pose is not None
    return lambda points: table_to_pixels(points, c.matrix(), c.dist_coeffs(), np.array(pose.rvec), np.array(pose.tvec))


def places_path(profile: Path, game: str) -> Path:
    """Where a game's places are kept unless told otherwise: beside the profile, one file per game."""
    return Path(profile).with_name(f"places-{game}.json")

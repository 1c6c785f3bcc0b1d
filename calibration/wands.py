"""The wand step: each wand's paint and bead size learned under this light (``vision.paints``), the
check that the camera tells the wands apart, and the warning for anything on the table that could be
taken for a wand's tip, said where it lies on the table."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from calibration.geometry import pixels_to_table
from calibration.model import CalibrationError
from companion.words.said import Said
from vision.paints import PaintError, colour_name, learn_paints, lookalikes, told_apart
from vision.profile import PaintModel, Place, Profile, ProfileError, profile_places
from vision.table_geometry import TableGeometry

MAX_FRAMES = 24  # evenly spread over the seconds the wands were held: more adds time, not accuracy
NEAR_PLACE_MM = 30.0  # a patch this close to a place is the token lying there
MAX_WORDS_PER_WAND = 3  # the largest few lookalikes are what to clear first; a list of fifty helps no one
LARGE_BEADS = 20  # a patch of more than this many beads is no token: the table or a cloth


@dataclass(frozen=True)
class WandsLearned:
    models: dict[int, PaintModel]
    warnings: list[Said]  # each names its catalogue words (a German tablet says it)
    frames: int


def learn_wands(profile: Profile, frames: Sequence[np.ndarray], empty_table: np.ndarray | None = None,
                places: Mapping[str, Place] | None = None) -> WandsLearned:
    """Paint models from (H, W, 3) BGR frames of the wands held in view, tips resting on the table.
    Refuses (CalibrationError) when a wand is not seen or two wands look alike; warns of lookalikes on
    ``empty_table`` (the table just before, without the wands)."""
    if not frames:
        raise CalibrationError(Said("calibration.refused.no_wand_pictures",
                                    "no pictures of the wands: is the camera sending pictures?"))
    picked = [frames[i] for i in np.linspace(0, len(frames) - 1, min(len(frames), MAX_FRAMES)).astype(int)]
    geometry = TableGeometry(profile)  # type: ignore[arg-type]  # a frozen pose satisfies the read-only use
    try:
        models = learn_paints(picked, background=empty_table, geometry=geometry)
    except PaintError as e:
        raise CalibrationError(str(e)) from None
    alike = told_apart(models)
    if alike:
        raise CalibrationError("; ".join(alike))
    warnings = [] if empty_table is None else tip_lookalikes(profile, empty_table, models, places or {})
    return WandsLearned(models, warnings, len(picked))


def tip_lookalikes(profile: Profile, table: np.ndarray, models: Mapping[int, PaintModel],
                   places: Mapping[str, Place]) -> list[Said]:
    """In plain words, what on the table a wand's paint model would take for its tip: the largest few
    patches of each wand's colour, each named by the place it lies at."""
    geometry = TableGeometry(profile)  # type: ignore[arg-type]  # a frozen pose satisfies the read-only use
    c, pose = profile.camera, profile.table
    assert pose is not None  # TableGeometry refused an uncalibrated table
    scale = geometry.px_per_mm(0.0)
    found = sorted(lookalikes(table, models, scale), key=lambda f: -f.area_px)
    out = []
    for k in sorted({f.strength for f in found}):
        mine = [f for f in found if f.strength == k]
        name = colour_name(models[k].hue)
        colour = Said(f"calibration.colour.{name}", name)  # said in the tablet's language inside the sentence
        bead_px = np.pi * (models[k].bead_radius_mm * scale) ** 2
        for f in mine[:MAX_WORDS_PER_WAND]:
            xy = pixels_to_table(np.array([f.centre_px]), c.matrix(), c.dist_coeffs(), np.array(pose.rvec),
                                 np.array(pose.tvec))[0]
            out.append(Said("calibration.wands.lookalike_large", "a large part of the table looks like wand {wand}'s "
                            "{colour} tip: lay it face down, take it off the table or fit LED tips", wand=k, colour=colour)
                       if f.area_px > LARGE_BEADS * bead_px else _lookalike(xy, places, k, colour))
        if len(mine) > MAX_WORDS_PER_WAND:
            out.append(Said("calibration.wands.lookalike_more", "and {n} smaller patches look like wand {wand}'s "
                            "{colour} tip", n=len(mine) - MAX_WORDS_PER_WAND, wand=k, colour=colour))
    return out


def _lookalike(xy: np.ndarray, places: Mapping[str, Place], wand: int, colour: Said) -> Said:
    near = [(float(np.hypot(p.x_mm - xy[0], p.y_mm - xy[1])), name) for name, p in places.items()]
    if near and min(near)[0] <= NEAR_PLACE_MM:
        return Said("calibration.wands.lookalike_token", "the token at {place} looks like wand {wand}'s {colour} tip: "
                    "lay it face down, take it off the table or fit LED tips", place=min(near)[1], wand=wand, colour=colour)
    return Said("calibration.wands.lookalike_spot", "something on the table at x {x} mm, y {y} mm looks like wand "
                "{wand}'s {colour} tip: lay it face down, take it off the table or fit LED tips",
                x=f"{xy[0]:.0f}", y=f"{xy[1]:.0f}", wand=wand, colour=colour)


def known_places(profile: Profile, path: Path) -> dict[str, Place]:
    """The places the profile names, or none when they cannot be read (the warning is then less precise)."""
    try:
        return profile_places(profile, path)
    except ProfileError:
        return {}


def with_wands(profile: Profile, learned: WandsLearned) -> Profile:
    notes = {**profile.notes, "wands": {"frames": learned.frames, "warnings": learned.warnings}}
    return profile.with_parts(wands={k: m.model_dump() for k, m in learned.models.items()}, notes=notes)

"""The table's profile: the one versioned file that the calibration tool writes and that vision and the
cue read.

    {"schema": 2,
     "image":  {"width": 640, "height": 480},                      what the camera delivers
     "camera": {"fx", "fy", "cx", "cy", "dist": [k1, k2, p1, p2, k3], "rms_px"},   intrinsics
     "table":  {"rvec": [3], "tvec": [3], "rms_px"} or null,        where the table is
     "wands":  {"1": PaintModel, ...},                              learned by the wand step
     "places": {"file": "places.json"} or {"tokens": {...}} or null, where the game's places are
     "cue":    {"templates": [...], ...} or null,                   the spoken cue's own section
     "notes":  {...}}                                               how each part was measured

A file of another schema (an older one is stale), another image size than the camera gives, or any
bad value is refused with every reason at once (``ProfileError``, a ``ValueError``). Writing is
atomic: a pulled plug never leaves half a profile.
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Annotated, Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from vision.json_file import read_json
# The places model lives in vision.places; a profile names its places, and they are read and written here.
from vision.places import Place as Place, Places, TablePlaces as TablePlaces

SCHEMA_VERSION = 2
DEFAULT_PROFILE = Path("var/profile.json")
STRENGTHS = (1, 2, 3, 4)


class ProfileError(ValueError):
    """A profile that is missing, damaged, stale, of another camera resolution or with bad values."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ImageSize(_Model):
    width: Annotated[int, Field(ge=16, le=10000)]
    height: Annotated[int, Field(ge=16, le=10000)]


class CameraIntrinsics(_Model):
    """Pinhole model with OpenCV's distortion coefficients (k1, k2, p1, p2, k3)."""

    fx: Annotated[float, Field(gt=0)]
    fy: Annotated[float, Field(gt=0)]
    cx: float
    cy: float
    dist: tuple[float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 0.0)
    rms_px: Annotated[float, Field(ge=0)] | None = None

    def matrix(self) -> np.ndarray:
        """3x3 camera matrix K."""
        return np.array([[self.fx, 0, self.cx], [0, self.fy, self.cy], [0, 0, 1]], dtype=np.float64)

    def dist_coeffs(self) -> np.ndarray:
        """(5,) float64 distortion coefficients."""
        return np.asarray(self.dist, dtype=np.float64)


class TablePose(_Model):
    """The table frame has its origin at a table corner, x and y along the table in millimetres, z up.
    ``rvec``/``tvec`` map table coordinates into camera coordinates (OpenCV's solvePnP convention)."""

    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]
    rms_px: Annotated[float, Field(ge=0)] | None = None


class PaintModel(_Model):
    """One wand's marker paint as this table's camera sees it, learned by the wand step.

    Hues are OpenCV's 0-179 scale; a marker pixel is within ``hue_tolerance`` of ``hue`` and at least
    ``min_saturation`` saturated and ``min_value`` bright. ``bead_radius_mm``: the tip bead's measured
    radius; ``band_from_tip_mm``: from the tip bead's centre to the band's along the wand."""

    hue: Annotated[float, Field(ge=0, lt=180)]
    hue_tolerance: Annotated[float, Field(ge=1, le=45)]
    min_saturation: Annotated[float, Field(ge=20, le=255)]
    min_value: Annotated[float, Field(ge=5, le=255)]
    bead_radius_mm: Annotated[float, Field(ge=3, le=40)]
    band_from_tip_mm: Annotated[float, Field(ge=20, le=240)] = 110.0
    samples: Annotated[int, Field(ge=0)] = 0  # how many frames the model was learned from


class PlacesRef(_Model):
    """Either a places file (relative to the profile's folder) or the places themselves."""

    file: str | None = None
    tokens: Places | None = None

    @field_validator("tokens")
    @classmethod
    def _not_empty(cls, v: Places | None) -> Places | None:
        if v is not None and not v:
            raise ValueError("places.tokens is empty: give at least one place or a places file")
        return v


class CueSection(_Model):
    """The spoken cue's part: the group's own recorded "In-can-to!" templates (paths relative to the
    profile's folder) and, when tuned, its detection threshold."""

    templates: list[str] = []
    threshold: Annotated[float, Field(ge=0)] | None = None


class Profile(_Model):
    schema_: Annotated[int, Field(alias="schema")] = SCHEMA_VERSION
    image: ImageSize
    camera: CameraIntrinsics
    table: TablePose | None = None
    wands: dict[Annotated[int, Field(ge=1, le=4)], PaintModel] = {}  # by wand strength
    places: PlacesRef | None = None
    cue: CueSection | None = None
    notes: dict[str, Any] = {}

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @property
    def table_calibrated(self) -> bool:
        return self.table is not None

    def resolution(self) -> tuple[int, int]:
        return self.image.width, self.image.height

    def with_parts(self, **parts: Any) -> Profile:
        """A copy with some parts replaced (validated again)."""
        return Profile.model_validate({**self.model_dump(by_alias=True), **parts})


def parse_profile(data: Any, where: str = "profile") -> Profile:
    """A mapping -> Profile; every problem at once in one ``ProfileError``."""
    if not isinstance(data, dict):
        raise ProfileError(f"{where} must hold a JSON object, got {type(data).__name__}")
    schema = data.get("schema")
    if schema != SCHEMA_VERSION:
        age = "stale (written by an older Incanto)" if isinstance(schema, int) and schema < SCHEMA_VERSION \
            else "of an unknown schema"
        raise ProfileError(f"{where} is {age}: schema {schema!r}, expected {SCHEMA_VERSION}; run "
                           f"`python -m calibration` again to write a new profile")
    try:
        return Profile.model_validate(data)
    except ValidationError as e:
        raise ProfileError(f"{where} has bad values: {describe_errors(e)}") from None


def describe_errors(e: ValidationError) -> str:
    """Every problem of a pydantic error in one line: ``key: why (got value)``."""
    parts = []
    for err in e.errors():
        key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"]).lstrip(".") or "(top)"
        got = err.get("input")
        shown = "" if isinstance(got, (dict, list)) else f" (got {got!r})"
        parts.append(f"{key}: {err['msg']}{shown}")
    return "; ".join(parts)


def load_profile(path: Path, resolution: tuple[int, int] | None = None) -> Profile:
    """Read and check the profile at ``path``; with ``resolution`` (width, height) of the camera's
    frames, a profile made for another image size is refused."""
    path = Path(path)
    data = read_json(path, "profile", ProfileError,
                     missing=f"no profile at {str(path)!r}: run `python -m calibration camera` first")
    profile = parse_profile(data, f"profile {str(path)!r}")
    if resolution is not None:
        check_resolution(profile, resolution, str(path))
    return profile


def check_resolution(profile: Profile, resolution: tuple[int, int], where: str = "profile") -> None:
    if tuple(resolution) != profile.resolution():
        w, h = profile.resolution()
        raise ProfileError(f"{where} was made for {w}x{h} images but the camera gives "
                           f"{resolution[0]}x{resolution[1]}: calibrate again at this resolution")


def save_profile(profile: Profile, path: Path) -> None:
    _write_atomically(profile.model_dump_json(by_alias=True, indent=2), path)


def _write_atomically(text: str, path: Path) -> None:
    """Temporary file, fsync, rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(path)


def load_places(path: Path) -> TablePlaces:
    """Read a places file (``vision.places``: what the layout step writes, or a table's own)."""
    data = read_json(path, "places file", ProfileError,
                     missing=f"no places file at {str(path)!r}: run `python -m calibration layout`")
    try:
        return TablePlaces.model_validate(data)
    except ValidationError as e:
        raise ProfileError(f"places file {str(path)!r} has bad values: {describe_errors(e)}") from None


def save_places(places: TablePlaces, path: Path) -> None:
    """Write atomically, as ``save_profile``: a pulled plug never leaves half a places file."""
    _write_atomically(json.dumps(places.dump(), indent=2) + "\n", path)


def profile_places(profile: Profile, profile_path: Path | None = None) -> dict[str, Place]:
    """The places the profile names (its own or its file's); empty when it names none."""
    if profile.places is None:
        return {}
    if profile.places.tokens is not None:
        return dict(profile.places.tokens)
    if profile.places.file is None:
        return {}
    file = Path(profile.places.file)
    if not file.is_absolute() and profile_path is not None:
        file = Path(profile_path).parent / file
    return dict(load_places(file).places)


def paint_hue_gap(a: PaintModel, b: PaintModel) -> float:
    """Hue distance (0-90) between two paints' centres on OpenCV's circular 0-179 scale."""
    d = abs(a.hue - b.hue) % 180
    return min(d, 180 - d)


def bead_area_px(radius_mm: float, px_per_mm: float) -> float:
    return math.pi * (radius_mm * px_per_mm) ** 2

"""The vision pipeline's settings: the few a table may need to change, read from one JSON file
(``vision/CONFIG.md`` says what each key means and why its range is what it is), and the rest computed
here from the rig's physical quantities, each with its reason.

``vision/config.default.json`` holds every setting with its default; a table's own file may give any
subset and the rest comes from the defaults. What belongs to one table and its wands (the camera, the
table's pose, each wand's paint and bead size) is not here but in the profile (``vision.profile``).

Every value is checked when loaded; a bad file is refused with every problem at once, each naming its
key and what is allowed (``ConfigError``, a ``ValueError``). A file written before a setting became a
computed value still loads: the old key is ignored with a one-line note (``RETIRED``).

The computed values are class constants of the sections (``cfg.markers.min_roundness`` reads as
before); where a derivation would not land exactly on the value the pipeline was measured with, the
value is kept and the comment gives the physics it stands for.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vision.json_file import read_json

DEFAULT_PATH = Path(__file__).with_name("config.default.json")
REPO_ROOT = Path(__file__).resolve().parents[1]
log = logging.getLogger(__name__)

# -- The rig (hardware.md): the quantities the computed settings stand on ---------------------------
TIP_BEAD_MM = 24.0  # the tip bead's diameter ("Wand markers")
BAND_BEAD_MM = 14.0  # the band bead's diameter, 110 mm behind the tip bead
SMALLEST_TIP_BEAD_MM = 20.0  # the smallest tip bead a table is built with (beads are sold 20-25 mm)
WAND_LENGTH_MM = 250.0  # "Wand body": 250 mm
KNUCKLES_FROM_BUTT_MM = 35.0  # a fist holding the wand's end: its knuckles half a palm (70 mm) up
HAND_MM = 70.0  # a palm's width: how far past the wand's butt the gripping hand reaches
TOKEN_THICKNESS_MM = 2.0  # card tokens on the board: a resting bead's underside is this high
TOKEN_DIAMETER_MM = 30.0  # the board's tokens ("Camera mount": 30 mm, 17 px at 0.95 m)
FRAME_MS = 1000.0 / 30.0  # the camera's frame period at 30 fps
# The tip bead's apparent size is measured at its outline (``vision.markers.bead_outline_area``), so a
# whole bead of any colour measures within this share of its true size, up or down.
BEAD_MEASURE_SPREAD = 0.04
# A bead looking smaller than this share of a resting bead's radius is partly hidden (a fist, a
# sleeve): its patch's centre is not the bead's. One threshold for the wand stage (by area, its
# square) and the pointing stage (by radius).
PARTLY_HIDDEN_BELOW = 0.8


class ConfigError(ValueError):
    """A vision configuration with a missing, unknown or out-of-range value."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True)


class MarkerConfig(_Section):
    """How wand markers are found; the paints themselves come from the profile."""

    hue_slack: float = Field(ge=0, le=30)
    floor_slack: float = Field(ge=0.3, le=1)
    static_diff: float = Field(ge=1, le=255)
    shaft_contrast: float = Field(ge=1, le=255)

    # A 2 x 2 px speck is sensor noise; a band bead seen from 1.25 m (14 mm at 0.46 px/mm) covers 33 px.
    min_area_px: ClassVar[float] = 4.0
    # Fluorescent paint is saturated throughout a blob; a blob only just over the paint's floor on
    # average is a rim of colour (a token's edge, a lamp's tint), not a bead.
    mean_saturation_over_floor: ClassVar[float] = 15.0
    # A disc fills pi/4 = 0.79 of its bounding box; 0.45 keeps a bead with a fist over a good part of
    # it and drops thin streaks (a shaft's glint, a token's rim).
    min_roundness: ClassVar[float] = 0.45
    # A tip bead's area against a resting bead's there: as little as 0.35 of it when dimmed, blurred or
    # partly hidden; up to twice when held high (a bead 150 mm up under the lowest camera, 0.8 m, looks
    # (800/650)^2 = 1.5 times its size) with the measure's spread on top.
    bead_area_min_ratio: ClassVar[float] = 0.35
    bead_area_max_ratio: ClassVar[float] = 2.0
    # Without its band a bead must look more whole: a band alone (14 mm to 24: 0.34 of the area) must
    # not pass as a tip.
    lone_bead_min_ratio: ClassVar[float] = 0.55
    # ... or measure at least this at its outline (``vision.markers.bead_outline_area``): a band
    # measures at most about half a bead there, blur and dim light leave a bead its outline.
    lone_bead_outline_ratio: ClassVar[float] = 0.7
    # A band is (14/24)^2 = 0.34 of a bead: at most 0.8 of the tip found (a tip partly hidden), at least
    # 0.12 of a resting bead (0.34 x bead_area_min_ratio = 0.119: as hidden as the least tip accepted).
    band_area_max_ratio: ClassVar[float] = 0.8
    band_area_min_ratio: ClassVar[float] = 0.12
    # Partly hidden (``PARTLY_HIDDEN_BELOW``), by area: the wand stage also says where its centre could be.
    partial_below_ratio: ClassVar[float] = PARTLY_HIDDEN_BELOW ** 2
    # A bead's part spans at least 1.5 bead radii at its widest: a band seen alone spans 14/12 = 1.2.
    partial_min_span: ClassVar[float] = 1.5
    # ... and has a core a quarter radius from its edge: a token's rim around something laid on it has none.
    partial_min_core: ClassVar[float] = 0.25
    # Blur and JPEG bleed a patch about a pixel past its outline.
    partial_slack_px: ClassVar[float] = 1.0


class PointingConfig(_Section):
    hover_height_mm: float = Field(ge=0, le=300)
    max_height_mm: float = Field(ge=0, le=1000)
    neighbour_margin_mm: float = Field(ge=0, le=60)
    hover_min_tilt_deg: float = Field(ge=0, le=90)
    aim_sigma_mm: float = Field(ge=0.1, le=200)
    aim_sigma_deg: float = Field(ge=0.01, le=45)
    far_weight: float = Field(ge=0, le=1)

    # A bead resting on a token has its underside on the token: the token's thickness, 1 mm of slack
    # (a warped card, a bead not quite level).
    touch_lift_mm: ClassVar[float] = TOKEN_THICKNESS_MM + 1.0
    # The lowest tip: a tip bead resting on a token (12 + 2 = 14 mm).
    min_height_mm: ClassVar[float] = TIP_BEAD_MM / 2 + TOKEN_THICKNESS_MM
    # Over a token within its radius plus the smallest tip bead's radius: beads resting side by side
    # against a token's rim (several wands on one token) are over it.
    under_tip_slack_mm: ClassVar[float] = SMALLEST_TIP_BEAD_MM / 2
    # Measured sizes of a resting bead vary up to 35 % upward (the token or the shaft next to it):
    # heights the bead looks more than 1.3 times too big for are not tried.
    bead_height_tolerance: ClassVar[float] = 1.3
    # A bead higher up is nearer the camera and never looks smaller than it is, within the measure's
    # spread: heights a whole bead looks smaller than this share of its size there are not tried ...
    bead_shrink_tolerance: ClassVar[float] = 1.0 - BEAD_MEASURE_SPREAD
    # ... and the hover reading is refused at heights it looks more than this many times too big for.
    hover_max_bead_scale: ClassVar[float] = 1.0 + BEAD_MEASURE_SPREAD
    # ... only when the bead looks at least this share of a resting bead: a smaller one may be dimmed
    # or partly hidden, and says nothing about its height.
    whole_bead_ratio: ClassVar[float] = 0.9
    # Mostly hidden (``PARTLY_HIDDEN_BELOW``), by radius: the wand is unsure unless its switch is closed.
    partial_bead_ratio: ClassVar[float] = PARTLY_HIDDEN_BELOW
    # The aimed reading's hover: the tip over the token or beside it by up to a token's radius.
    hover_radius_mm: ClassVar[float] = TOKEN_DIAMETER_MM
    # A token is at most a wand and a hand ahead of the tip: farther, the player would reach over it.
    max_reach_mm: ClassVar[float] = WAND_LENGTH_MM + HAND_MM
    # Tip heights are tried 5 mm apart: a tip 5 mm higher moves under 2 px at the table's edge.
    height_step_mm: ClassVar[float] = 5.0
    # The tip's and the band's centres are each found within about a bead's radius.
    length_sigma_mm: ClassVar[float] = TIP_BEAD_MM / 2
    # The likelihood of "pointing at no candidate", against a token's (at most 1).
    none_score: ClassVar[float] = 0.02
    # A tip seen without its line: its hover reading counts this much, spread about half a token (16 mm).
    tip_only_weight: ClassVar[float] = 0.6
    tip_only_sigma_mm: ClassVar[float] = 16.0


class DecideConfig(_Section):
    window_ms: float = Field(ge=0, le=10000)
    give_up_ms: float = Field(ge=100, le=60000)
    min_confidence: float = Field(ge=0, le=1)
    margin: float = Field(ge=1, le=1e6)

    # Still: three frames at 30 fps (67 ms first to last) and a late frame's slack.
    settle_ms: ClassVar[float] = 90.0
    # ... within 6 px (about 10 mm at the table, 0.57 px/mm): a held wand's tremor (1 mm) stays inside,
    # a move to the next token (40 mm and more) does not; and drifting at most 4 px (7 mm) end to end.
    settle_px: ClassVar[float] = 6.0
    drift_px: ClassVar[float] = 4.0
    # Missing: unseen for nine frames at 30 fps, longer than a wand passing behind an arm.
    missing_ms: ClassVar[float] = 300.0


class HandsUse(_Section):
    enabled: bool
    every_n_frames: Annotated[int, Field(ge=1, le=1000)]

    # The knuckles of a fist holding the wand's end, from the tip (250 - 35 = 215 mm).
    grip_from_tip_mm: ClassVar[float] = WAND_LENGTH_MM - KNUCKLES_FROM_BUTT_MM
    # A gripping hand is at most a wand and a hand from its tip.
    max_tip_distance_mm: ClassVar[float] = WAND_LENGTH_MM + HAND_MM


class VisionConfig(_Section):
    profile_file: Annotated[str, Field(min_length=1, alias="calibration_file")]
    markers: MarkerConfig
    pointing: PointingConfig
    decide: DecideConfig
    hands: HandsUse

    @property
    def calibration_file(self) -> Path:
        """The table's profile (key ``calibration_file``; relative paths are relative to the repository
        root)."""
        path = Path(self.profile_file)
        return path if path.is_absolute() else REPO_ROOT / path


SECTIONS: dict[str, type[_Section]] = {"markers": MarkerConfig, "pointing": PointingConfig, "decide": DecideConfig,
                                       "hands": HandsUse}
# Keys a file may still carry from before they were computed: ignored, with a note. Every computed
# value of a section once was one; ``markers.style`` had one legal value ("caps").
RETIRED: dict[str, frozenset[str]] = {
    name: frozenset(section.__class_vars__) | ({"style"} if name == "markers" else frozenset())
    for name, section in SECTIONS.items()}


def load_config(path: Path | None = None) -> VisionConfig:
    """The defaults, overlaid with the file at ``path`` if given."""
    data = _read(DEFAULT_PATH)
    if path is not None:
        data = _merge(data, _without_retired(_read(Path(path)), Path(path)))
    return parse_config(data)


def parse_config(data: Any) -> VisionConfig:
    """Check every value of a complete configuration mapping; every problem in one ConfigError."""
    try:
        return VisionConfig.model_validate(data)
    except ValidationError as e:
        raise ConfigError("bad vision settings: " + "; ".join(_problem(err) for err in e.errors())) from None


def _problem(err: Any) -> str:
    key = ".".join(str(p) for p in err["loc"] if p != "[key]")
    if err["type"] == "extra_forbidden":
        return f"unknown setting {key!r}"
    if err["type"] == "missing":
        return f"setting {key!r} is missing"
    allowed = err.get("ctx", {})
    got = err.get("input")
    return f"setting {key!r} {err['msg'].lower()}{_ctx(allowed)}, got {got!r}"


def _ctx(ctx: dict[str, Any]) -> str:
    return f" (allowed: {', '.join(f'{k} {v}' for k, v in ctx.items())})" if ctx else ""


def _read(path: Path) -> dict[str, Any]:
    data = read_json(path, "vision configuration", ConfigError)
    if not isinstance(data, dict):
        raise ConfigError(f"vision configuration {str(path)!r} must hold a JSON object")
    return data


def _without_retired(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """``data`` without the keys that are computed now, each noted in one line."""
    out = dict(data)
    for name, retired in RETIRED.items():
        section = data.get(name)
        if not isinstance(section, dict):
            continue
        old = sorted(k for k in section if k in retired)
        for key in old:
            now = getattr(SECTIONS[name], key, None)
            log.warning("vision configuration %r: %r is no longer a setting (%s), ignored", str(path),
                        f"{name}.{key}", "computed: " + repr(round(now, 4)) if now is not None else "one style only")
        out[name] = {k: v for k, v in section.items() if k not in retired}
    return out


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` laid on ``base`` section by section; unknown keys are kept so validation names them."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(base.get(key), dict) and isinstance(value, dict):
            out[key] = _merge(base[key], value)
        else:
            out[key] = value
    return out

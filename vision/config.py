"""Every threshold of the vision pipeline, read from one JSON file (``vision/CONFIG.md`` says what each
key means).

``vision/config.default.json`` holds every key with its default; a table's own file may give any subset
and the rest comes from the defaults. What belongs to one table and its wands (the camera, the table's
pose, each wand's paint and bead size) is not here but in the profile (``vision.profile``).

Every value is checked when loaded; a bad file is refused with every problem at once, each naming its
key and what is allowed (``ConfigError``, a ``ValueError``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vision.json_file import read_json

DEFAULT_PATH = Path(__file__).with_name("config.default.json")
REPO_ROOT = Path(__file__).resolve().parents[1]
PER_WAND = ("hover_max_bead_scale",)  # objects keyed by wand strength, given whole


class ConfigError(ValueError):
    """A vision configuration with a missing, unknown or out-of-range value."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True)


class MarkerConfig(_Section):
    """How wand markers are found; the paints themselves come from the profile."""

    style: Literal["caps"]
    hue_slack: float = Field(ge=0, le=30)
    floor_slack: float = Field(ge=0.3, le=1)
    min_area_px: float = Field(ge=1, le=10000)
    mean_saturation_over_floor: float = Field(ge=0, le=120)
    min_roundness: float = Field(ge=0, le=1)
    static_diff: float = Field(ge=1, le=255)
    bead_area_min_ratio: float = Field(ge=0.01, le=1)
    lone_bead_min_ratio: float = Field(ge=0.01, le=1)
    lone_bead_outline_ratio: float = Field(ge=0, le=1)
    bead_area_max_ratio: float = Field(ge=1, le=20)
    band_area_max_ratio: float = Field(ge=0.05, le=1)
    band_area_min_ratio: float = Field(ge=0, le=1)
    shaft_contrast: float = Field(ge=1, le=255)
    partial_below_ratio: float = Field(ge=0, le=1)
    partial_min_span: float = Field(ge=0, le=2.5)
    partial_slack_px: float = Field(ge=0, le=5)
    partial_min_core: float = Field(ge=0, le=1)


class PointingConfig(_Section):
    touch_lift_mm: float = Field(ge=0, le=30)
    hover_height_mm: float = Field(ge=0, le=300)
    under_tip_slack_mm: float = Field(ge=0, le=60)
    neighbour_margin_mm: float = Field(ge=0, le=60)
    bead_height_tolerance: float = Field(ge=1, le=2)
    bead_shrink_tolerance: float = Field(ge=0.5, le=1)
    whole_bead_ratio: float = Field(ge=0, le=1)
    partial_bead_ratio: float = Field(ge=0, le=1)
    hover_radius_mm: float = Field(ge=1, le=200)
    min_height_mm: float = Field(ge=0, le=100)
    hover_min_tilt_deg: float = Field(ge=0, le=90)
    hover_max_bead_scale: dict[Literal["1", "2", "3", "4"], Annotated[float, Field(ge=0, le=10)]]
    max_height_mm: float = Field(ge=0, le=1000)
    max_reach_mm: float = Field(ge=10, le=2000)
    height_step_mm: float = Field(ge=0.5, le=100)
    aim_sigma_mm: float = Field(ge=0.1, le=200)
    aim_sigma_deg: float = Field(ge=0.01, le=45)
    length_sigma_mm: float = Field(ge=0.1, le=200)
    far_weight: float = Field(ge=0, le=1)
    none_score: float = Field(ge=0, le=1)
    tip_only_weight: float = Field(ge=0, le=1)
    tip_only_sigma_mm: float = Field(ge=0.1, le=200)

    def bead_scale(self, strength: int) -> float:
        return float(self.hover_max_bead_scale.get(str(strength), 0.0))  # type: ignore[call-overload]


class DecideConfig(_Section):
    settle_ms: float = Field(ge=0, le=5000)
    settle_px: float = Field(ge=0.1, le=100)
    drift_px: float = Field(ge=0.1, le=100)
    window_ms: float = Field(ge=0, le=10000)
    missing_ms: float = Field(ge=0, le=10000)
    give_up_ms: float = Field(ge=100, le=60000)
    min_confidence: float = Field(ge=0, le=1)
    margin: float = Field(ge=1, le=1e6)


class HandsUse(_Section):
    enabled: bool
    every_n_frames: Annotated[int, Field(ge=1, le=1000)]
    grip_from_tip_mm: float = Field(ge=20, le=1000)
    max_tip_distance_mm: float = Field(ge=10, le=2000)


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


def load_config(path: Path | None = None) -> VisionConfig:
    """The defaults, overlaid with the file at ``path`` if given."""
    data = _read(DEFAULT_PATH)
    if path is not None:
        data = _merge(data, _read(Path(path)))
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


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` laid on ``base`` section by section; unknown keys are kept so validation names them."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(base.get(key), dict) and isinstance(value, dict) and key not in PER_WAND:
            out[key] = _merge(base[key], value)
        else:
            out[key] = value
    return out

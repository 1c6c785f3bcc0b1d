"""Every threshold of the vision pipeline, read from one JSON file.

Format (``vision/config.default.json`` holds every key with its default; a table's own file, written
by the calibration tool, may give any subset and the rest comes from the defaults):

    calibration_file   path of the calibration JSON (relative paths are relative to the repo root)
    markers.*          how wand markers are found (hues in OpenCV's 0-179 scale, per wand strength)
    pointing.*         how a wand's pose is scored against each candidate token (mm and degrees)
    decide.*           the settle window after the cue and the "unsure" margin (ms, pixels, ratios)
    hands.*            when the hand tracker is asked for the gripping hand

Every value is checked when loaded; a bad one raises ConfigError naming its key.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any
from collections.abc import Mapping

DEFAULT_PATH = Path(__file__).with_name("config.default.json")
REPO_ROOT = Path(__file__).resolve().parents[1]


class ConfigError(ValueError):
    """A vision configuration with a missing, unknown or out-of-range value."""


@dataclass(frozen=True)
class MarkerConfig:
    style: str
    hues: dict[int, float]
    hue_tolerance: float
    min_saturation: float
    min_mean_saturation: float
    min_value: float
    min_area_px: float
    bead_radius_mm: float
    band_from_tip_mm: float
    bead_area_min_ratio: float
    lone_bead_min_ratio: float
    bead_area_max_ratio: float
    band_area_max_ratio: float
    band_area_min_ratio: float
    shaft_contrast: float


@dataclass(frozen=True)
class PointingConfig:
    hover_radius_mm: float
    min_height_mm: float
    hover_height_mm: float
    hover_min_tilt_deg: float
    hover_max_bead_scale: dict[int, float]
    max_height_mm: float
    max_reach_mm: float
    height_step_mm: float
    aim_sigma_mm: float
    aim_sigma_deg: float
    length_sigma_mm: float
    far_weight: float
    none_score: float
    tip_only_weight: float
    tip_only_sigma_mm: float


@dataclass(frozen=True)
class DecideConfig:
    settle_ms: float
    settle_px: float
    drift_px: float
    window_ms: float
    missing_ms: float
    give_up_ms: float
    min_confidence: float
    margin: float


@dataclass(frozen=True)
class HandsUse:
    enabled: bool
    every_n_frames: int
    grip_from_tip_mm: float
    max_tip_distance_mm: float


@dataclass(frozen=True)
class VisionConfig:
    calibration_file: Path
    markers: MarkerConfig
    pointing: PointingConfig
    decide: DecideConfig
    hands: HandsUse


# (low, high) allowed for each number; None = unbounded on that side.
RANGES: dict[str, tuple[float | None, float | None]] = {
    "markers.hue_tolerance": (1, 45),
    "markers.min_saturation": (0, 255),
    "markers.min_mean_saturation": (0, 255),
    "markers.min_value": (0, 255),
    "markers.min_area_px": (1, None),
    "markers.bead_radius_mm": (1, 50),
    "markers.band_from_tip_mm": (20, 240),
    "markers.bead_area_min_ratio": (0.01, 1),
    "markers.lone_bead_min_ratio": (0.01, 1),
    "markers.bead_area_max_ratio": (1, 20),
    "markers.band_area_max_ratio": (0.05, 1),
    "markers.band_area_min_ratio": (0, 1),
    "markers.shaft_contrast": (1, 255),
    "pointing.hover_radius_mm": (1, 200),
    "pointing.hover_height_mm": (0, 300),
    "pointing.hover_min_tilt_deg": (0, 90),
    "pointing.hover_max_bead_scale": (0, 10),
    "pointing.min_height_mm": (0, 100),
    "pointing.max_height_mm": (0, 1000),
    "pointing.max_reach_mm": (10, 2000),
    "pointing.height_step_mm": (0.5, 100),
    "pointing.aim_sigma_mm": (0.1, 200),
    "pointing.aim_sigma_deg": (0.01, 45),
    "pointing.length_sigma_mm": (0.1, 200),
    "pointing.far_weight": (0, 1),
    "pointing.none_score": (0, 1),
    "pointing.tip_only_weight": (0, 1),
    "pointing.tip_only_sigma_mm": (0.1, 200),
    "decide.settle_ms": (0, 5000),
    "decide.settle_px": (0.1, 100),
    "decide.drift_px": (0.1, 100),
    "decide.window_ms": (0, 10000),
    "decide.missing_ms": (0, 10000),
    "decide.give_up_ms": (100, 60000),
    "decide.min_confidence": (0, 1),
    "decide.margin": (1, 1e6),
    "hands.every_n_frames": (1, 1000),
    "hands.grip_from_tip_mm": (20, 1000),
    "hands.max_tip_distance_mm": (10, 2000),
}
STYLES = ("caps",)
PER_WAND = ("hues", "hover_max_bead_scale")  # objects keyed by wand strength, given whole


def load_config(path: Path | None = None) -> VisionConfig:
    """The defaults, overlaid with the file at ``path`` if given."""
    data = _read(DEFAULT_PATH)
    if path is not None:
        data = _merge(data, _read(Path(path)), "")
    return parse_config(data)


def parse_config(data: Mapping[str, Any]) -> VisionConfig:
    """Check every value of a complete configuration mapping and build the config."""
    sections = {"markers": MarkerConfig, "pointing": PointingConfig, "decide": DecideConfig, "hands": HandsUse}
    _no_unknown(data, {"calibration_file", *sections}, "")
    built = {name: _section(name, cls, data.get(name)) for name, cls in sections.items()}
    calib = data.get("calibration_file")
    if not isinstance(calib, str) or not calib:
        raise ConfigError(f"calibration_file must be a path, got {calib!r}")
    path = Path(calib) if Path(calib).is_absolute() else REPO_ROOT / calib
    return VisionConfig(path, **built)


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ConfigError(f"no vision configuration at {str(path)!r}") from None
    except json.JSONDecodeError as e:
        raise ConfigError(f"vision configuration {str(path)!r} is not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"vision configuration {str(path)!r} must hold a JSON object")
    return data


def _merge(base: dict[str, Any], over: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if key not in base:
            raise ConfigError(f"unknown setting {prefix + key!r}")
        if isinstance(base[key], dict) and isinstance(value, dict) and key not in PER_WAND:
            out[key] = _merge(base[key], value, f"{prefix}{key}.")
        else:
            out[key] = value
    return out


def _no_unknown(data: Mapping[str, Any], known: set[str], prefix: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"unknown setting {prefix + unknown[0]!r}; known: {sorted(known)!r}")


def _section(name: str, cls: type, data: Any) -> Any:
    if not isinstance(data, dict):
        raise ConfigError(f"setting {name!r} must be an object, got {data!r}")
    names = {f.name: f for f in fields(cls)}
    _no_unknown(data, set(names), name + ".")
    values = {}
    for key, f in names.items():
        if key not in data:
            raise ConfigError(f"setting {name + '.' + key!r} is missing")
        values[key] = _value(f"{name}.{key}", f.type, data[key])
    return cls(**values)


def _value(key: str, kind: Any, value: Any) -> Any:
    if key == "markers.style":
        if value not in STYLES:
            raise ConfigError(f"setting {key!r} must be one of {STYLES!r}, got {value!r}")
        return value
    if key == "markers.hues":
        return _hues(key, value)
    if key == "pointing.hover_max_bead_scale":
        return _per_wand(key, value)
    if kind == "bool":
        if not isinstance(value, bool):
            raise ConfigError(f"setting {key!r} must be true or false, got {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"setting {key!r} must be a number, got {value!r}")
    low, high = RANGES[key]
    if (low is not None and value < low) or (high is not None and value > high):
        raise ConfigError(f"setting {key!r} must be between {low} and {high}, got {value!r}")
    return int(value) if kind == "int" else float(value)


def _hues(key: str, value: Any) -> dict[int, float]:
    if not isinstance(value, dict) or not value:
        raise ConfigError(f"setting {key!r} must map wand strengths to hues, got {value!r}")
    out = {}
    for strength, hue in value.items():
        if str(strength) not in ("1", "2", "3", "4"):
            raise ConfigError(f"setting {key!r} has unknown wand strength {strength!r} (1 to 4)")
        if isinstance(hue, bool) or not isinstance(hue, (int, float)) or not 0 <= hue < 180:
            raise ConfigError(f"setting {key + '.' + str(strength)!r} must be a hue in [0, 180), got {hue!r}")
        out[int(strength)] = float(hue)
    return out


def _per_wand(key: str, value: Any) -> dict[int, float]:
    """A number per wand strength ("1".."4"), each within ``RANGES[key]``."""
    if not isinstance(value, dict):
        raise ConfigError(f"setting {key!r} must map wand strengths to numbers, got {value!r}")
    low, high = RANGES[key]
    out = {}
    for strength, v in value.items():
        if str(strength) not in ("1", "2", "3", "4"):
            raise ConfigError(f"setting {key!r} has unknown wand strength {strength!r} (1 to 4)")
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not low <= v <= high:
            raise ConfigError(f"setting {key + '.' + str(strength)!r} must be between {low} and {high}, got {v!r}")
        out[int(strength)] = float(v)
    return out

"""Every setting of the cue in one validated value, read from JSON that calibration writes."""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from companion.cue import CueError
from companion.cue.features import FeatureConfig
from companion.cue.templates import DEFAULT_THRESHOLD_FACTOR


def default_templates_dir() -> Path:
    return Path(os.environ.get("INCANTO_CUE_TEMPLATES", "var/cue/templates"))


@dataclass(frozen=True)
class VoiceActivityConfig:
    """When a stretch of sound counts as someone speaking. Levels are in nats of power (1 nat is
    4.34 dB) above the background, which is followed as a low percentile of recent levels."""

    start_nats: float = 2.0  # this far over the background starts a phrase
    stop_nats: float = 1.0  # a phrase ends once quieter than this for `hangover_s`
    drop_nats: float = 3.5  # ...or this far under the phrase's own peak (a shout over chatter)
    end_nats: float = 2.5  # the last syllable is the last step this near the peak: chatter after a called chant is quieter
    tail_nats: float = 6.9  # the last syllable has ended once 30 dB under the peak
    max_tail_s: float = 0.12  # ...or this long after it was last loud, whatever chatter follows
    hangover_s: float = 0.25
    max_gap_s: float = 0.2  # a quieter stretch longer than this splits a phrase; only the last part is kept
    background_s: float = 3.0
    background_percentile: float = 20.0
    min_phrase_s: float = 0.25  # shorter is a dice click or a cough
    max_phrase_s: float = 3.0  # longer is talk, not the chant; only the last stretch is kept
    margin_s: float = 0.1  # audio kept either side of a phrase for the features


@dataclass(frozen=True)
class CueConfig:
    templates_dir: Path = field(default_factory=default_templates_dir)
    # None: use the threshold chosen from the enrolled takes (stored beside the templates).
    threshold: float | None = None
    threshold_factor: float = DEFAULT_THRESHOLD_FACTOR  # threshold = factor x median take-to-take distance
    band: float = 0.35
    max_stretch: float = 2.0  # a phrase more than twice as long or short as a template is not it
    voice: VoiceActivityConfig = VoiceActivityConfig()
    features: FeatureConfig = FeatureConfig()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["templates_dir"] = str(self.templates_dir)
        return data


def _section(kind: type, data: Any, name: str) -> Any:
    if not isinstance(data, dict):
        raise CueError(f"cue setting {name!r} must be an object; got {data!r}")
    known = {f.name for f in fields(kind)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise CueError(f"unknown cue setting(s) {unknown!r} in {name!r}; known: {sorted(known)!r}")
    for key, value in data.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
            raise CueError(f"cue setting {name}.{key} must be a non-negative number; got {value!r}")
    return kind(**{k: type(getattr(kind(), k))(v) for k, v in data.items()})


def from_dict(data: dict[str, Any]) -> CueConfig:
    """Validate a JSON object into a ``CueConfig``; every bad value is named in the error."""
    data = dict(data)
    config = CueConfig()
    voice = _section(VoiceActivityConfig, data.pop("voice", {}), "voice")
    feats = _section(FeatureConfig, data.pop("features", {}), "features")
    if "templates_dir" in data:
        config = replace(config, templates_dir=Path(str(data.pop("templates_dir"))))
    threshold = data.pop("threshold", None)
    if threshold is not None and (not isinstance(threshold, (int, float)) or threshold <= 0):
        raise CueError(f"cue threshold must be a positive number or null; got {threshold!r}")
    rest = _section(CueConfig, data, "cue") if data else config
    return replace(rest, templates_dir=config.templates_dir, threshold=threshold, voice=voice, features=feats)


def load(path: Path | str) -> CueConfig:
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise CueError(f"no cue settings at {str(path)!r}") from None
    except json.JSONDecodeError as e:
        raise CueError(f"cue settings {str(path)!r} are not JSON: {e}") from None
    return from_dict(data)

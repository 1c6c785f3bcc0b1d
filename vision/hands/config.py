"""Every threshold of the hand stage, in one value the pipeline's configuration fills in."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any
from collections.abc import Mapping

VIEW_NAMES = ("plain", "padded", "swapped")


@dataclass(frozen=True)
class HandsConfig:
    """How hands are looked for.

    views: the versions of each image the model is shown; hands found in any are merged.
      "plain" the image as it is; "padded" with a replicated border, so a hand cut by the image
      edge still shows its palm to the palm detector; "swapped" padded with red and blue swapped,
      which finds pale or cold-lit hands the palm detector misses in natural colour.
    look_behind: look again with the hands already found painted out, for a hand half hidden
      behind another (the palm detector keeps only one of two overlapping palms).
    """

    max_hands: int = 4
    min_detection_confidence: float = 0.5
    min_tracking_confidence: float = 0.5
    static_image_mode: bool = True
    model_complexity: int = 1
    views: tuple[str, ...] = ("padded", "swapped")
    pad_fraction: float = 0.25  # of the image's longer side, on every edge
    look_behind: bool = True
    look_behind_min_size: float = 0.7  # a hand found behind others, relative to their median size
    same_hand_distance: float = 0.2  # mean landmark distance, as a fraction of hand size

    def __post_init__(self) -> None:
        unknown = [v for v in self.views if v not in VIEW_NAMES]
        if unknown or not self.views:
            raise ValueError(f"hand views must be some of {VIEW_NAMES}, got {self.views!r}")
        if not 0.0 <= self.min_detection_confidence <= 1.0:
            raise ValueError(f"min_detection_confidence must be in [0, 1], got {self.min_detection_confidence!r}")
        if self.max_hands < 1:
            raise ValueError(f"max_hands must be at least 1, got {self.max_hands!r}")
        if not 0.0 <= self.pad_fraction <= 1.0:
            raise ValueError(f"pad_fraction must be in [0, 1], got {self.pad_fraction!r}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> HandsConfig:
        """From the "hands" slice of a JSON configuration; unknown keys are refused by name."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown hand settings {unknown!r}; known: {sorted(known)!r}")
        values = dict(data)
        if "views" in values:
            values["views"] = tuple(values["views"])
        return cls(**values)

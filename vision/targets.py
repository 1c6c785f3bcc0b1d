"""A candidate target: a legal token of the casting and where it lies on the table."""
from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Iterable, Mapping
from typing import Any


@dataclass(frozen=True)
class Candidate:
    """A token the engine allows as a target: its id and its disc on the table (mm)."""

    id: str
    x_mm: float
    y_mm: float
    radius_mm: float

    def as_dict(self) -> dict[str, float | str]:
        return {"id": self.id, "x_mm": self.x_mm, "y_mm": self.y_mm, "radius_mm": self.radius_mm}


def candidates_from(raw: Iterable[Candidate | Mapping[str, Any]]) -> list[Candidate]:
    """The engine's candidates (dicts with id, x_mm, y_mm, radius_mm, or Candidates) as Candidates;
    a bad one raises ValueError naming it."""
    out = []
    for c in raw:
        if isinstance(c, Candidate):
            out.append(c)
            continue
        missing = {"id", "x_mm", "y_mm", "radius_mm"} - set(c)
        if missing:
            raise ValueError(f"candidate token {dict(c)!r} lacks {sorted(missing)!r}")
        values = [c["x_mm"], c["y_mm"], c["radius_mm"]]
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values) \
                or c["radius_mm"] <= 0:
            raise ValueError(f"candidate token {dict(c)!r} needs finite millimetres and a positive radius")
        out.append(Candidate(str(c["id"]), float(c["x_mm"]), float(c["y_mm"]), float(c["radius_mm"])))
    return out

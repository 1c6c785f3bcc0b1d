"""After a contest the winner and the weakest claimant swap wands; Incanto checks at the table that the
swap really happened, from where each wand is seen."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.axis import WandAxis
from vision.decide import LOST
from vision.table_geometry import TableGeometry

TIP_HEIGHT_MM = 30.0  # a pointing wand's tip and band, roughly (the direction matters, not the place)
BAND_HEIGHT_MM = 110.0


@dataclass(frozen=True)
class SeatPlace:
    """A player's place: name and the point of the table edge in front of them (table mm)."""

    name: str
    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class SwapProblem:
    wand: int
    expected_seat: str
    seen_seat: str | None

    @property
    def message(self) -> str:
        if self.seen_seat is None:
            return f"wand {self.wand} was not seen at a seat; is it at {self.expected_seat}'s?"
        return f"wand {self.wand} is still at {self.seen_seat}'s seat; it should be at {self.expected_seat}'s"


def seat_of(geo: TableGeometry, axis: WandAxis, seats: list[SeatPlace], margin_deg: float = 15.0) -> str | None:
    """The seat a wand is held from, or None when it cannot be told (then the tablet asks).

    A wand is held from behind: on the table, the way from its tip back through its band (or grip)
    leads to its holder, who is not always the nearest seat. The best seat must be ``margin_deg``
    closer to that way than the next one. A wand lost under a fist (``vision.lost_tip``) is not seen: the
    way its tip was heading says nothing of who holds it."""
    if axis.back_px is None or axis.source == LOST:
        return None
    tip = geo.at_height(axis.tip_px, np.array([TIP_HEIGHT_MM]))[0, :2]
    back = geo.at_height(axis.back_px, np.array([BAND_HEIGHT_MM]))[0, :2]
    ranked = sorted((_angle(back - tip, np.array([s.x_mm, s.y_mm]) - tip), s.name) for s in seats)
    if len(ranked) > 1 and ranked[1][0] - ranked[0][0] < margin_deg:
        return None
    return ranked[0][1]


def _angle(a: np.ndarray, b: np.ndarray) -> float:
    cosine = float(a @ b) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-9)
    return float(np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0))))


def check_swap(expected: dict[int, str], seen: dict[int, str | None]) -> list[SwapProblem]:
    """Every wand not where the swap should have put it; empty when the swap happened.

    expected: wand strength -> seat name after the swap; seen: wand strength -> seat name (None if the
    wand was not seen or its seat could not be told)."""
    unknown = sorted(set(seen) - set(expected))
    if unknown:
        raise ValueError(f"wands {unknown!r} were seen but are not in play")
    return [SwapProblem(k, seat, seen.get(k)) for k, seat in sorted(expected.items()) if seen.get(k) != seat]

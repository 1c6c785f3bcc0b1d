"""Which seat a hand (and so the wand it grips) belongs to.

From above, an arm runs from its owner's seat to the hand. So the seat a hand belongs to is the
one in the direction the hand points back along its arm, not simply the nearest seat: a player
reaching into the middle of the table is often nearer a neighbour's place than their own.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.hands.hand import WRIST, Hand


@dataclass(frozen=True)
class Seat:
    """A player's place, in image pixels.

    at: (x, y) where the player's arm enters the picture: a point on the table edge, or on the
      image border when the seat is outside the picture.
    reach: optional (dx, dy) direction an arm from this seat points into the picture.
    """

    name: str
    at: tuple[float, float]
    reach: tuple[float, float] | None = None


@dataclass(frozen=True)
class SeatingConfig:
    max_angle_deg: float = 60.0  # a bent wrist turns the hand this far from the forearm
    margin_deg: float = 15.0  # the runner-up must be this much further off, or ask on the tablet
    reach_weight: float = 0.5  # how much a seat's `reach` direction counts against the seat angle


def _angle_deg(a: np.ndarray, b: np.ndarray) -> float:
    cosine = float(np.dot(a, b)) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-9)
    return float(np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0))))


def seat_angle(hand: Hand, seat: Seat, config: SeatingConfig) -> float:
    """Degrees between the line back along the hand from the wrist and the way to the seat."""
    to_seat = np.asarray(seat.at, dtype=np.float64) - hand.landmarks[WRIST]
    angle = _angle_deg(-hand.forward_direction(), to_seat)
    if seat.reach is not None:
        angle += config.reach_weight * _angle_deg(hand.forward_direction(), np.asarray(seat.reach, dtype=np.float64))
    return angle


def seat_of_hand(hand: Hand, seats: list[Seat], config: SeatingConfig | None = None) -> Seat | None:
    """The seat the hand's arm comes from, or None when no seat or two seats fit (ask instead)."""
    config = config or SeatingConfig()
    ranked = sorted((seat_angle(hand, s, config), i) for i, s in enumerate(seats))
    if not ranked or ranked[0][0] > config.max_angle_deg:
        return None
    if len(ranked) > 1 and ranked[1][0] - ranked[0][0] < config.margin_deg:
        return None
    return seats[ranked[0][1]]

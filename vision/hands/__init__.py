"""Hands: MediaPipe hand landmarks behind one small interface, hands tied to seats, and finger
pointing for tables without marked wands. Only this package imports mediapipe.

    with LegacyHands() as tracker:
        for hand in tracker.detect(frame.image):
            seat = seat_of_hand(hand, seats)
            ray = finger_pointing(hand)
"""
from typing import TYPE_CHECKING

from vision.hands.config import HandsConfig
from vision.hands.hand import Hand, Handedness
from vision.hands.pointing import PointingRay, finger_pointing
from vision.hands.seats import Seat, SeatingConfig, seat_of_hand
from vision.hands.tracker import HandTracker

if TYPE_CHECKING:
    from vision.hands.legacy import LegacyHands
    from vision.hands.tasks import HandModelMissing, TasksHands

__all__ = [
    "Hand", "Handedness", "HandTracker", "HandsConfig", "LegacyHands", "TasksHands", "HandModelMissing",
    "PointingRay", "finger_pointing", "Seat", "SeatingConfig", "seat_of_hand",
]


def __getattr__(name: str) -> object:
    """The MediaPipe-backed trackers load on first use, so importing hands stays cheap."""
    if name == "LegacyHands":
        from vision.hands.legacy import LegacyHands
        return LegacyHands
    if name in ("TasksHands", "HandModelMissing"):
        from vision.hands import tasks
        return getattr(tasks, name)
    raise AttributeError(f"module 'vision.hands' has no attribute {name!r}")

"""Finger pointing: a ray from the index fingertip, on drawn hands and on real photos."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.hands import Hand, finger_pointing
from vision.hands.hand import INDEX_TIP

from .synthetic import drawn_hand
from .test_real_photos import POINTING_UP, UP_TOLERANCE_DEG


def test_a_straight_finger_gives_a_ray_from_its_tip() -> None:
    hand = drawn_hand((300, 400), forward_deg=-90.0, index_deg=-60.0, score=0.8)
    ray = finger_pointing(hand)
    assert ray is not None
    assert ray.origin == pytest.approx(hand.landmarks[INDEX_TIP])
    assert ray.direction == pytest.approx([np.cos(np.radians(-60)), np.sin(np.radians(-60))])
    assert ray.confidence == pytest.approx(0.8, abs=1e-6)
    assert ray.at(10.0) == pytest.approx(ray.origin + 10.0 * ray.direction)


def test_a_curled_finger_is_not_pointing() -> None:
    assert finger_pointing(drawn_hand((0, 0), 0.0, curl_deg=60.0)) is None


def test_a_slightly_bent_finger_points_with_less_confidence() -> None:
    straight = finger_pointing(drawn_hand((0, 0), 0.0))
    bent = finger_pointing(drawn_hand((0, 0), 0.0, curl_deg=12.0))
    assert straight is not None and bent is not None
    assert 0.0 < bent.confidence < straight.confidence


@pytest.mark.parametrize("name", POINTING_UP)
def test_pointing_photos_give_an_upward_ray_from_the_top_of_the_hand(
        name: str, hands_in: Callable[[str], list[Hand]]) -> None:
    (hand,) = hands_in(name)
    ray = finger_pointing(hand)
    assert ray is not None and ray.confidence > 0.5
    assert np.degrees(np.arccos(-ray.direction[1])) < UP_TOLERANCE_DEG
    assert ray.origin[1] == pytest.approx(hand.box[1], abs=0.1 * hand.size_px)  # the tip is the top


def test_thumbs_up_is_not_finger_pointing(hands_in: Callable[[str], list[Hand]]) -> None:
    for name in ["hands_mediapipe_samples/gesture_recognizer_hand_thumb_up.jpg",
                 "hands_mediapipe_samples/ios_thumbs-up.png"]:
        (hand,) = hands_in(name)
        assert finger_pointing(hand) is None

"""What a Hand computes from its landmarks, checked on hands drawn from plain geometry."""
from __future__ import annotations

import numpy as np
import pytest

from vision.hands import Hand, HandsConfig
from vision.hands.hand import INDEX_TIP, WRIST

from .synthetic import drawn_hand


@pytest.mark.parametrize("index_deg", [-90.0, 0.0, 33.0, 135.0, 200.0])
def test_index_direction_follows_the_finger(index_deg: float) -> None:
    hand = drawn_hand((200, 200), forward_deg=-90.0, index_deg=index_deg)
    expected = np.array([np.cos(np.radians(index_deg)), np.sin(np.radians(index_deg))])
    assert hand.index_direction() == pytest.approx(expected, abs=1e-9)


def test_index_direction_points_from_root_to_tip_even_when_bent() -> None:
    hand = drawn_hand((0, 0), forward_deg=0.0, curl_deg=25.0)
    direction = hand.index_direction()
    assert np.linalg.norm(direction) == pytest.approx(1.0)
    root_to_tip = hand.landmarks[INDEX_TIP] - hand.landmarks[5]
    assert direction @ root_to_tip > 0.9 * np.linalg.norm(root_to_tip)


def test_a_curled_finger_is_less_straight() -> None:
    straight = drawn_hand((0, 0), 0.0).index_straightness()
    bent = drawn_hand((0, 0), 0.0, curl_deg=50.0).index_straightness()
    assert straight == pytest.approx(1.0)
    assert bent < 0.9


def test_palm_centre_lies_between_wrist_and_knuckles() -> None:
    hand = drawn_hand((100, 300), forward_deg=-90.0, size=100.0)
    x, y = hand.palm_center()
    assert x == pytest.approx(100 + (-0.25 + 0.0 + 0.2 + 0.4) * 100 / 5)
    assert y == pytest.approx(300 - 4 * 90 / 5)


def test_box_and_moved() -> None:
    hand = drawn_hand((50, 60), 0.0)
    moved = hand.moved(np.array([10.0, 20.0]), scale=2.0)
    assert moved.landmarks[WRIST] == pytest.approx([20.0, 20.0])
    assert moved.size_px == pytest.approx(hand.size_px / 2)
    x0, y0, x1, y1 = hand.box
    assert (hand.landmarks >= [x0, y0]).all() and (hand.landmarks <= [x1, y1]).all()


def test_bad_hands_are_refused_by_value() -> None:
    with pytest.raises(ValueError, match=r"\(20, 2\)"):
        Hand(np.zeros((20, 2)), "Right", 1.0)
    with pytest.raises(ValueError, match="'left'"):
        Hand(np.zeros((21, 2)), "left", 1.0)  # type: ignore[arg-type]


def test_config_from_json_slice_refuses_unknown_settings() -> None:
    config = HandsConfig.from_mapping({"views": ["plain"], "max_hands": 2})
    assert config.views == ("plain",) and config.max_hands == 2
    with pytest.raises(ValueError, match="'max_hand'"):
        HandsConfig.from_mapping({"max_hand": 2})
    with pytest.raises(ValueError, match="'mirrored'"):
        HandsConfig(views=("mirrored",))


def test_tracker_refuses_images_it_cannot_read(tracker) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=r"\(48, 64\)"):
        tracker.detect(np.zeros((48, 64), np.uint8))
    with pytest.raises(ValueError, match="'float32'"):
        tracker.detect(np.zeros((48, 64, 3), np.float32))

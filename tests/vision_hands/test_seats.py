"""Tying a hand (and the wand it grips) to the seat its arm comes from."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from vision.hands import Hand, Seat, seat_of_hand

from .synthetic import drawn_hand

# A 640x480 overhead view of a table with four places, one at the middle of each image edge.
SOUTH, NORTH, WEST, EAST = Seat("Lera", (320, 480)), Seat("Bram", (320, 0)), Seat("Ines", (0, 240)), Seat("Odo", (640, 240))
TABLE = [SOUTH, NORTH, WEST, EAST]


@pytest.mark.parametrize("seat,wrist,forward_deg", [
    (SOUTH, (320, 400), -90.0), (NORTH, (300, 80), 90.0), (WEST, (90, 250), 0.0), (EAST, (560, 230), 180.0)])
def test_a_hand_belongs_to_the_seat_its_arm_comes_from(seat: Seat, wrist: tuple[float, float],
                                                       forward_deg: float) -> None:
    assert seat_of_hand(drawn_hand(wrist, forward_deg, size=60), TABLE) is seat


def test_a_hand_reaching_across_is_not_given_to_the_nearest_seat() -> None:
    # Lera reaches far up-right, next to Odo's place: nearer Odo, but her arm runs back to her.
    hand = drawn_hand((520, 200), forward_deg=-50.0, size=60)
    assert seat_of_hand(hand, TABLE) is SOUTH


def test_two_seats_in_line_with_the_arm_means_ask() -> None:
    # Two places side by side at the bottom edge; a hand half way between reaching straight up.
    left, right = Seat("Ana", (300, 480)), Seat("Ben", (340, 480))
    assert seat_of_hand(drawn_hand((320, 200), -90.0, size=60), [left, right]) is None
    assert seat_of_hand(drawn_hand((320, 200), -90.0, size=60), [left, right, NORTH]) is None


def test_no_seat_behind_the_arm_means_ask() -> None:
    assert seat_of_hand(drawn_hand((320, 240), -90.0), [NORTH, WEST, EAST]) is None
    assert seat_of_hand(drawn_hand((320, 240), -90.0), []) is None


def test_a_seats_reach_direction_separates_arms_entering_from_one_border() -> None:
    # Both players sit beyond the bottom border; one reaches in up-left, the other up-right.
    ana = Seat("Ana", (320, 480), reach=(-1.0, -1.0))
    ben = Seat("Ben", (320, 480), reach=(1.0, -1.0))
    assert seat_of_hand(drawn_hand((250, 380), -135.0, size=60), [ana, ben]) is ana
    assert seat_of_hand(drawn_hand((390, 380), -45.0, size=60), [ana, ben]) is ben


@pytest.mark.parametrize("name,seat", [
    ("hands_mediapipe_samples/hand_victory_1200px.jpg", "bottom"),
    ("hands_sign_digits/example_1.jpg", "bottom"),
    ("hands_sign_digits/digit1_IMG_5102.jpg", "bottom"),
    ("hands_mediapipe_samples/hl_test_video_frame150.jpg", "top"),
])
def test_real_arms_are_tied_to_the_border_they_enter_from(
        name: str, seat: str, hands_in: Callable[[str], list[Hand]]) -> None:
    from .conftest import photo

    height, width = photo(name).shape[:2]
    borders = [Seat("bottom", (width / 2, height)), Seat("top", (width / 2, 0)),
               Seat("left", (0, height / 2)), Seat("right", (width, height / 2))]
    (hand,) = hands_in(name)
    found = seat_of_hand(hand, borders)
    assert found is not None and found.name == seat

"""firmware/main.py's pin mapping, with a stand-in `machine` module, under both interpreters."""
from __future__ import annotations


def test_every_button_and_tip_switch_input_is_pulled_up(board: list[str]) -> None:
    inputs = [line for line in board if line.startswith("input")]
    assert len(inputs) == 17 and all(line.endswith("pull_up 1") for line in inputs)


def test_no_pin_does_two_jobs(board: list[str]) -> None:
    assert "pins 26 distinct 26" in board


def test_released_buttons_read_as_nothing_pressed(board: list[str]) -> None:
    assert "idle 0" in board


def test_each_grounded_pin_is_its_own_wand(board: list[str]) -> None:
    masks = [line for line in board if line.startswith("wand")]
    assert masks == [f"wand {n} mask {1 << (n - 1)}" for n in range(1, 9)]


def test_the_cue_pin_is_the_cue_bit(board: list[str]) -> None:
    assert "cue mask 256 cue_bit 256" in board


def test_each_grounded_tip_pin_is_its_wands_tip_bit(board: list[str]) -> None:
    tips = [line.split() for line in board if line.startswith("tip")]
    assert [int(t[1]) for t in tips] == list(range(1, 9))
    assert all(t[3] == t[5] and int(t[3]) == 1 << (8 + int(t[1])) for t in tips)


def test_a_press_and_a_tip_read_together_are_both_in_the_mask(board: list[str]) -> None:
    assert f"together wand 2 tip 2 mask {(1 << 1) | (1 << 10)}" in board


def test_a_wand_led_drives_its_pin(board: list[str]) -> None:
    assert "led3 pin 12 level 1" in board


def test_every_boot_gets_a_four_digit_id(board: list[str]) -> None:
    assert "boot_id 4" in board

"""firmware/main.py's pin mapping, with a stand-in `machine` module, under both interpreters."""
from __future__ import annotations


def test_every_button_input_is_pulled_up(board: list[str]) -> None:
    inputs = [line for line in board if line.startswith("input")]
    assert len(inputs) == 9 and all(line.endswith("pull_up 1") for line in inputs)


def test_released_buttons_read_as_nothing_pressed(board: list[str]) -> None:
    assert "idle 0" in board


def test_each_grounded_pin_is_its_own_wand(board: list[str]) -> None:
    masks = [line for line in board if line.startswith("wand")]
    assert masks == [f"wand {n} mask {1 << (n - 1)}" for n in range(1, 9)]


def test_the_cue_pin_is_the_cue_bit(board: list[str]) -> None:
    assert "cue mask 256 cue_bit 256" in board


def test_a_wand_led_drives_its_pin(board: list[str]) -> None:
    assert "led3 pin 12 level 1" in board


def test_every_boot_gets_a_four_digit_id(board: list[str]) -> None:
    assert "boot_id 4" in board

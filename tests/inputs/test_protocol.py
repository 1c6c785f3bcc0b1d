"""The host's hub-protocol parser, fed bytes with no port at all."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.inputs.events import Press, RaceWon, Release, TipLifted, TipPressed
from companion.inputs.protocol import Heartbeat, Hello, HubLineError, HubProtocol, Lost, frame, unframe


class Ear:
    """Collects what the parser hands on."""

    def __init__(self) -> None:
        self.heard: list[tuple[int, object]] = []
        self.parser = HubProtocol(lambda seq, message, raw: self.heard.append((seq, message)), clock=lambda: 7.0)

    def feed(self, data: bytes) -> list[object]:
        self.parser.data_received(data)
        return [message for _, message in self.heard]


def test_a_press_line_becomes_a_press_with_its_hub_time() -> None:
    ear = Ear()
    assert ear.feed(frame(5, "P 3 123456")) == [Press(3, 123456, 7.0)]
    assert ear.heard[0][0] == 5


def test_lines_split_anywhere_are_reassembled() -> None:
    ear = Ear()
    data = frame(1, "P 2 10") + frame(2, "R 2 20") + frame(3, "WIN 4 2 10 2,6")
    for index in range(len(data)):
        ear.feed(data[index:index + 1])
    assert ear.feed(b"") == [Press(2, 10, 7.0), Release(2, 20, 7.0), RaceWon(2, 10, (2, 6), 4)]


def test_tip_lines_become_tip_events_with_their_hub_time() -> None:
    ear = Ear()
    assert ear.feed(frame(1, "T 4 5000") + frame(2, "U 4 9000") + frame(3, "U 8 0")) == \
        [TipPressed(4, 5000, 7.0), TipLifted(4, 9000, 7.0), TipLifted(8, 0, 7.0)]
    assert ear.parser.garbage == 0


@pytest.mark.parametrize("line, reason", [
    (b"@1 P 3 100*0000\n", "bad_checksum"),
    (b"P 3 100\n", "no_frame_start"),
    (b"@1 P 3 100\n", "no_checksum"),
    (b"\xff\xfe@\x00\n", "no_checksum"),
    (frame(1, "ZAP 3"), "unknown_kind"),
    (frame(1, "P 9 100"), "unknown_wand"),
    (frame(1, "P 0 100"), "unknown_wand"),
    (frame(1, "P 3"), "bad_arguments"),
    (frame(1, "P three 100"), "bad_arguments"),
    (frame(1, "WIN 1 2 100 2,12"), "unknown_wand"),
    (frame(1, "T 9 100"), "unknown_wand"),
    (frame(1, "U 0 100"), "unknown_wand"),
    (frame(1, "T 3"), "bad_arguments"),
    (frame(1, "T 3 100 7"), "bad_arguments"),
    (frame(1, "T 3 -100"), "bad_arguments"),
    (frame(1, "U 3 soon"), "bad_arguments"),
    (frame(1, "U three 100"), "bad_arguments"),
    (b"@1 T 3 100*0000\n", "bad_checksum"),
    (b"x" * 200, "too_long"),
    (b"HELLO 0 old\n", "old_firmware"),
])
def test_bad_lines_are_rejected_counted_and_named(line: bytes, reason: str) -> None:
    ear = Ear()
    assert ear.feed(line) == []
    assert ear.parser.rejected[reason] == 1
    assert ear.parser.last_problem


def test_a_frame_right_after_garbage_on_the_same_line_survives() -> None:
    ear = Ear()
    assert ear.feed(b"\x13\x37noise" + frame(4, "P 1 50")) == [Press(1, 50, 7.0)]
    assert ear.parser.rejected["half_frame"] == 1


def test_a_frame_that_starts_inside_a_runaway_line_survives() -> None:
    ear = Ear()
    data = b"z" * 90 + frame(4, "P 6 70")
    for index in range(0, len(data), 7):
        ear.feed(data[index:index + 7])
    assert ear.feed(b"") == [Press(6, 70, 7.0)]
    assert ear.parser.rejected["too_long"] == 1


def test_half_a_frame_then_a_new_frame_loses_only_the_half() -> None:
    ear = Ear()
    half = frame(1, "P 1 50")[:7]
    assert ear.feed(half + frame(2, "P 2 60")) == [Press(2, 60, 7.0)]
    assert ear.parser.garbage == 1


def test_a_half_frame_when_the_port_closes_is_counted() -> None:
    ear = Ear()
    ear.feed(frame(1, "P 1 50")[:6])
    ear.parser.connection_lost()
    assert ear.parser.rejected["half_frame"] == 1
    assert ear.feed(frame(2, "HB 9")) == [Heartbeat(9)]


def test_an_old_hello_is_passed_on_so_the_link_can_refuse_it() -> None:
    ear = Ear()
    assert ear.feed(frame(0, "HELLO 0 0.0.9")) == [Hello(0, "0.0.9", 0, "?")]


def test_the_hello_sets_how_many_wands_are_valid() -> None:
    ear = Ear()
    ear.feed(frame(0, "HELLO 1 0.1.0 4 beef") + frame(1, "P 5 10") + frame(2, "P 4 11"))
    assert [m for m in ear.feed(b"") if isinstance(m, Press)] == [Press(4, 11, 7.0)]
    assert ear.parser.rejected["unknown_wand"] == 1


def test_lost_lines_are_a_message_of_their_own() -> None:
    assert Ear().feed(frame(9, "LOST 3 4")) == [Lost(3, 4)]


def test_unframe_names_the_bad_value() -> None:
    with pytest.raises(HubLineError, match="checksum '0000'") as error:
        unframe(b"@1 P 3 100*0000")
    assert isinstance(error.value, ValueError)


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=0, max_size=4000))
def test_random_bytes_never_make_a_press(noise: bytes) -> None:
    assert Ear().feed(noise) == []


@settings(max_examples=40, deadline=None)
@given(st.lists(st.binary(max_size=60), min_size=5, max_size=5), st.integers(0, 2**32))
def test_real_frames_between_garbage_lines_all_arrive(noise: list[bytes], seed: int) -> None:
    # Garbage that ends in a newline cannot swallow the frame after it.
    rng = random.Random(seed)
    presses = [Press(rng.randint(1, 8), rng.randint(0, 10**9), 7.0) for _ in noise]
    data = b"".join(junk.replace(b"\n", b"") + b"\n" + frame(i, f"P {p.wand} {p.hub_us}")
                    for i, (junk, p) in enumerate(zip(noise, presses)))
    assert Ear().feed(data) == presses

"""The hub firmware's logic, run as scripted scenarios under CPython and the real MicroPython.

Each test reads what the hub sent through the host's own protocol parser, so the firmware's
encoder and the host's decoder are checked against each other on every line.
"""
from __future__ import annotations

from companion.inputs.events import EarlyPress, Press, RaceArmed, RaceWon, Release, TipLifted, TipPressed
from companion.inputs.protocol import Ack, CuePressed, Hello, HubError, HubProtocol, HubTime, Lost, Pong


def decode(lines: list[str]) -> list[tuple[int, object]]:
    heard: list[tuple[int, object]] = []
    parser = HubProtocol(lambda seq, message, raw: heard.append((seq, message)), clock=lambda: 0.0)
    parser.data_received("".join(line + "\n" for line in lines).encode())
    assert parser.garbage == 0, parser.last_problem
    return heard


def messages(transcript, scenario: str, kind: type) -> list:
    lines, _ = transcript
    return [message for _, message in decode(lines[scenario]) if isinstance(message, kind)]


def test_every_line_the_hub_sends_passes_the_host_parser(transcript) -> None:
    lines, _ = transcript
    for scenario, sent in lines.items():
        assert len(decode(sent)) == len(sent), scenario


def test_hub_greets_on_boot_and_on_request(transcript) -> None:
    hellos = messages(transcript, "hello", Hello)
    assert hellos == [Hello(1, "0.2.0", 8, "beef")] * 2


def test_a_bouncing_press_is_one_press_stamped_at_first_touch(transcript) -> None:
    assert messages(transcript, "bounce", Press) == [Press(3, 10000, 0.0)]
    assert messages(transcript, "bounce", Release) == [Release(3, 50000, 0.0)]


def test_a_spike_on_the_line_is_no_press(transcript) -> None:
    assert messages(transcript, "spike", Press) == []
    assert messages(transcript, "spike", CuePressed) == []


def test_same_scan_presses_tie_and_seating_order_breaks_the_tie(transcript) -> None:
    assert messages(transcript, "race_tie", RaceArmed) == [RaceArmed(7, 1000)]
    assert messages(transcript, "race_tie", RaceWon) == [RaceWon(5, 20000, (5, 2), 7)]
    assert Press(7, 20050, 0.0) in messages(transcript, "race_tie", Press)


def test_earliest_timestamp_wins_by_one_scan(transcript) -> None:
    assert messages(transcript, "race_first", RaceWon) == [RaceWon(7, 30000, (), 8)]


def test_jumping_the_gun_locks_a_wand_out(transcript) -> None:
    assert messages(transcript, "lockout", EarlyPress) == [EarlyPress(9, 4, 200000)]
    assert messages(transcript, "lockout", RaceWon) == [RaceWon(6, 300000, (), 9)]


def test_a_press_straddling_the_arming_counts_as_early_and_locks_out(transcript) -> None:
    assert messages(transcript, "straddle", EarlyPress) == [EarlyPress(6, 5, 49900), EarlyPress(6, 5, 100000)]
    assert messages(transcript, "straddle", RaceWon) == [RaceWon(2, 200000, (), 6)]


def test_a_button_held_through_arming_cannot_win(transcript) -> None:
    assert messages(transcript, "held", RaceWon) == [RaceWon(3, 800000, (), 3)]


def test_a_disarmed_race_has_no_winner(transcript) -> None:
    assert messages(transcript, "disarm", RaceWon) == []
    assert messages(transcript, "disarm", Press) == [Press(1, 10000, 0.0)]


def test_resend_repeats_lines_byte_for_byte_and_names_what_is_gone(transcript) -> None:
    lines, _ = transcript
    sent = lines["resend"]
    press = next(line for line in sent if " P 1 " in line)
    release = next(line for line in sent if " R 1 " in line)
    assert sent.count(press) == 2 and sent.count(release) == 2
    assert messages(transcript, "resend", Lost) == [Lost(60000, 3)]


def test_lines_overwritten_in_the_ring_are_reported_lost(transcript) -> None:
    assert messages(transcript, "overwrite", Lost) == [Lost(0, 10)]


def test_host_commands_are_answered_and_bad_ones_refused(transcript) -> None:
    assert messages(transcript, "commands", Pong) == [Pong("abc", 1000), Pong("bytewise", 9500)]
    assert messages(transcript, "commands", HubTime) == [HubTime(2000)]
    assert messages(transcript, "commands", Ack) == [Ack("LED 3 1")]
    errors = [(e.command_seq, e.reason) for e in messages(transcript, "commands", HubError)]
    assert errors == [("3", "bad_arguments"), ("4", "unknown_command"), ("5", "bad_arguments"),
                      ("-", "bad_checksum"), ("-", "no_frame_start"), ("-", "toolong")]
    assert transcript[1]["commands"] == ["led3 1"]


def test_a_blinking_led_blinks(transcript) -> None:
    (note,) = transcript[1]["blink"]
    assert int(note.split()[1]) >= 5


def test_the_cue_button_is_stamped_at_first_touch(transcript) -> None:
    assert messages(transcript, "cue", CuePressed) == [CuePressed(5000)]


def test_stamps_keep_counting_across_the_tick_wrap(transcript) -> None:
    assert messages(transcript, "wrap", Press) == [Press(1, 2000, 0.0), Press(2, 40000, 0.0)]
    assert messages(transcript, "wrap", Release) == [Release(1, 20000, 0.0)]


def test_sequence_numbers_wrap_at_65536(transcript) -> None:
    lines, _ = transcript
    seqs = [seq for seq, _ in decode(lines["seq_wrap"])]
    assert seqs[1:5] == [65534, 65535, 0, 1]


def tips(transcript, scenario: str) -> list:
    lines, _ = transcript
    return [message for _, message in decode(lines[scenario]) if isinstance(message, (TipPressed, TipLifted))]


def test_a_host_that_never_asked_hears_no_tip_switch(transcript) -> None:
    lines, _ = transcript
    assert tips(transcript, "tips_unasked") == []
    assert len(lines["tips_unasked"]) > 1        # the hub was talking (heartbeats), just not of tips


def test_asked_the_hub_tells_every_tip_then_each_touch_and_lift_stamped_at_first_contact(transcript) -> None:
    told = tips(transcript, "tips")
    asked = [TipLifted(w, 0, 0.0) for w in (1, 2, 3, 4, 5)] + [TipPressed(6, 5000, 0.0)] + \
        [TipLifted(w, 0, 0.0) for w in (7, 8)]
    assert told == asked + [TipPressed(3, 30000, 0.0), TipLifted(3, 70000, 0.0)]    # wand 5's spike: nothing
    assert messages(transcript, "tips", Ack) == [Ack("TIPS")]
    assert [(e.command_seq, e.reason) for e in messages(transcript, "tips", HubError)] == [("1", "bad_arguments")]


def test_a_tip_touching_down_never_takes_part_in_a_race(transcript) -> None:
    assert messages(transcript, "tips_no_race", RaceWon) == [RaceWon(4, 30000, (), 2)]
    assert messages(transcript, "tips_no_race", EarlyPress) == []
    assert messages(transcript, "tips_no_race", Press) == [Press(4, 30000, 0.0)]
    # The same scan stamps a tip and a button with the same microsecond.
    assert TipPressed(1, 30000, 0.0) in tips(transcript, "tips_no_race")
    assert TipPressed(2, 20000, 0.0) in tips(transcript, "tips_no_race")


def test_micropython_and_cpython_send_the_same_bytes(cpython_output: str, micropython_output: str) -> None:
    strip = lambda text: [row for row in text.splitlines() if not row.startswith("IMPL")]  # noqa: E731
    assert strip(micropython_output) == strip(cpython_output)

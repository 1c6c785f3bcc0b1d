"""The serial link, through a real tty (socat pty pair) to the simulated hub running the firmware."""
from __future__ import annotations

import random

import pytest
import serial

from companion.inputs.events import CueHeard, Press, RaceArmed, RaceWon, Release, TipLifted, TipPressed
from companion.inputs.link import HubLink
from companion.inputs.protocol import frame
from companion.inputs.ptypair import PtyPair
from companion.inputs.simhub import SimHub

from .conftest import Rig, drain, wait_for

# With INCANTO_RIG=hardware the `rig` tests talk to a real hub; the rest always use the simulator.
pytestmark = pytest.mark.hardware


def presses(events: list) -> list[tuple[int, int]]:
    return [(e.wand, e.hub_us) for e in events if isinstance(e, Press)]


def test_handshake_reports_the_hub_on_the_status_page(rig: Rig) -> None:
    status = rig.link.status.snapshot()
    assert status["connected"] is True
    assert status["protocol_version"] == 1
    assert status["firmware"] and status["boot_id"]


def test_presses_arrive_with_their_hub_time(rig: Rig) -> None:
    sim = rig.hands()
    for wand in (3, 1, 8):
        sim.tap(wand)
    events = drain(rig.link)
    assert presses(events) == sim.sent_presses
    assert [e.wand for e in events if isinstance(e, Release)] == [3, 1, 8]
    # host_t is the press moment on the host clock, not the (later) arrival.
    first = next(e for e in events if isinstance(e, Press))
    assert abs(first.host_t - first.hub_us / 1e6) < 0.25      # the simulated hub counts host time


def test_the_cue_button_reports_when_it_was_pressed(rig: Rig) -> None:
    rig.hands().cue()
    (cue,) = [e for e in drain(rig.link) if isinstance(e, CueHeard)]
    assert cue.source == "hub"


def test_a_race_is_decided_by_hub_time_with_seating_order_for_ties(rig: Rig) -> None:
    sim = rig.hands()
    rig.link.arm(11, order=(6, 2, 4))
    assert wait_for(lambda: any(isinstance(e, RaceArmed) for e in list(rig.link.events.queue)))
    sim.press_together(4, 2)
    events = drain(rig.link)
    assert [e for e in events if isinstance(e, RaceWon)] == [RaceWon(2, sim.sent_presses[0][1], (2, 4), 11)]


def test_unplugging_loses_no_press_the_hub_sent(rig: Rig) -> None:
    sim, pair = rig.hands(), rig.pair
    assert pair is not None
    sim.tap(1)
    pair.unplug()
    assert wait_for(lambda: not rig.link.status.connected)
    for wand in (2, 3, 4, 5):
        sim.tap(wand)
    pair.replug()
    assert rig.link.wait_connected(5)
    sim.tap(6)
    events = drain(rig.link, settle=0.6)
    assert presses(events) == sim.sent_presses
    assert [w for w, _ in presses(events)] == [1, 2, 3, 4, 5, 6]
    status = rig.link.status.snapshot()
    assert status["reconnects"] == 1 and status["resends"] >= 1 and status["lines_lost"] == 0
    assert "vanished" in status["last_error"] or "cannot open" in status["last_error"]


def test_lines_the_hub_can_no_longer_resend_are_reported_lost(rig: Rig) -> None:
    sim, pair = rig.hands(), rig.pair
    assert pair is not None
    sim.hub.ring = sim.firmware.Ring(4)          # a tiny ring, so an outage outgrows it
    pair.unplug()
    assert wait_for(lambda: not rig.link.status.connected)
    for wand in (1, 2, 3, 4, 5):
        sim.tap(wand)
    pair.replug()
    assert rig.link.wait_connected(5)
    assert wait_for(lambda: rig.link.status.lines_lost > 0)
    assert "lost" in rig.link.status.last_error
    events = drain(rig.link)
    assert set(presses(events)) <= set(sim.sent_presses)      # nothing invented


def test_garbage_on_the_line_invents_nothing_and_loses_nothing(rig: Rig) -> None:
    sim = rig.hands()
    rng = random.Random(7)
    for wand in (1, 2, 3, 4, 5, 6, 7, 8):
        sim.inject(bytes(rng.getrandbits(8) for _ in range(500)))
        sim.tap(wand)
    events = drain(rig.link, settle=0.8)
    assert presses(events) == sim.sent_presses
    status = rig.link.status.snapshot()
    assert status["garbage"] > 0 and "garbage" in status["last_error"]


def test_an_unknown_wand_is_rejected_with_a_clear_message(rig: Rig) -> None:
    sim = rig.hands()
    sim.inject(frame(9999, "P 12 5"))
    sim.tap(2)
    events = drain(rig.link)
    assert [w for w, _ in presses(events)] == [2]
    assert rig.link.status.garbage_by_reason.get("unknown_wand") == 1
    assert "wand 12" in rig.link.status.last_error


def test_a_hub_with_an_old_protocol_is_refused(pty_pair: PtyPair) -> None:
    with SimHub(pty_pair.hub_end, protocol_version=0) as sim, HubLink(str(pty_pair.host_end)) as link:
        assert wait_for(lambda: link.status.protocol_version == 0)
        sim.tap(1)
        assert drain(link) == []
        status = link.status.snapshot()
        assert status["connected"] is False
        assert "protocol v0" in status["last_error"] and "mpremote" in status["last_error"]


def test_a_restarted_hub_is_noticed_and_its_presses_kept(pty_pair: PtyPair) -> None:
    with HubLink(str(pty_pair.host_end)) as link:
        with SimHub(pty_pair.hub_end, boot_id="aaaa") as first:
            assert link.wait_connected(5)
            first.tap(1)
        with SimHub(pty_pair.hub_end, boot_id="bbbb") as second:
            second.tap(2)
            assert wait_for(lambda: link.status.boot_id == "bbbb")
            events = drain(link)
        assert [w for w, _ in presses(events)] == [1, 2]
        assert "restarted" in link.status.last_error


def test_a_port_held_by_another_program_is_reported_then_taken(pty_pair: PtyPair) -> None:
    with SimHub(pty_pair.hub_end):
        squatter = serial.Serial(str(pty_pair.host_end), exclusive=True)
        with HubLink(str(pty_pair.host_end)) as link:
            assert wait_for(lambda: "held by another program" in (link.status.last_error or ""))
            assert not link.status.connected
            squatter.close()
            assert link.wait_connected(5)


def test_a_missing_port_is_reported_without_crashing(tmp_path) -> None:
    with HubLink(str(tmp_path / "nothing")) as link:
        assert wait_for(lambda: "cannot open" in (link.status.last_error or ""))
        assert link.status.connected is False


def test_a_hub_that_falls_silent_is_reported(pty_pair: PtyPair) -> None:
    with HubLink(str(pty_pair.host_end)) as link:
        with SimHub(pty_pair.hub_end):
            assert link.wait_connected(5)
        assert wait_for(lambda: "silent" in (link.status.last_error or ""), timeout=10)


# Tip switches -----------------------------------------------------------------------------------

def tip_events(events: list) -> list[tuple[str, int, int]]:
    return [(type(e).__name__, e.wand, e.hub_us) for e in events if isinstance(e, (TipPressed, TipLifted))]


def test_a_link_that_does_not_ask_hears_no_tip_switch(rig: Rig) -> None:
    sim = rig.hands()
    sim.touch(3)
    sim.tap(1)
    events = drain(rig.link)
    assert tip_events(events) == [] and presses(events) == sim.sent_presses
    assert rig.link.status.garbage == 0


def test_asked_the_hub_tells_every_tip_then_each_touch_with_its_hub_time(pty_pair: PtyPair) -> None:
    with SimHub(pty_pair.hub_end) as sim:
        sim.touch(6)                                   # resting on a token before the table side starts
        assert wait_for(lambda: sim.hub.tips[5].down)
        with HubLink(str(pty_pair.host_end), tips=True) as link:
            assert link.wait_connected(5)
            told = tip_events(drain(link))
            assert told == [("TipPressed", 6, sim.hub.tip_stamps[5]) if w == 6 else ("TipLifted", w, 0)
                            for w in range(1, 9)]
            sim.touch(2)
            assert wait_for(lambda: sim.hub.tips[1].down)
            sim.lift(2)
            events = drain(link)
    touched = [e for e in events if isinstance(e, (TipPressed, TipLifted))]
    assert [(type(e).__name__, e.wand) for e in touched] == [("TipPressed", 2), ("TipLifted", 2)]
    assert touched[0].hub_us < touched[1].hub_us
    assert abs(touched[0].host_t - touched[0].hub_us / 1e6) < 0.25   # the simulated hub counts host time
    assert presses(events) == [] and link.status.garbage == 0
    assert link.status.tip_switches == "told"


def test_after_a_pulled_cable_the_tips_are_told_afresh_and_nothing_is_lost(pty_pair: PtyPair) -> None:
    with SimHub(pty_pair.hub_end) as sim, HubLink(str(pty_pair.host_end), tips=True) as link:
        assert link.wait_connected(5)
        drain(link)
        assert link.greetings == 1
        pty_pair.unplug()
        assert wait_for(lambda: not link.status.connected)
        sim.touch(4)                                   # touched down while the cable was out
        assert wait_for(lambda: sim.hub.tips[3].down)
        pty_pair.replug()
        assert link.wait_connected(5)
        events = tip_events(drain(link, settle=0.6))
        assert link.greetings == 2
        stamp = sim.hub.tip_stamps[3]
        # Wand 4's touch comes twice: the line sent while the cable was out (asked for again) and the
        # fresh state of every wand; both carry the first contact's stamp.
        assert events.count(("TipPressed", 4, stamp)) == 2
        assert sorted(w for _, w, _ in events[-8:]) == list(range(1, 9))
        assert link.status.lines_lost == 0


def test_a_hub_older_than_tip_switches_is_named_with_the_fix(pty_pair: PtyPair) -> None:
    with SimHub(pty_pair.hub_end) as sim:
        sim.hub.cmd_tips = None                        # firmware 0.1.0 knew no TIPS command
        with HubLink(str(pty_pair.host_end), tips=True) as link:
            assert link.wait_connected(5)
            assert wait_for(lambda: "no tip switches" in (link.status.last_error or ""))
            assert "reflash" in link.status.last_error and link.status.tip_switches == "unsupported"
            sim.tap(2)
            events = drain(link)
    assert tip_events(events) == [] and [w for w, _ in presses(events)] == [2]


def test_a_bad_tip_line_is_refused_and_counted_like_any_other(pty_pair: PtyPair) -> None:
    with SimHub(pty_pair.hub_end) as sim, HubLink(str(pty_pair.host_end), tips=True) as link:
        assert link.wait_connected(5)
        drain(link)
        sim.inject(frame(9998, "T 12 5") + frame(9999, "U 3 soon"))
        sim.touch(1)
        events = tip_events(drain(link))
    assert [(kind, wand) for kind, wand, _ in events] == [("TipPressed", 1)]
    assert link.status.garbage_by_reason == {"unknown_wand": 1, "bad_arguments": 1}
    assert "'soon'" in link.status.last_error or "wand 12" in link.status.last_error


def test_a_wand_led_is_set_steady_or_blinking_and_a_bad_mode_is_refused_before_sending(rig: Rig) -> None:
    sim = rig.hands()
    rig.link.led(2, 1)
    rig.link.led(5, 2)
    assert wait_for(lambda: sim.hub.led_modes[1] == 1 and sim.hub.led_modes[4] == 2)
    assert wait_for(lambda: sim.leds.lit[4]) and wait_for(lambda: not sim.leds.lit[4])   # it blinks
    assert sim.leds.lit[1]
    sent = rig.link.status.snapshot()
    for wand, mode in ((5, 3), (0, 1), (9, 1)):
        with pytest.raises(ValueError, match=f"wand {wand} mode {mode}"):
            rig.link.led(wand, mode)
    rig.link.led(5, 0)
    assert wait_for(lambda: sim.hub.led_modes[4] == 0 and not sim.leds.lit[4])
    assert rig.link.status.snapshot()["last_error"] == sent["last_error"]    # the hub refused nothing

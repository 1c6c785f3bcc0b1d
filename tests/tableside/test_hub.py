"""The button wands at the table: the hub's health on the status page, its cue button, its presses and
races on the display; GPIO buttons on gpiozero's MockFactory pins."""
from __future__ import annotations

from collections.abc import Callable

from gpiozero.pins.mock import MockFactory

from companion.cue import Cue
from companion.inputs.gpio import GpioWiring
from companion.inputs.ptypair import PtyPair
from companion.inputs.simhub import SimHub
from companion.status import StatusBoard
from companion.tableside.hub import PLUG_BACK, REFLASH, WandHub, link_report
from companion.tableside.notices import Notices
from companion.web.table import Table

from .conftest import device, wait_for


def hub(spec: str, status: StatusBoard, table: Table | None = None, **kw) -> tuple[WandHub, list[Cue], Notices]:  # type: ignore[no-untyped-def]
    cues: list[Cue] = []
    notices = Notices()
    return WandHub(spec, status, cues.append, notices, table, **kw).start(), cues, notices


def level_is(status: StatusBoard, level: str) -> Callable[[], bool]:
    return lambda: (device(status, "hub") or {}).get("level") == level


def test_an_unplugged_hub_shows_on_the_status_board_and_comes_back(sim: SimHub, pty_pair: PtyPair,
                                                                   status: StatusBoard) -> None:
    wands, _, _ = hub(str(pty_pair.host_end), status)
    try:
        assert wait_for(level_is(status, "ok")), status.snapshot()
        assert str(pty_pair.host_end) in device(status, "hub")["message"]
        pty_pair.unplug()
        assert wait_for(level_is(status, "error")), status.snapshot()
        unplugged = device(status, "hub")
        assert "unplugged" in unplugged["message"] and unplugged["fix"] == PLUG_BACK
        pty_pair.replug()
        assert wait_for(level_is(status, "ok")), status.snapshot()
        assert device(status, "hub")["details"]["reconnects"] == 1
    finally:
        wands.stop()


def test_the_cue_button_gives_the_cue_and_presses_and_races_reach_the_display(
        sim: SimHub, pty_pair: PtyPair, status: StatusBoard, table: Table) -> None:
    version = table.view()["version"]
    wands, cues, notices = hub(str(pty_pair.host_end), status, table)
    try:
        assert wait_for(level_is(status, "ok")), status.snapshot()
        sim.cue()
        assert wait_for(lambda: cues) and cues[0].source == "hub"
        sim.tap(4)
        assert wait_for(lambda: notices.recent("press"))
        assert notices.recent("press")[0]["message"] == "Rosa (wand 4) pressed"
        assert wands.link is not None
        wands.link.arm(7, order=(1, 2, 3, 4))
        assert wait_for(lambda: notices.recent("race_armed"))
        sim.tap(3)
        assert wait_for(lambda: notices.recent("race"))
        assert notices.recent("race")[0]["message"] == "Katya (wand 3) was first"
        assert table.view()["version"] == version  # Incantibus has no race: shown, not proposed
    finally:
        wands.stop()


def test_a_hub_with_old_firmware_is_named_with_the_fix(pty_pair: PtyPair, status: StatusBoard) -> None:
    with SimHub(pty_pair.hub_end, protocol_version=0):
        wands, _, _ = hub(str(pty_pair.host_end), status)
        try:
            assert wait_for(lambda: "protocol v0" in (device(status, "hub") or {}).get("message", "")), status.snapshot()
            assert device(status, "hub")["level"] == "error" and device(status, "hub")["fix"] == REFLASH
        finally:
            wands.stop()


def test_garbled_lines_and_lost_lines_are_warnings_with_what_to_do() -> None:
    snap = {"connected": True, "port": "/dev/ttyACM0", "firmware": "1.0", "presses": 3, "garbage": 5, "lines_lost": 0}
    assert link_report(snap, True, garbage_recent=True)[0] == "warning"
    assert "5 garbled lines" in link_report(snap, True, garbage_recent=True)[1]
    assert link_report(snap, True, garbage_recent=False)[0] == "ok"
    lost = link_report({**snap, "lines_lost": 2}, True, garbage_recent=False)
    assert lost[0] == "warning" and "2 lines never came back" in lost[1] and lost[2]


def test_auto_with_no_hub_plugged_in_says_so(status: StatusBoard) -> None:
    wands, _, _ = hub("auto", status, find_port=lambda: None)
    snap = device(status, "hub")
    assert snap["level"] == "off" and "no wand hub plugged in" in snap["message"] and "--hub PORT" in snap["fix"]
    wands.stop()


def test_gpio_buttons_give_the_cue_and_the_leds_follow_the_status_board(status: StatusBoard) -> None:
    factory = MockFactory()
    wands, cues, _ = hub("gpio", status, gpio_factory=factory)
    try:
        assert device(status, "gpio")["level"] == "ok"
        wiring = GpioWiring()
        factory.pin(wiring.cue_button).drive_low()
        assert wait_for(lambda: cues) and cues[0].source == "gpio"
        green, red = factory.pin(wiring.ready_led), factory.pin(wiring.trouble_led)
        assert green.state and not red.state
        status.report("camera", "error", "camera stopped sending pictures", "check that the camera is plugged in")
        assert not green.state
        status.report("camera", "ok", "camera sees the table")
        assert green.state
    finally:
        wands.stop()

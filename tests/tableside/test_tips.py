"""The wands' tip switches at the table: the simulated hub's firmware behind a real socat pty, or
gpiozero's MockFactory pins, read as vision's ``TipSwitches``; and the casting reading asking them."""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import companion.tableside.hub as hub_module
from gpiozero.pins.mock import MockFactory, MockPin

from companion.cue import Cue
from companion.inputs.events import TipLifted
from companion.inputs.link import HubLink
from companion.inputs.gpio import HOLDOFF_US, GpioWiring
from companion.inputs.ptypair import PtyPair
from companion.inputs.simhub import SimHub
from companion.night_at_the_table import serve
from companion.night_at_the_table.rendered import RenderedTable
from companion.night_at_the_table.settings import NightSettings
from companion.status import StatusBoard
from companion.tableside import TableSide, TableSideConfig
from companion.tableside.config import TableSideError
from companion.tableside.hub import REFLASH, WandHub, link_report
from companion.tableside.notices import Notices
from companion.tableside.tips import WandTips
from companion.web.table import Table
from vision.touch import SILENT_CASTINGS

from .conftest import PLAYERS, SEED, device, wait_for

TARGETS = {"Lera": "r1", "Kirill": "r4", "Katya": "r6", "Rosa": "r6"}


def wand_hub(spec: str, status: StatusBoard, tip_switches: bool = True, **kw) -> WandHub:  # type: ignore[no-untyped-def]
    return WandHub(spec, status, lambda cue: None, Notices(), tip_switches=tip_switches, **kw).start()


def states(tips: WandTips) -> list[bool | None]:
    return [tips.touching(wand) for wand in range(1, 9)]


# The board on its own ---------------------------------------------------------------------------

def test_a_line_asked_for_again_never_undoes_a_newer_one() -> None:
    tips = WandTips(True)
    tips.tip(3, True, 500)
    tips.tip(3, False, 900)
    tips.tip(3, True, 500)          # the touch, resent after a pulled cable, arrives late
    assert tips.touching(3) is False
    assert tips.touching(4) is None  # never heard of: not known


def test_states_from_an_earlier_connection_are_not_trusted() -> None:
    session: list[int | None] = [1]
    tips = WandTips(True, lambda: session[0])
    tips.tip(2, True, 100)
    assert tips.touching(2) is True
    session[0] = None               # the cable is out
    assert tips.touching(2) is None
    session[0] = 2                  # back, but the hub has not told the tips afresh yet
    assert tips.touching(2) is None
    tips.tip(2, False, 0)           # the hub's fresh account: lifted (stamps start over in a session)
    assert tips.touching(2) is False


def test_without_tip_switches_fitted_nothing_is_said() -> None:
    tips = WandTips(False)
    tips.tip(1, True, 100)
    assert tips.touching(1) is None


class QuickHubLink(HubLink):
    """A hub that greets and tells its tips before ``start()`` has even returned (a busy machine can
    deschedule the caller that long): its lines come from this connection all the same."""

    def start(self):  # type: ignore[no-untyped-def]
        self.greetings = 1
        self.connected.set()
        for wand in range(1, 9):
            self.on_event(TipLifted(wand, 0, 0.0))
        return self


def test_tips_told_before_the_link_has_started_are_trusted(monkeypatch: pytest.MonkeyPatch,
                                                           status: StatusBoard) -> None:
    monkeypatch.setattr(hub_module, "HubLink", QuickHubLink)
    wands = WandHub("/dev/null-hub", status, lambda cue: None, Notices(), tip_switches=True)
    wands._start_link("/dev/null-hub")
    try:
        assert states(wands.tips) == [False] * 8
    finally:
        wands.stop()


# The hub, through a real tty ----------------------------------------------------------------------

def test_the_hub_tells_each_tip_and_a_pulled_cable_makes_them_unknown_until_it_tells_again(
        sim: SimHub, pty_pair: PtyPair, status: StatusBoard) -> None:
    wands = wand_hub(str(pty_pair.host_end), status)
    try:
        assert wait_for(lambda: states(wands.tips) == [False] * 8), states(wands.tips)
        sim.touch(3)
        assert wait_for(lambda: wands.tips.touching(3) is True)
        assert states(wands.tips) == [False, False, True] + [False] * 5
        pty_pair.unplug()
        assert wait_for(lambda: not wands.link.status.connected)          # type: ignore[union-attr]
        assert states(wands.tips) == [None] * 8           # a kicked-out cable is not "in the air"
        sim.lift(3)                                       # lifted while the cable was out
        assert wait_for(lambda: not sim.hub.tips[2].down)
        pty_pair.replug()
        assert wait_for(lambda: states(wands.tips) == [False] * 8), states(wands.tips)
    finally:
        wands.stop()


def test_a_hub_restarted_behind_the_tables_back_is_asked_again(pty_pair: PtyPair, status: StatusBoard) -> None:
    with SimHub(pty_pair.hub_end, boot_id="aaaa") as first:
        wands = wand_hub(str(pty_pair.host_end), status)
        first.touch(5)
        assert wait_for(lambda: wands.tips.touching(5) is True)
    try:
        with SimHub(pty_pair.hub_end, boot_id="bbbb"):    # its wand 5 no longer touching
            assert wait_for(lambda: wands.link.status.boot_id == "bbbb")  # type: ignore[union-attr]
            assert wait_for(lambda: wands.tips.touching(5) is False), states(wands.tips)
    finally:
        wands.stop()


def test_tips_are_not_known_without_the_setting_or_without_a_hub(sim: SimHub, pty_pair: PtyPair,
                                                                status: StatusBoard) -> None:
    wands = wand_hub(str(pty_pair.host_end), status, tip_switches=False)
    try:
        assert wait_for(lambda: wands.link is not None and wands.link.connected.is_set())
        sim.touch(1)
        assert wait_for(lambda: sim.hub.tips[0].down)
        assert states(wands.tips) == [None] * 8
        assert not sim.hub.tips_on                        # the hub was never asked
    finally:
        wands.stop()
    nothing = wand_hub("none", status)
    assert states(nothing.tips) == [None] * 8
    nothing.stop()


def test_a_hub_without_tip_switch_firmware_is_a_warning_with_the_fix() -> None:
    snap = {"connected": True, "port": "/dev/ttyACM0", "firmware": "0.1.0", "presses": 0, "garbage": 0,
            "lines_lost": 0, "tip_switches": "unsupported"}
    level, message, fix = link_report(snap, True, garbage_recent=False)
    assert level == "warning" and "no tip switches" in message and fix == REFLASH
    assert link_report({**snap, "tip_switches": "told"}, True, garbage_recent=False)[0] == "ok"


def test_a_hub_older_than_tip_switches_shows_on_the_status_board(pty_pair: PtyPair, status: StatusBoard) -> None:
    with SimHub(pty_pair.hub_end) as sim:
        sim.hub.cmd_tips = None                           # firmware 0.1.0 knew no TIPS command
        wands = wand_hub(str(pty_pair.host_end), status)
        try:
            assert wait_for(lambda: "no tip switches" in (device(status, "hub") or {}).get("message", ""))
            assert device(status, "hub")["level"] == "warning" and device(status, "hub")["fix"] == REFLASH
            assert states(wands.tips) == [None] * 8
        finally:
            wands.stop()


# GPIO pins on the Pi ------------------------------------------------------------------------------

class ClosedSwitchPin(MockPin):
    """A mock pin whose switch is already held closed: the line stays low when the pull-up is set."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self.drive_low()


def test_gpio_tip_switches_on_mock_pins(status: StatusBoard) -> None:
    factory = MockFactory()
    pins = GpioWiring().wand_tips
    factory.pin(pins[6], pin_class=ClosedSwitchPin)       # wand 7 rests on a token from the start
    wands = wand_hub("gpio", status, gpio_factory=factory)
    try:
        assert states(wands.tips) == [False] * 6 + [True, False]
        assert wands.gpio is not None
        wands.gpio.arm(4)
        factory.pin(pins[1]).drive_low()
        assert wands.tips.touching(2) is True
        # A tip touching down is no press: the race is still open and wand 2 is not locked out.
        assert wands.gpio.referee.race is not None and wands.gpio.referee.locked_until == {}
        time.sleep(2 * HOLDOFF_US / 1e6)                  # a real lift, not contact bounce
        factory.pin(pins[1]).drive_high()
        assert wands.tips.touching(2) is False
    finally:
        wands.stop()


def test_gpio_tip_pins_are_left_alone_without_the_setting(status: StatusBoard) -> None:
    factory = MockFactory()
    wands = wand_hub("gpio", status, tip_switches=False, gpio_factory=factory)
    try:
        assert wands.gpio is not None and wands.gpio.tips == []
        assert states(wands.tips) == [None] * 8
    finally:
        wands.stop()


# The setting --------------------------------------------------------------------------------------

def test_the_setting_is_validated_and_reaches_the_table_side() -> None:
    with pytest.raises(TableSideError, match="tip_switches"):
        TableSideConfig(tip_switches="yes")
    assert NightSettings(table={"tip_switches": True}).table_side().tip_switches is True  # type: ignore[arg-type]
    assert serve.table_side_config(serve.parse(["--tip-switches"])).tip_switches is True
    assert serve.table_side_config(serve.parse([])).tip_switches is False


def test_a_settings_file_with_a_bad_tip_switches_value_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"table": {"hub": "none", "camera": "none", "mic": False,
                                                                  "tip_switches": "yes"}}))
    assert serve.main(["--data-dir", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    (line,) = err.splitlines()
    assert "table.tip_switches" in line and "'yes'" in line and "Traceback" not in err and out == ""
    assert not (tmp_path / "incanto.sqlite").exists()


# The casting reading asks them ----------------------------------------------------------------------

class Recording:
    """The table's real tip switches, noting every answer the pipeline was given."""

    def __init__(self, tips: WandTips) -> None:
        self.tips = tips
        self.asked: dict[int, bool | None] = {}

    def touching(self, wand: int) -> bool | None:
        self.asked[wand] = self.tips.touching(wand)
        return self.asked[wand]


def test_a_tip_pressed_at_the_hub_reaches_the_casting_reading(
        make_side: Callable[..., TableSide], sim: SimHub, pty_pair: PtyPair, rendered: RenderedTable,
        calibration: Path, table: Table, status: StatusBoard) -> None:
    side = make_side(TableSideConfig(hub=str(pty_pair.host_end), camera="render", calibration=calibration,
                                     tip_switches=True), opener=lambda: rendered)
    assert side.reader.tips is side.hub.tips
    spy = side.reader.tips = Recording(side.hub.tips)
    wands = table.view()["wands"]
    assert wait_for(lambda: side.camera.sees and states(side.hub.tips) == [False] * 8), (
        side.camera.sees, states(side.hub.tips), status.snapshot())
    sim.touch(wands["Katya"])                              # Katya's tip rests on her token
    assert wait_for(lambda: side.hub.tips.touching(wands["Katya"]) is True)
    start = rendered.point({wands[p]: t for p, t in TARGETS.items()})
    reading = side.reader.read(Cue("tablet", start))
    assert reading.outcome in ("cast", "asked"), reading
    assert spy.asked == {wands[p]: p == "Katya" for p in TARGETS}


# A switch that never clicks ---------------------------------------------------------------------------

def test_a_switch_silent_over_several_castings_on_a_token_is_doubted_until_it_clicks() -> None:
    heard: list[dict[int, int]] = []
    tips = WandTips(True)
    tips.on_doubt = lambda: heard.append(tips.doubted())
    tips.tip(2, False, 0)
    tips.tip(5, False, 0)
    for casting in range(SILENT_CASTINGS):
        assert tips.touching(2) is False                  # trusted until the last of them
        if casting == 1:
            tips.casting_began()
            tips.casting_closed([])                       # a casting with wand 2 off its token proves nothing
        tips.casting_began()
        tips.casting_closed([2, 5] if casting else [2])
    assert tips.touching(2) is None and tips.switch(2) is False   # the camera alone reads wand 2
    assert tips.doubted() == {2: SILENT_CASTINGS} and heard == [{2: SILENT_CASTINGS}]
    assert tips.touching(5) is False                      # one casting short
    tips.casting_began()
    tips.casting_closed([2])                              # silent once more: the status page counts on
    assert tips.doubted() == {2: SILENT_CASTINGS + 1} and heard[-1] == {2: SILENT_CASTINGS + 1}
    tips.tip(2, True, 7_000_000)                          # it clicks: trusted again
    assert tips.touching(2) is True and tips.doubted() == {} and heard[-1] == {}


def test_a_switch_that_clicks_during_a_casting_is_not_doubted() -> None:
    tips = WandTips(True)
    for casting in range(2 * SILENT_CASTINGS):
        tips.casting_began()
        tips.tip(4, True, 1000 * (2 * casting + 1))      # touched down, read, lifted again
        tips.tip(4, False, 1000 * (2 * casting + 2))
        tips.casting_closed([4])
    assert tips.doubted() == {} and tips.touching(4) is False


def test_nothing_known_of_the_switches_is_no_evidence() -> None:
    session: list[int | None] = [None]                    # the hub's cable is out all evening
    tips = WandTips(True, lambda: session[0])
    for _ in range(2 * SILENT_CASTINGS):
        tips.casting_began()
        tips.casting_closed([1])
    assert tips.doubted() == {}
    unfitted = WandTips(False)
    for _ in range(2 * SILENT_CASTINGS):
        unfitted.casting_began()
        unfitted.casting_closed([1])
    assert unfitted.doubted() == {}


def test_a_wand_whose_switch_never_clicks_is_read_by_the_camera_alone_and_named_on_the_status_page(
        make_side: Callable[..., TableSide], sim: SimHub, pty_pair: PtyPair, rendered: RenderedTable,
        calibration: Path, table: Table, status: StatusBoard) -> None:
    side = make_side(TableSideConfig(hub=str(pty_pair.host_end), camera="render", calibration=calibration,
                                     tip_switches=True), opener=lambda: rendered)
    assert wait_for(lambda: side.camera.sees and states(side.hub.tips) == [False] * 8), (
        side.camera.sees, states(side.hub.tips), status.snapshot())
    assert side.reader.tips is side.hub.tips
    katya = table.view()["wands"]["Katya"]                # her wand's plug is out: her switch never closes
    wands = table.view()["wands"]
    others = [w for p, w in wands.items() if p != "Katya"]
    castings = 0
    while not side.hub.tips.doubted() and castings < 2 * SILENT_CASTINGS:
        if castings:                                      # the same casting again, in a fresh game
            table.start_game("incantibus", PLAYERS, seed=SEED)
            assert table.view()["wands"] == wands
        for wand in others:                               # the others' tips rest on their tokens, clicking
            sim.touch(wand)
        assert wait_for(lambda: all(side.hub.tips.switch(w) for w in others))
        reading = side.reader.read(Cue("tablet", rendered.point({wands[p]: t for p, t in TARGETS.items()})))
        assert reading.outcome in ("cast", "asked"), reading
        castings += 1
        for wand in others:
            sim.lift(wand)
        assert wait_for(lambda: not any(side.hub.tips.switch(w) for w in others))
    assert side.hub.tips.doubted() == {katya: SILENT_CASTINGS}, (castings, side.hub.tips.doubted())
    assert side.hub.tips.touching(katya) is None and side.hub.tips.switch(katya) is False
    tips_line = device(status, "tips")
    assert tips_line is not None and tips_line["level"] == "warning", status.snapshot()
    assert f"wand {katya}'s tip switch has not clicked in the last {SILENT_CASTINGS} castings" in tips_line["message"]
    assert "cable" in tips_line["fix"]
    # The plug is pushed home and her tip touches down: it clicks, and is trusted again.
    sim.touch(katya)
    assert wait_for(lambda: side.hub.tips.touching(katya) is True)
    assert wait_for(lambda: (device(status, "tips") or {}).get("level") == "ok"), status.snapshot()

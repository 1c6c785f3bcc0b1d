"""The hub link's parts, each alone: the protocol's state (``Resync``) against the real firmware's
lines with no port at all; the clock (``ClockSync``); the tip switches' ask (``TipsAsk``); the port
(``HubPort``) through a real socat pty."""
from __future__ import annotations

import itertools
import time
from types import ModuleType
from typing import Any

import pytest
import serial

from companion.inputs.events import Press
from companion.inputs.firmware import hub_module
from companion.inputs.hubclock import CLOCK_PINGS, CLOCK_TOKEN, ClockSync
from companion.inputs.hubtips import TipsAsk
from companion.inputs.protocol import Heartbeat, Hello, HubError, HubMessage, HubProtocol, Lost, Pong, frame, unframe
from companion.inputs.ptypair import PtyPair
from companion.inputs.resync import Resync
from companion.inputs.status import InputStatus
from companion.inputs.transport import HubOffline, HubPort
from tests.firmware.fake_pins import Buttons, Leds


class Bench:
    """The firmware's hub in this process, its serial line a list; ``Resync`` on the host side, its
    commands fed straight back to the hub. ``cable`` decides which hub lines reach the host."""

    def __init__(self, boot_id: str = "b007") -> None:
        firmware: ModuleType = hub_module()
        self.us = itertools.count(1_000, 1_000)
        self.inputs = Buttons()
        self.sent: list[bytes] = []
        self.hub = firmware.Hub(self.inputs, Leds(), lambda: next(self.us), lambda a, b: a - b, self.sent.append,
                                boot_id=boot_id)
        self.status = InputStatus()
        self.delivered: list[HubMessage] = []
        self.greetings: list[str] = []
        self.restarts = 0
        self.now = 0.0
        self.protocol = HubProtocol(self._heard, lambda: self.now)
        self.resync = Resync(self.command, lambda m, fresh: self.delivered.append(m), self.status, lambda: self.now,
                             on_greeting=lambda h: self.greetings.append(h.boot_id), on_greeted=lambda h: None,
                             on_restart=self._restarted)
        self.commands: list[str] = []

    def _heard(self, seq: int, message: HubMessage, raw: bytes) -> None:
        self.resync.heard(seq, message, raw)

    def _restarted(self) -> None:
        self.restarts += 1

    def command(self, body: str) -> int:
        self.commands.append(body)
        self.hub.feed(frame(len(self.commands), body))
        return len(self.commands)

    def tap(self, wand: int) -> None:
        for down in (True, False):
            self.inputs.mask = (1 << (wand - 1)) if down else 0
            for _ in range(12):             # long enough for the firmware's debounce and holdoff
                self.hub.poll()

    def deliver(self, lines: list[bytes]) -> None:
        for line in lines:
            self.protocol.data_received(line)

    def take(self) -> list[bytes]:
        lines, self.sent[:] = list(self.sent), []
        return lines


def presses(messages: list[HubMessage]) -> list[int]:
    return [m.wand for m in messages if isinstance(m, Press)]


def test_resync_holds_lines_until_the_greeting_and_asks_again_for_a_gap() -> None:
    bench = Bench()
    boot = bench.take()                                  # the HELLO of the boot, never seen by the host
    bench.tap(1)
    early = bench.take()
    bench.deliver(early)                                 # before any greeting: held, not delivered
    assert bench.delivered == [] and not bench.resync.greeted
    bench.resync.hello()
    bench.deliver(bench.take())                          # the HELLO answer
    assert bench.greetings == ["b007"] and presses(bench.delivered) == [1]
    bench.tap(2)
    bench.tap(3)
    lines = bench.take()
    two = [line for line in lines if b" P 2 " in line]
    bench.deliver([line for line in lines if line not in two])      # wand 2's press lost on the cable
    assert presses(bench.delivered) == [1, 3]
    assert any(c.startswith("RESEND") for c in bench.commands)
    bench.deliver(bench.take())                          # the hub resends it, byte for byte
    assert presses(bench.delivered) == [1, 3, 2]
    bench.deliver(two)                                   # and the late original is a duplicate
    assert presses(bench.delivered) == [1, 3, 2]
    assert bench.status.lines_recovered >= 1 and bench.status.duplicates >= 1 and bench.status.lines_lost == 0
    assert boot and unframe(boot[0].rstrip(b"\n"))[1][0] == "HELLO"


def test_resync_notices_a_restarted_hub_and_counts_what_is_gone() -> None:
    bench = Bench("aaaa")
    bench.resync.hello()
    bench.deliver(bench.take())
    bench.tap(4)
    lines = bench.take()
    bench.deliver(lines[-1:])                            # a gap the hub never gets to resend...
    reborn = Bench("bbbb")                               # ...because it restarts
    reborn.take()
    reborn.resync = bench.resync
    reborn.protocol = bench.protocol
    bench.resync.send = reborn.command
    bench.resync.hello()
    bench.deliver(reborn.take())
    assert bench.greetings == ["aaaa", "bbbb"] and bench.restarts == 1
    assert bench.status.lines_lost > 0 and "hub restarted (boot aaaa -> bbbb)" in (bench.status.last_error or "")


def test_resync_gives_up_on_lines_the_hub_says_are_gone() -> None:
    bench = Bench()
    bench.resync.hello()
    bench.deliver(bench.take())
    bench.resync.lost(Lost(9, 2))                        # nothing of them was missing: nothing is lost
    assert bench.status.lines_lost == 0
    bench.tap(5)
    lines = bench.take()
    bench.deliver(lines[-1:])
    missing = sorted(bench.resync.book.missing)
    for _ in range(6):                                   # asked again and again, then given up, loudly
        bench.now += 1.0
        bench.resync.chase(bench.now)
    assert bench.status.lines_lost == len(missing) and "never came back" in (bench.status.last_error or "")


def test_clock_sync_pings_after_a_greeting_until_it_has_enough_round_trips() -> None:
    pings: list[str] = []
    sync = ClockSync(pings.append, lambda: 100.0)
    sync.greeted()
    for n in range(CLOCK_PINGS + 3):
        sync.heard(Pong(CLOCK_TOKEN, 5_000_000 + n), fresh=True)
    assert pings == [CLOCK_TOKEN] * CLOCK_PINGS and sync.hub_clock.count == CLOCK_PINGS + 3
    sync.heard(Heartbeat(1), fresh=False)                # a resent heartbeat says nothing of the transport
    assert sync.hub_clock.count == CLOCK_PINGS + 3
    assert sync.hub_clock.to_host(6_000_000, 0.0) == pytest.approx(100.0 - 5.000_010 + 6.0)
    sync.restarted()
    assert sync.hub_clock.count == 0 and sync.hub_clock.to_host(1, 42.0) == 42.0


def test_tips_ask_names_firmware_older_than_tip_switches() -> None:
    status = InputStatus()
    asked: list[str] = []

    def send(body: str) -> int:
        asked.append(body)
        return 40 + len(asked)

    tips = TipsAsk(True, send, status)
    tips.greeted()
    assert asked == ["TIPS"] and status.tip_switches == "asked"
    assert not tips.refused(HubError("7", "unknown_command"))      # some other command's refusal
    assert tips.refused(HubError("41", "unknown_command"))
    assert status.tip_switches == "unsupported" and "reflash" in (status.last_error or "")
    TipsAsk(False, send, status).greeted()
    assert asked == ["TIPS"]


def test_hub_port_sends_framed_lines_and_says_when_there_is_no_hub(pty_pair: PtyPair) -> None:
    status = InputStatus()
    port = HubPort(str(pty_pair.host_end), status)
    with pytest.raises(HubOffline, match="no hub connected"):
        port.send("PING x")
    link = port.open(port.choose() or "")
    assert link is not None and status.port == str(pty_pair.host_end)
    other = HubPort(str(pty_pair.host_end), InputStatus())
    assert other.open(str(pty_pair.host_end)) is None                 # held exclusively
    assert "held by another program" in (other.status.last_error or "")
    with serial.Serial(str(pty_pair.hub_end), timeout=0.1) as hub_end:
        assert [port.send("PING a"), port.send("TIME")] == [0, 1]
        data = b""
        deadline = time.monotonic() + 5
        while data.count(b"\n") < 2 and time.monotonic() < deadline:
            data += hub_end.read(64)
    assert [unframe(line) for line in data.splitlines()[:2]] == [(0, ["PING", "a"]), (1, ["TIME"])]
    port.close(link)
    with pytest.raises(HubOffline):
        port.send("PING b")


def test_a_hello_from_another_protocol_is_refused_and_nothing_after_it_delivered() -> None:
    bench = Bench()
    delivered: list[Any] = []
    bench.resync.deliver = lambda m, fresh: delivered.append(m)
    bench.resync.heard(0, Hello(2, "9.0", 8, "cccc"), b"@0 HELLO 2 9.0 8 cccc*0000")
    bench.resync.heard(1, Heartbeat(5), b"@1 HB 5*0000")
    assert bench.resync.refused and delivered == [] and "protocol v2" in (bench.status.last_error or "")


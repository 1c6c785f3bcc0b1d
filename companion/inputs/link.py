"""The serial link to the wand hub: find it, own it, read it, survive it going away.

One thread per link. It opens the port exclusively, says HELLO and checks the protocol version,
passes on every event the hub sent exactly once (asking for lines again when sequence numbers jump),
and reopens with backoff when the port vanishes. Whatever goes wrong is written to the log and to
`status` for the display's status page. The link conducts; each part is its own module, testable
alone:

    transport.HubPort    the port: chosen, opened exclusively, written, reopened with backoff
    resync.Resync        the protocol's state: greeting, sequence numbers, resends, restarts
    hubclock.ClockSync   the hub's clock mapped onto the host's
    hubtips.TipsAsk      the tip switches asked for, and the hub's answer on the status
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import replace
from collections.abc import Callable

import serial

from companion.inputs.events import CueHeard, InputEvent, Press, Release, TipLifted, TipPressed
from companion.inputs.hubclock import ClockSync, HubClock
from companion.inputs.hubtips import TipsAsk
from companion.inputs.protocol import (LED_MODES, MAX_WANDS, Ack, CuePressed, Disarmed, Heartbeat, Hello, HubError,
                                       HubMessage, HubProtocol, HubTime, Lost, Pong)
from companion.inputs.resync import Resync
from companion.inputs.sequence import SequenceBook
from companion.inputs.status import InputStatus
from companion.inputs.transport import PICO_PID, PICO_VID, PORT_ENV, Backoff, HubOffline, HubPort, find_hub_port
from companion.threads import Background

__all__ = ["HubLink", "HubOffline", "Backoff", "find_hub_port", "PORT_ENV", "PICO_VID", "PICO_PID"]

HELLO_AGAIN_S = 0.25                         # no HELLO answer in this time: ask again
SILENT_S = 3.0                               # heartbeats come every second; three missed is news


class HubLink(Background):
    """A hub on a serial port (or any pyserial URL). Events go to `on_event`, or to `self.events`.

    `port`: a device path or URL; None means $INCANTO_HUB_PORT, else the first port with the
    Pico's USB VID/PID. After an unplug, lines the hub sent meanwhile are asked for again by
    sequence number; lines it can no longer resend are reported as lost, loudly.

    `tips`: ask the hub for its tip switches (TIPS) after every greeting, so TipPressed and TipLifted
    events come too, the first of each greeting giving every wand's state. `greetings` counts the
    greetings: tip states heard in an earlier one are stale (the cable was out, the hub restarted).
    """

    def __init__(self, port: str | None = None, on_event: Callable[[InputEvent], None] | None = None,
                 *, vid: int = PICO_VID, pid: int = PICO_PID, clock: Callable[[], float] = time.monotonic,
                 backoff: Backoff | None = None, tips: bool = False) -> None:
        super().__init__("hub-link", join_s=2)
        self.clock = clock
        self.events: queue.Queue[InputEvent] = queue.Queue()
        self.on_event = on_event or self.events.put
        self.status = InputStatus(source="hub")
        self.port = HubPort(port, self.status, vid=vid, pid=pid, backoff=backoff)
        self.protocol = HubProtocol(self._heard, clock)
        self.sync = ClockSync(self.ping, clock)
        self.resync = Resync(self.send, self._deliver, self.status, clock, on_greeting=self._greeting,
                             on_greeted=self._greeted, on_restart=self.sync.restarted)
        self.tip_switches = TipsAsk(tips, self.send, self.status)
        self.tips = tips
        self.connected = threading.Event()
        self.greetings = 0
        self._sessions = 0
        self._last_garbage_note = 0.0

    @property
    def configured_port(self) -> str | None:
        return self.port.configured

    @property
    def hub_clock(self) -> HubClock:
        return self.sync.hub_clock

    @property
    def book(self) -> SequenceBook:
        return self.resync.book

    # Life cycle ---------------------------------------------------------------------------------

    def wait_connected(self, timeout: float) -> bool:
        return self.connected.wait(timeout)

    # Commands -----------------------------------------------------------------------------------

    def send(self, body: str) -> int:
        """Send one command line; its host sequence number (the hub quotes it in ERR). HubOffline if
        no hub is connected right now."""
        return self.port.send(body)

    def arm(self, race: int, order: tuple[int, ...] = (), lockout_ms: int | None = None) -> None:
        """Arm a race; `order` is the seating order that breaks exact ties (e.g. Catcher first)."""
        words = ["ARM", str(race), ",".join(str(w) for w in order) or "-"]
        if lockout_ms is not None:
            words.append(str(lockout_ms))
        self.send(" ".join(words))

    def disarm(self, race: int) -> None:
        self.send(f"DISARM {race}")

    def led(self, wand: int, mode: int) -> None:
        """Wand ``wand``'s LED: mode 0 off, 1 steady, 2 blinking (``LED_MODES``). A wand or mode the hub
        could not take is refused here, in one line, and nothing is sent."""
        if not 1 <= wand <= MAX_WANDS or mode not in LED_MODES:
            raise ValueError(f"no LED command for wand {wand!r} mode {mode!r}: wands are 1-{MAX_WANDS}, "
                             f"modes {', '.join(map(str, LED_MODES))} (off, steady, blinking)")
        self.send(f"LED {wand} {mode}")

    def ping(self, token: str = "p") -> None:
        self.send(f"PING {token}")

    def ask_tips(self) -> None:
        """TIPS: every wand's tip switch now, then each change (PROTOCOL.md, "Tip switches")."""
        self.tip_switches.ask()

    # The thread ---------------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            port = self.port.choose()
            link = self.port.open(port) if port else None
            if link is None:
                self._stop.wait(self.port.backoff.take())
                continue
            self.port.backoff.reset()
            try:
                self._session(link)
            except (serial.SerialException, OSError) as exc:
                self.status.problem(f"hub port {port!r} vanished: {exc}")
            finally:
                self._close(link)

    def _close(self, link: serial.SerialBase) -> None:
        self.port.close(link)
        self.connected.clear()
        self.status.update(connected=False)
        self.protocol.connection_lost()
        self._sync_garbage()

    def _session(self, link: serial.SerialBase) -> None:
        self.resync.reset()
        self._last_garbage_note = 0.0
        self.resync.hello()
        hello_at = last_data = self.clock()
        while not self._stop.is_set():
            data = link.read(link.in_waiting or 1)
            now = self.clock()
            if data:
                last_data = now
                self.protocol.data_received(data)
                self._sync_garbage()
            if not self.resync.greeted and now - hello_at > HELLO_AGAIN_S and not self.resync.refused:
                hello_at = now
                self.resync.hello()
            if now - last_data > SILENT_S and self.resync.greeted:
                self.status.problem(f"hub on {self.status.port!r} has been silent for {now - last_data:.1f} s")
                last_data = now
            self.resync.chase(now)

    # Lines from the hub -------------------------------------------------------------------------

    def _heard(self, seq: int, message: HubMessage, raw: bytes) -> None:
        self.resync.heard(seq, message, raw)

    def _greeting(self, hello: Hello) -> None:
        self.greetings += 1   # before the lines held for the greeting: they come from this hub

    def _greeted(self, hello: Hello) -> None:
        self.tip_switches.greeted()
        self.sync.greeted()
        if not self.connected.is_set():
            self.status.update(connected=True, reconnects=self.status.reconnects + (self._sessions > 0))
            self._sessions += 1
            self.connected.set()

    def _deliver(self, message: HubMessage, fresh: bool) -> None:
        if isinstance(message, (Heartbeat, Pong, HubTime)):
            self.sync.heard(message, fresh)
        elif isinstance(message, (Press, Release, TipPressed, TipLifted)):
            if isinstance(message, Press):
                self.status.update(presses=self.status.presses + 1)
            self._emit(replace(message, host_t=self.hub_clock.to_host(message.hub_us, message.host_t)))
        elif isinstance(message, CuePressed):
            self._emit(CueHeard("hub", self.hub_clock.to_host(message.hub_us, self.clock())))
        elif isinstance(message, Lost):
            self.resync.lost(message)
        elif isinstance(message, HubError):
            if not self.tip_switches.refused(message):
                self.status.problem(f"hub refused command {message.command_seq}: {message.reason}")
        elif isinstance(message, Ack) and message.text == "TIPS":
            self.tip_switches.told()
        elif isinstance(message, (Hello, Ack, Disarmed)):
            pass
        else:
            self._emit(message)

    def _emit(self, event: InputEvent) -> None:
        try:
            self.on_event(event)
        except Exception:  # a broken listener must not take the link down
            logging.getLogger("incanto.inputs").exception("input listener failed on %r", event)

    def _sync_garbage(self) -> None:
        garbage = self.protocol.garbage
        if garbage == self.status.garbage:
            return
        self.status.update(garbage=garbage, garbage_by_reason=dict(self.protocol.rejected))
        now = self.clock()
        # Noise comes in bursts: one log line per second is plenty.
        if now - self._last_garbage_note >= 1.0:
            self._last_garbage_note = now
            self.status.problem(f"garbage from the hub on {self.status.port!r} ({garbage} lines so far): "
                                f"{self.protocol.last_problem}")


def main(argv: list[str] | None = None) -> int:
    """`python -m companion.inputs.link [--port PORT]`: watch a hub, printing what it says."""
    import argparse
    import json
    import sys

    parser = argparse.ArgumentParser(prog="python -m companion.inputs.link", description=main.__doc__)
    parser.add_argument("--port", help=f"serial port or pyserial URL (default: ${PORT_ENV}, else by USB VID:PID)")
    parser.add_argument("--tips", action="store_true", help="also watch the wands' tip switches")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    with HubLink(args.port, lambda event: print(event, flush=True), tips=args.tips) as link:
        try:
            if link.wait_connected(10):
                print(json.dumps(link.status.snapshot()), flush=True)
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            print(json.dumps(link.status.snapshot()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

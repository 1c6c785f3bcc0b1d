"""The serial link to the wand hub: find it, own it, read it, survive it going away.

One thread per link. It opens the port exclusively (pyserial's `exclusive=True`, an flock), says
HELLO and checks the protocol version, passes on every event the hub sent exactly once (asking
for lines again when sequence numbers jump), and reopens with backoff when the port vanishes.
Whatever goes wrong is written to the log and to `status` for the display's status page.
"""
from __future__ import annotations

import logging
import os
import queue
import threading
import time
from dataclasses import replace
from collections.abc import Callable

import serial
import serial.tools.list_ports

from companion.errors import IncantoError
from companion.inputs.events import CueHeard, InputEvent, Press, Release, TipLifted, TipPressed
from companion.inputs.hubclock import HubClock
from companion.inputs.protocol import (LED_MODES, MAX_WANDS, PROTOCOL_VERSION, Ack, CuePressed, Disarmed, Heartbeat,
                                       Hello, HubError, HubMessage, HubProtocol, HubTime, Lost, Pong, SEQ_MOD, frame)
from companion.inputs.sequence import SequenceBook, runs
from companion.inputs.status import InputStatus

PICO_VID, PICO_PID = 0x2E8A, 0x0005          # MicroPython on a Raspberry Pi Pico
PORT_ENV = "INCANTO_HUB_PORT"
HELLO_AGAIN_S = 0.25                         # no HELLO answer in this time: ask again
SILENT_S = 3.0                               # heartbeats come every second; three missed is news
MAX_PENDING = 1024                           # lines held while waiting for the HELLO answer
CLOCK_PINGS = 8                              # round trips to map the hub clock right after HELLO
CLOCK_TOKEN = "clock"
RECENT_LINES = 1024                          # lines remembered to tell a resend from a new boot


class HubOffline(IncantoError, ConnectionError):
    """A command for the hub while no hub is connected."""


class Backoff:
    """Waits between attempts to reopen: short at first (a cable pushed back in), then capped."""

    def __init__(self, first_s: float = 0.05, cap_s: float = 0.4) -> None:
        self.first_s, self.cap_s = first_s, cap_s
        self.next_s = first_s

    def take(self) -> float:
        wait, self.next_s = self.next_s, min(self.next_s * 2, self.cap_s)
        return wait

    def reset(self) -> None:
        self.next_s = self.first_s


def find_hub_port(vid: int = PICO_VID, pid: int = PICO_PID) -> str | None:
    """The device path of the first USB serial port with this VID/PID, if one is plugged in."""
    for info in serial.tools.list_ports.comports():
        if info.vid == vid and info.pid == pid:
            return str(info.device)
    return None


class HubLink:
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
        self.configured_port = port or os.environ.get(PORT_ENV) or None
        self.vid, self.pid = vid, pid
        self.clock = clock
        self.backoff = backoff or Backoff()
        self.events: queue.Queue[InputEvent] = queue.Queue()
        self.on_event = on_event or self.events.put
        self.status = InputStatus(source="hub")
        self.protocol = HubProtocol(self._heard, clock)
        self.book = SequenceBook()
        self.hub_clock = HubClock()
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._host_seq = 0
        self._boot_id: str | None = None
        self._sessions = 0
        self._recent: dict[int, bytes] = {}
        self.tips = tips
        self.greetings = 0
        self._tips_asked: str | None = None    # the host sequence number of the last TIPS
        self._reset_session()

    # Life cycle ---------------------------------------------------------------------------------

    def start(self) -> HubLink:
        self._thread = threading.Thread(target=self._run, name="hub-link", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def __enter__(self) -> HubLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_connected(self, timeout: float) -> bool:
        return self.connected.wait(timeout)

    # Commands -----------------------------------------------------------------------------------

    def send(self, body: str) -> int:
        """Send one command line; its host sequence number (the hub quotes it in ERR). HubOffline if
        no hub is connected right now."""
        with self._write_lock:
            if self._serial is None:
                raise HubOffline(f"no hub connected (port {self.status.port!r})")
            try:
                self._serial.write(frame(self._host_seq, body))
            except (serial.SerialException, OSError) as exc:
                raise HubOffline(f"hub port {self.status.port!r} failed while sending {body!r}: {exc}") from exc
            self._host_seq += 1
            return (self._host_seq - 1) % SEQ_MOD

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
        self._tips_asked = str(self.send("TIPS"))
        self.status.update(tip_switches="asked")

    # The thread ---------------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            port = self._choose_port()
            link = self._open(port) if port else None
            if link is None:
                self._stop.wait(self.backoff.take())
                continue
            self.backoff.reset()
            try:
                self._session(link)
            except (serial.SerialException, OSError) as exc:
                self.status.problem(f"hub port {port!r} vanished: {exc}")
            finally:
                self._close(link)

    def _choose_port(self) -> str | None:
        if self.configured_port:
            return self.configured_port
        port = find_hub_port(self.vid, self.pid)
        message = f"no hub found (USB {self.vid:04x}:{self.pid:04x}); is it plugged in?"
        if port is None and self.status.last_error != message:
            self.status.problem(message)
        return port

    def _open(self, port: str) -> serial.SerialBase | None:
        try:
            link = serial.serial_for_url(port, baudrate=115200, timeout=0.05, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            busy = "lock" in str(exc).lower()
            message = (f"hub port {port!r} is held by another program: {exc}" if busy
                       else f"cannot open hub port {port!r}: {exc}")
            if self.status.last_error != message:
                self.status.problem(message)
            return None
        self.status.update(port=port)
        with self._write_lock:
            self._serial = link
        return link

    def _close(self, link: serial.SerialBase) -> None:
        with self._write_lock:
            self._serial = None
        self.connected.clear()
        self.status.update(connected=False)
        self.protocol.connection_lost()
        self._sync_garbage()
        try:
            link.close()
        except (serial.SerialException, OSError):
            pass

    def _session(self, link: serial.SerialBase) -> None:
        self._reset_session()
        self.send("HELLO %d" % PROTOCOL_VERSION)
        hello_at = last_data = self.clock()
        while not self._stop.is_set():
            data = link.read(link.in_waiting or 1)
            now = self.clock()
            if data:
                last_data = now
                self.protocol.data_received(data)
                self._sync_garbage()
            if not self._greeted and now - hello_at > HELLO_AGAIN_S and not self._refused:
                hello_at = now
                self.send("HELLO %d" % PROTOCOL_VERSION)
            if now - last_data > SILENT_S and self._greeted:
                self.status.problem(f"hub on {self.status.port!r} has been silent for {now - last_data:.1f} s")
                last_data = now
            self._chase_gaps(now)

    def _reset_session(self) -> None:
        self._greeted = False
        self._refused = False
        self._pending: list[tuple[int, HubMessage, bytes]] = []
        self._last_garbage_note = 0.0

    # Lines from the hub -------------------------------------------------------------------------

    def _heard(self, seq: int, message: HubMessage, raw: bytes) -> None:
        if self._refused:
            return
        if isinstance(message, Hello) and (not self._greeted or message.boot_id != self._boot_id):
            self._greet(seq, message, raw)
        elif not self._greeted:
            if len(self._pending) < MAX_PENDING:
                self._pending.append((seq, message, raw))
        elif self._reborn(seq, raw):
            # Same sequence number, different bytes: a hub that restarted without us seeing its
            # HELLO. Hold its lines until it says who it is.
            self._greeted = False
            self._pending.append((seq, message, raw))
            self.send("HELLO %d" % PROTOCOL_VERSION)
        else:
            self._book(seq, message, raw)

    def _reborn(self, seq: int, raw: bytes) -> bool:
        earlier = self._recent.get(seq)
        return earlier is not None and earlier != raw

    def _greet(self, seq: int, hello: Hello, raw: bytes) -> None:
        self.status.update(protocol_version=hello.protocol, firmware=hello.firmware, boot_id=hello.boot_id)
        if hello.protocol != PROTOCOL_VERSION:
            self._refused = True
            self._pending.clear()
            self.status.problem(
                f"hub on {self.status.port!r} speaks protocol v{hello.protocol} (firmware {hello.firmware!r}) "
                f"but Incanto speaks v{PROTOCOL_VERSION}: reflash it with mpremote (hardware.md, "
                f"'Flashing the hub'); its lines are ignored", logging.ERROR)
            return
        if self._boot_id is not None and hello.boot_id != self._boot_id:
            self._restarted(hello)
        self._boot_id = hello.boot_id
        self._greeted = True
        self.greetings += 1   # before the pending lines: they come from this greeting's hub
        for item in self._pending:
            self._book(*item)
        self._pending.clear()
        self._book(seq, hello, raw)
        if self.tips:
            self.ask_tips()
        if self.hub_clock.count < CLOCK_PINGS:
            # A few quick round trips give the clock mapping a good start; heartbeats refine it.
            self.ping(CLOCK_TOKEN)
        if not self.connected.is_set():
            self.status.update(connected=True, reconnects=self.status.reconnects + (self._sessions > 0))
            self._sessions += 1
            self.connected.set()

    def _restarted(self, hello: Hello) -> None:
        # A fresh boot counts from 0: ask for everything it sent before we could listen.
        gone = self.book.restart(expected=0)
        self._recent.clear()
        self.hub_clock.reset()
        note = f"; {gone} lines from before the restart never arrived and are lost" if gone else ""
        self.status.problem(f"hub restarted (boot {self._boot_id} -> {hello.boot_id}){note}",
                            logging.ERROR if gone else logging.WARNING)
        self._sync_book()

    def _book(self, seq: int, message: HubMessage, raw: bytes) -> None:
        now = self.clock()
        verdict, gap = self.book.accept(seq, now)
        if verdict != "duplicate":
            self._remember(seq, raw)
        if gap:
            self._ask(gap)
        self._sync_book()
        if verdict == "duplicate":
            return
        self._deliver(message, fresh=verdict == "next")

    def _remember(self, seq: int, raw: bytes) -> None:
        self._recent[seq] = raw
        self._recent.pop((seq - RECENT_LINES) % SEQ_MOD, None)

    def _deliver(self, message: HubMessage, fresh: bool) -> None:
        if isinstance(message, (Heartbeat, Pong, HubTime)):
            if fresh:
                self.hub_clock.sample(message.hub_us, self.clock())
            if isinstance(message, Pong) and message.token == CLOCK_TOKEN and self.hub_clock.count < CLOCK_PINGS:
                self.ping(CLOCK_TOKEN)
        elif isinstance(message, (Press, Release, TipPressed, TipLifted)):
            if isinstance(message, Press):
                self.status.update(presses=self.status.presses + 1)
            self._emit(replace(message, host_t=self.hub_clock.to_host(message.hub_us, message.host_t)))
        elif isinstance(message, CuePressed):
            self._emit(CueHeard("hub", self.hub_clock.to_host(message.hub_us, self.clock())))
        elif isinstance(message, Lost):
            self._lost(message)
        elif isinstance(message, HubError):
            self._refused_command(message)
        elif isinstance(message, Ack) and message.text == "TIPS":
            self.status.update(tip_switches="told")
        elif isinstance(message, (Hello, Ack, Disarmed)):
            pass
        else:
            self._emit(message)

    def _refused_command(self, error: HubError) -> None:
        if error.command_seq == self._tips_asked and error.reason == "unknown_command":
            self.status.update(tip_switches="unsupported")
            self.status.problem(f"hub firmware {self.status.firmware!r} has no tip switches: the camera reads "
                                f"the wands alone; reflash the hub with mpremote (hardware.md, 'Flashing the hub')")
            return
        self.status.problem(f"hub refused command {error.command_seq}: {error.reason}")

    def _lost(self, lost: Lost) -> None:
        hits = self.book.give_up(lost.first, lost.count)
        self._sync_book()
        if hits:
            last = (lost.first + lost.count - 1) % SEQ_MOD
            self.status.problem(f"hub could not resend lines {lost.first}..{last}: "
                                f"any press in them is lost", logging.ERROR)

    def _emit(self, event: InputEvent) -> None:
        try:
            self.on_event(event)
        except Exception:  # a broken listener must not take the link down
            logging.getLogger("incanto.inputs").exception("input listener failed on %r", event)

    # Gaps ---------------------------------------------------------------------------------------

    def _ask(self, seqs: list[int]) -> None:
        for first, count in runs(seqs):
            self.send(f"RESEND {first} {count}")
            self.status.update(resends=self.status.resends + 1)

    def _chase_gaps(self, now: float) -> None:
        if not self.book.missing:
            return
        again, hopeless = self.book.overdue(now)
        if again:
            self._ask(again)
        if hopeless:
            spans = ", ".join(f"{first}+{count}" for first, count in runs(hopeless))
            self.status.problem(f"lines {spans} never came back from the hub: any press in them is lost",
                                logging.ERROR)
        self._sync_book()

    def _sync_book(self) -> None:
        self.status.update(lines_lost=self.book.lost, lines_recovered=self.book.recovered,
                           duplicates=self.book.duplicates)

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

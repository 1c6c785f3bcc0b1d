"""A simulated wand hub: the real firmware logic (firmware/hub.py) with simulated buttons.

It speaks the hub protocol over a serial path, normally one end of a socat pty pair, so the host
side cannot tell it from a Pico. It keeps scanning while its port is gone (as a hub on a powered
USB hub does), so the lines it sends meanwhile sit in its ring for the host to ask for again.

    python -m companion.inputs.simhub --pty /tmp/incanto-hub        # a hub for the demo

(The bench drives presses on a schedule with ``companion.inputs.bench.driven_hub``.)
"""
from __future__ import annotations

import argparse
import random
import signal
import sys
import threading
import time
from collections import defaultdict, deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

import serial

from companion.inputs.events import InputEvent
from companion.inputs.firmware import hub_module
from companion.threads import Background

if TYPE_CHECKING:
    from companion.inputs.link import HubLink

SCAN_S = 0.0002           # the Pico scans far faster; this is plenty for a simulation
REOPEN_S = 0.02


def monotonic_us() -> int:
    return time.monotonic_ns() // 1000


class SimButtons:
    """The input bank seam: which buttons are held down, as the firmware's bit mask.

    A real contact stays closed however busy the host is; a simulated one must not vanish just
    because the scan thread was not scheduled in time. So the next change of a button shows only
    once the firmware has settled the last one (`settled(bit, down)`); changes made meanwhile
    wait their turn, and the firmware stamps them when it sees them.
    """

    def __init__(self, settled: Callable[[int, bool], bool]) -> None:
        self.mask = 0
        self.settled = settled
        self._waiting: dict[int, deque[bool]] = defaultdict(deque)
        self._lock = threading.Lock()

    def read(self) -> int:
        with self._lock:
            for bit, waiting in self._waiting.items():
                if waiting and self.settled(bit, bool(self.mask & (1 << bit))):
                    self._show(bit, waiting.popleft())
            return self.mask

    def _show(self, bit: int, down: bool) -> None:
        self.mask = self.mask | (1 << bit) if down else self.mask & ~(1 << bit)

    def hold(self, bit: int, down: bool) -> None:
        with self._lock:
            self._waiting[bit].append(down)

    def hold_all(self, bits: list[int]) -> None:
        """Several buttons down in one instant, bypassing the queues (they must be up and settled)."""
        with self._lock:
            for bit in bits:
                self._show(bit, True)


class SimLeds:
    def __init__(self, count: int) -> None:
        self.lit = [False] * count

    def show(self, index: int, on: bool) -> None:
        self.lit[index] = on


def _recording_hub_class(firmware: ModuleType, protocol_version: int | None) -> type:
    class RecordingHub(firmware.Hub):  # type: ignore[name-defined]
        """The firmware hub, noting every press it sends (the ground truth for lost presses)."""

        def emit(self, body: str) -> None:
            if body.startswith("P "):
                self.sent_presses.append(tuple(int(w) for w in body.split()[1:]))
            super().emit(body)

        def hello_body(self) -> str:
            body: str = super().hello_body()
            if protocol_version is None:
                return body
            return " ".join(["HELLO", str(protocol_version)] + body.split()[2:])

    RecordingHub.sent_presses = []
    return RecordingHub


class SimHub(Background):
    """The firmware running in a thread, its USB port a serial path. Use as a context manager."""

    def __init__(self, port: str | Path, *, n_wands: int = 8, protocol_version: int | None = None,
                 boot_id: str | None = None, scan_s: float = SCAN_S) -> None:
        super().__init__("sim-hub", join_s=2)
        self.port_path = str(port)
        self.firmware = hub_module()
        self.buttons = SimButtons(self._settled)
        self.leds = SimLeds(n_wands)
        self.scan_s = scan_s
        self._port: serial.Serial | None = None
        self._outbox: list[bytes] = []
        self._lock = threading.Lock()
        hub_class = _recording_hub_class(self.firmware, protocol_version)
        self.hub = hub_class(self.buttons, self.leds, monotonic_us, lambda a, b: a - b, self._write,
                             n_wands=n_wands, boot_id=boot_id or "%04x" % random.getrandbits(16))
        # Count hub time on the host's monotonic clock, so a stamp reads directly as host time.
        self.hub.clock.us = monotonic_us()

    def _settled(self, bit: int, down: bool) -> bool:
        tip = bit - self.firmware.TIP_BIT
        if tip >= 0:
            return bool(self.hub.tips[tip].settled(down, self.hub.clock.us))
        index = self.hub.n_wands if bit == self.firmware.CUE_BIT else bit
        return bool(self.hub.debouncers[index].settled(down, self.hub.clock.us))

    @property
    def sent_presses(self) -> list[tuple[int, int]]:
        """(wand, hub_us) of every press the hub has sent, in order."""
        return list(self.hub.sent_presses)

    # Life cycle ---------------------------------------------------------------------------------

    def stop(self) -> None:
        super().stop()
        self._drop_port()

    # The players' hands -------------------------------------------------------------------------

    def press(self, wand: int) -> None:
        self.buttons.hold(wand - 1, True)

    def release(self, wand: int) -> None:
        self.buttons.hold(wand - 1, False)

    def press_together(self, *wands: int) -> None:
        """Several buttons down at the same instant (the same scan sees them all)."""
        self.buttons.hold_all([wand - 1 for wand in wands])

    def touch(self, wand: int) -> None:
        """The wand's tip bead pressed down on a token: its tip switch closes."""
        self.buttons.hold(self.firmware.TIP_BIT + wand - 1, True)

    def lift(self, wand: int) -> None:
        """The tip bead up in the air again."""
        self.buttons.hold(self.firmware.TIP_BIT + wand - 1, False)

    def tap(self, wand: int, hold_s: float = 0.02, gap_s: float = 0.02) -> None:
        """Press and release, waiting long enough for the firmware to see both."""
        self.press(wand)
        time.sleep(hold_s)
        self.release(wand)
        time.sleep(gap_s)

    def cue(self, hold_s: float = 0.02) -> None:
        self.buttons.hold(self.firmware.CUE_BIT, True)
        time.sleep(hold_s)
        self.buttons.hold(self.firmware.CUE_BIT, False)
        time.sleep(0.02)

    def inject(self, data: bytes) -> None:
        """Raw bytes onto the line between the hub's own lines: noise on the cable."""
        with self._lock:
            self._outbox.append(data)

    # The loop -----------------------------------------------------------------------------------

    def _run(self) -> None:
        next_open = 0.0
        while not self._stop.is_set():
            if self._port is None and time.monotonic() >= next_open:
                next_open = time.monotonic() + REOPEN_S
                self._try_open()
            self.hub.poll()
            self._exchange()
            time.sleep(self.scan_s)

    def _try_open(self) -> None:
        try:
            self._port = serial.Serial(self.port_path, timeout=0)
        except (serial.SerialException, OSError):
            self._port = None

    def _exchange(self) -> None:
        port = self._port
        if port is None:
            return
        try:
            waiting = port.in_waiting
            if waiting:
                self.hub.feed(port.read(waiting))
            with self._lock:
                outbox, self._outbox = self._outbox, []
            for data in outbox:
                port.write(data)
        except (serial.SerialException, OSError):
            self._drop_port()

    def _write(self, line: bytes) -> None:
        port = self._port
        if port is None:
            raise OSError("hub unplugged")
        try:
            port.write(line)
        except (serial.SerialException, OSError) as exc:
            self._drop_port()
            raise OSError(str(exc)) from exc

    def _drop_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass


@contextmanager
def simulated_hub(folder: Path, on_event: Callable[[InputEvent], None] | None = None) -> Iterator[tuple[HubLink, SimHub]]:
    """A whole simulated wand rig for the demo and tests: socat pty pair, simulated hub, link.

    Yields (link, sim) once the link has greeted the hub; press buttons with `sim.tap(wand)`.
    """
    from companion.inputs.link import HubLink
    from companion.inputs.ptypair import PtyPair

    with PtyPair(Path(folder) / "hub", Path(folder) / "host") as pair, SimHub(pair.hub_end) as sim, \
            HubLink(str(pair.host_end), on_event) as link:
        if not link.wait_connected(10):
            raise TimeoutError(f"simulated hub did not answer on {str(pair.host_end)!r}: {link.status.last_error}")
        yield link, sim


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.inputs.simhub", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", help="serial path of the hub's end (e.g. one end of a socat pair)")
    parser.add_argument("--pty", help="make a socat pty pair; the host end is at this path")
    parser.add_argument("--demo", action="store_true", help="tap a random wand now and then, forever")
    args = parser.parse_args(argv)
    if not args.port and not args.pty:
        parser.error("give --port or --pty")
    from companion.inputs.ptypair import PtyPair
    # A plain `kill` should take the pty pair down with us, as Ctrl-C does.
    signal.signal(signal.SIGTERM, _interrupt)
    pair = PtyPair(Path(args.pty + ".hub"), Path(args.pty)).plug() if args.pty else None
    port = str(pair.hub_end) if pair else args.port
    try:
        with SimHub(port) as sim:
            _play(sim, args)
    except KeyboardInterrupt:
        pass
    finally:
        if pair:
            pair.unplug()
    return 0


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def _play(sim: SimHub, args: Any) -> None:
    print(f"simulated hub on {sim.port_path}", file=sys.stderr, flush=True)
    while True:
        time.sleep(random.uniform(0.5, 2.0) if args.demo else 3600)
        if args.demo:
            sim.tap(random.randint(1, 8))


if __name__ == "__main__":
    raise SystemExit(main())

"""The hub's serial port: which one, opened exclusively, written line by line, reopened with backoff.

Knows nothing of what the lines mean: ``HubLink`` reads what comes in and decides what to send. Whatever
goes wrong with the port itself (not found, held by another program, vanished) is said on the status.
"""
from __future__ import annotations

import os
import threading

import serial
import serial.tools.list_ports

from companion.errors import IncantoError
from companion.inputs.protocol import SEQ_MOD, frame
from companion.inputs.status import InputStatus

PICO_VID, PICO_PID = 0x2E8A, 0x0005          # MicroPython on a Raspberry Pi Pico
PORT_ENV = "INCANTO_HUB_PORT"


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


class HubPort:
    """The port the hub is on. ``configured``: a device path or pyserial URL; None means
    $INCANTO_HUB_PORT, else the first port with the Pico's USB VID/PID (looked for at every attempt,
    so a hub plugged in later is found). Commands carry the host's own sequence number."""

    def __init__(self, configured: str | None, status: InputStatus, *, vid: int = PICO_VID, pid: int = PICO_PID,
                 backoff: Backoff | None = None) -> None:
        self.configured = configured or os.environ.get(PORT_ENV) or None
        self.vid, self.pid = vid, pid
        self.status = status
        self.backoff = backoff or Backoff()
        self._serial: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._host_seq = 0

    def choose(self) -> str | None:
        if self.configured:
            return self.configured
        port = find_hub_port(self.vid, self.pid)
        message = f"no hub found (USB {self.vid:04x}:{self.pid:04x}); is it plugged in?"
        if port is None and self.status.last_error != message:
            self.status.problem(message)
        return port

    def open(self, port: str) -> serial.SerialBase | None:
        """The port opened exclusively (pyserial's flock), or None with the reason on the status."""
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

    def close(self, link: serial.SerialBase) -> None:
        with self._write_lock:
            self._serial = None
        try:
            link.close()
        except (serial.SerialException, OSError):
            pass

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

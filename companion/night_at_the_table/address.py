"""Where a phone on the table's network finds the Pi: the address the join code's QR code carries.

The Pi's own screen shows the board at ``localhost``, so the page's own address would send a phone
that scans the code nowhere. The join address is, in order:

1. the Pi's mDNS name (``incanto.local`` when the Pi is called ``incanto``), when avahi announces it;
2. the address the default route leaves by (found without sending anything: a UDP socket
   ``connect`` only picks a route);
3. any other interface's address that is not loopback;
4. loopback, only when it is truly the only one, and then ``alone`` says so.
"""
from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import socket
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

AVAHI_PID = Path("/run/avahi-daemon/pid")  # avahi-daemon writes it while it runs
ROUTE_PROBE = ("192.0.2.1", 9)  # TEST-NET-1: routable enough to choose a route, never sent to
SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


@dataclass(frozen=True)
class JoinAddress:
    """``host`` goes into the QR code; ``lan`` is the numeric address, shown beside it for a phone
    that cannot resolve ``.local`` names; ``alone`` when the Pi is on no network at all."""

    host: str
    lan: str
    alone: bool = False

    def url(self, port: int, path: str = "/") -> str:
        return f"http://{_bracketed(self.host)}{_port(port)}{path}"

    def lan_url(self, port: int, path: str = "/") -> str:
        return f"http://{_bracketed(self.lan)}{_port(port)}{path}"


def join_address(*, mdns: Callable[[], str | None] | None = None, routed: Callable[[], str | None] | None = None,
                 interfaces: Callable[[], Iterable[str]] | None = None) -> JoinAddress:
    """The Pi's address on the table's network (each finder can be replaced, for a Pi with no network
    or one with avahi, on a machine that has neither)."""
    lan = table_address(routed or routed_address, interfaces or interface_addresses)
    name = (mdns or mdns_name)()
    if lan is None:
        return JoinAddress(name or "127.0.0.1", "127.0.0.1", alone=name is None)
    return JoinAddress(name or lan, lan)


def table_address(routed: Callable[[], str | None], interfaces: Callable[[], Iterable[str]]) -> str | None:
    """The LAN address: the default route's, else the first interface's that is not loopback."""
    first = routed()
    if first is not None and not _loopback(first):
        return first
    return next((a for a in interfaces() if not _loopback(a)), None)


def mdns_name() -> str | None:
    """``<hostname>.local`` while avahi-daemon runs (it announces the host name by that name)."""
    if not AVAHI_PID.exists():
        return None
    host = socket.gethostname().split(".")[0].lower()
    return f"{host}.local" if host and host != "localhost" else None


def routed_address() -> str | None:
    """The source address of the default route; None without one (no packet is sent)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(ROUTE_PROBE)
        return str(probe.getsockname()[0])
    return None


def interface_addresses() -> list[str]:
    """Every interface's IPv4 address, in the kernel's order (Linux)."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            with contextlib.suppress(OSError):
                answer = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
                found.append(socket.inet_ntoa(answer[20:24]))
    return found


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback or ipaddress.ip_address(address).is_unspecified
    except ValueError:
        return address.lower() in ("localhost", "localhost.localdomain")


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _port(port: int) -> str:
    return "" if port == 80 else f":{port}"

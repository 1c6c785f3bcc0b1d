"""The display's listening socket, opened before anything else starts, so a taken port is one line
("port 8000 is taken: ...; try --port 8001"), never uvicorn's bare "[Errno 98]" after the table has
half started."""
from __future__ import annotations

import errno
import socket

from companion.night_at_the_table import CannotStart

LOOK_AHEAD = 20  # ports tried after a taken one, for the suggestion


def listen(host: str, port: int, how_to_choose: str = "--port") -> socket.socket:
    """A bound socket on ``host:port`` (port 0: a free one); CannotStart naming the port when it is taken,
    with a free one to try (``how_to_choose``: how the user gives another, e.g. ``PORT=`` for make)."""
    try:
        return _bound(host, port)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise CannotStart(f"port {port} is taken: another program (perhaps another Incanto) listens there; "
                              f"try {how_to_choose}{_sep(how_to_choose)}{free_after(host, port)}") from None
        if e.errno == errno.EACCES:
            raise CannotStart(f"port {port} needs root on this machine; try {how_to_choose}{_sep(how_to_choose)}8000") from None
        raise CannotStart(f"cannot listen on {host}:{port}: {e.strerror or e}") from None


def free_after(host: str, port: int) -> int:
    """The first port after ``port`` that can be listened on (``port + 1`` if none of the next few is free)."""
    for candidate in range(port + 1, min(port + 1 + LOOK_AHEAD, 65536)):
        try:
            _bound(host, candidate).close()
        except OSError:
            continue
        return candidate
    return port + 1


def _bound(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: a restart reuses TIME_WAIT
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def _sep(how: str) -> str:
    return "" if how.endswith("=") else " "

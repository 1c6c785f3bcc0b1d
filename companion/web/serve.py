"""Serving the display: a real uvicorn, on the LAN for the tablets (``serve``) or in a thread on a
free port (``running``, for the demo, tests and benches). What it serves is assembled by
``companion.night_at_the_table``."""
from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn
from fastapi import FastAPI

from companion.web.settings import Settings

# A page only ever sends "resync" on its stream; pings find tablets that vanished without a goodbye.
# On SIGTERM (systemd stopping the display) requests still running get a few seconds, then are dropped:
# a calibration step is never waited for (its thread is a daemon), so the display stops promptly.
UVICORN: dict[str, Any] = {"ws_max_size": 4096, "ws_ping_interval": 10.0, "ws_ping_timeout": 10.0,
                           "timeout_graceful_shutdown": 3}


def lan_address(family: socket.AddressFamily = socket.AF_INET) -> str:
    """The address tablets on the LAN reach this machine at, in ``family`` (no packet is sent)."""
    probe_to, loopback = (("2001:db8::1", 9), "::1") if family == socket.AF_INET6 else (("192.0.2.1", 9), "127.0.0.1")
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as probe:
        probe.connect(probe_to)  # documentation addresses: routing only
        return str(probe.getsockname()[0])
    return loopback


def announce(settings: Settings, port: int) -> str:
    """Print the address to open and the join code; an address of the family the display listens on
    (``--host ::`` listens on IPv6, so an IPv4 address might reach nothing)."""
    host = {"0.0.0.0": lan_address(), "::": lan_address(socket.AF_INET6)}.get(settings.host, settings.host)
    url = f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"
    print(f"Incanto display: {url}   join code: {settings.join_code}", flush=True)
    return url


@contextlib.contextmanager
def running(app: FastAPI, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve ``app`` with a real uvicorn in a thread; yields its base URL (``port=0``: a free port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", **UVICORN))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="uvicorn")
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError(f"the display could not start on {host}:{port}")
        time.sleep(0.01)
    try:
        local = "127.0.0.1" if host in ("0.0.0.0", "") else "[::1]" if host == "::" else host
        yield f"http://{local}:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)
        sock.close()


def serve(app: FastAPI, settings: Settings) -> None:
    """Serve ``app`` where ``settings`` say until interrupted."""
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning", **UVICORN)

"""``python -m companion serve``: the display for a real night, and a real uvicorn for tests and bench."""
from __future__ import annotations

import argparse
import contextlib
import logging
import socket
import threading
import time
from pathlib import Path
from typing import Iterator

import uvicorn
from fastapi import FastAPI

from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.web.app import create_app
from companion.web.settings import Settings

DEFAULT_STORE = Path("var") / "incanto.sqlite"
# A page only ever sends "resync" on its stream; pings find tablets that vanished without a goodbye.
UVICORN = {"ws_max_size": 4096, "ws_ping_interval": 10.0, "ws_ping_timeout": 10.0}


def lan_address() -> str:
    """The address tablets on the LAN reach this machine at (no packet is sent)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET: routing only
        return str(probe.getsockname()[0])
    return "127.0.0.1"


def announce(settings: Settings, port: int) -> str:
    host = lan_address() if settings.host in ("0.0.0.0", "::") else settings.host
    url = f"http://{host}:{port}/"
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


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m companion serve", description="Serve the tablets' display.")
    parser.add_argument("--store", type=Path, default=DEFAULT_STORE, help=f"SQLite store (default {DEFAULT_STORE})")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--join-code", help="six digits (default: a new random code each start)")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse(argv)
    fields = {"host": args.host, "port": args.port} | ({"join_code": args.join_code} if args.join_code else {})
    try:
        settings = Settings(**fields)
    except ValueError as e:
        print(f"bad setting: {e}")
        return 2
    args.store.parent.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    with Store(args.store) as store:
        app = create_app(Night.resume_or_start(store), StatusBoard(), settings)
        announce(settings, settings.port)
        uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning", **UVICORN)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(__import__("sys").argv[1:]))

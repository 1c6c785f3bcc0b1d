"""``python -m companion serve``: a real night at the table (the display, the wand hub, the camera, the
cue), and a real uvicorn for tests and bench."""
from __future__ import annotations

import argparse
import contextlib
import logging
import socket
import threading
import time
from pathlib import Path
from collections.abc import Iterator

import uvicorn
from fastapi import FastAPI

from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.tableside import TableSide, TableSideConfig, TableSideError
from companion.tableside.config import default_camera
from companion.tableside.routes import attach
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
    parser = argparse.ArgumentParser(prog="python -m companion serve",
                                     description="A night at a real table: the display, the wand hub, the camera, the cue.")
    parser.add_argument("--store", type=Path, default=DEFAULT_STORE, help=f"SQLite store (default {DEFAULT_STORE})")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--join-code", help="six digits (default: a new random code each start)")
    parser.add_argument("--hub", default="auto", metavar="auto|PORT|gpio|none",
                        help="button wands: a hub if one is plugged in (default), a serial port, GPIO pins, or none")
    parser.add_argument("--camera", default=default_camera(), metavar="SPEC|none",
                        help=f"the overhead camera: picamera2, camera:N, a video or folder, or none "
                             f"(default here: {default_camera()})")
    parser.add_argument("--calibration", type=Path, help="calibration file (default: where `python -m calibration` "
                                                         "writes it, $INCANTO_CALIBRATION, else the vision configuration's calibration_file)")
    parser.add_argument("--vision-config", type=Path, help="vision settings JSON (default: vision's defaults)")
    parser.add_argument("--places", type=Path, help="where each token place and seat lies on the table "
                                                    "(default: the standard Incantibus layout)")
    parser.add_argument("--mic", action=argparse.BooleanOptionalAction, default=True,
                        help="listen for the spoken cue (default: on, when a chant is enrolled)")
    parser.add_argument("--hands", action=argparse.BooleanOptionalAction, default=True,
                        help="MediaPipe hands for a wand whose band is hidden (default: on)")
    return parser.parse_args(argv)


def table_side_config(args: argparse.Namespace) -> TableSideConfig:
    return TableSideConfig(hub=args.hub, camera=args.camera, calibration=args.calibration,
                           vision_config=args.vision_config, places=args.places, mic=args.mic,
                           hands=args.hands)


def main(argv: list[str]) -> int:
    args = parse(argv)
    fields = {"host": args.host, "port": args.port} | ({"join_code": args.join_code} if args.join_code else {})
    try:
        settings = Settings(**fields)
        config = table_side_config(args)
    except ValueError as e:
        print(f"bad setting: {e}")
        return 2
    args.store.parent.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    with Store(args.store) as store:
        status = StatusBoard()  # one board: the devices report to it, the pages read it
        app = create_app(Night.resume_or_start(store), status, settings)
        try:
            side = TableSide(app.state.table, status, config, publish=app.state.hub.publish)
        except TableSideError as e:
            print(f"bad setting: {e}")
            return 2
        attach(app, side)
        announce(app.state.settings, settings.port)  # the join code in force (kept in the store)
        with side:
            uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning", **UVICORN)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(__import__("sys").argv[1:]))

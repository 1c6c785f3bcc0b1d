"""``python -m companion bench display --json``: how fast an event reaches 20 tablets, and what one
stalled tablet costs the other 19.

A real uvicorn serves a real Incantibus night in its own process, where bots play through the same
door as the tablets. Twenty WebSocket clients in this process time each event from the moment the hub
pushed it (``pushed_at``) until it arrived. First one of the twenty is a client that stops reading
its socket after the handshake (its kernel buffer fills, then the server's, then its queue, and the
server drops it); then the same moves are played again with all twenty reading, and the other 19's
delays are compared event for event.
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import gc
import multiprocessing
import os
import random
import re
import socket
import statistics
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

import websockets

from companion.figures import print_figures

if TYPE_CHECKING:  # the server's modules load in its own process only
    from companion.web.table import Table

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]
SEED = 1
CHUNK = 100  # moves per command to the server's bots
ENVELOPE = re.compile(rb'^\{"seq":(\d+),"pushed_at":([0-9.e+-]+),"type":"(\w+)"')


# -- the server's process -----------------------------------------------------------------------

def _serve(conn: Connection) -> None:
    from companion.night import Night
    from companion.status import StatusBoard
    from companion.store import Store
    from companion.web.app import create_app
    from companion.web.serve import running
    from companion.web.settings import Settings

    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "bench.sqlite") as store:
        night = Night.resume_or_start(store, "Bench night")
        night.start_game("incantibus", PLAYERS, seed=1)
        app = create_app(night, StatusBoard(), Settings(client_queue=64, send_timeout_s=1.0))
        with running(app) as url:
            conn.send(url)
            rng = random.Random(SEED)
            while (command := conn.recv())[0] == "play":
                _, events, interval_s, seed = command
                if seed is not None:  # from the same first move again, so phases play the same game
                    rng = random.Random(seed)
                    app.state.table.start_game("incantibus", PLAYERS, seed=seed)
                _play(app.state.table, events, interval_s, rng)
                conn.send(app.state.hub.dropped)


def _play(table: Table, events: int, interval_s: float, rng: random.Random) -> None:
    for _ in range(events):
        game = table.game
        action = game.rules.random_action(game.state, rng)
        if action is None:
            table.start_game("incantibus", PLAYERS, seed=rng.randrange(2**31))
        else:
            table.propose(action, None, game.version)
        time.sleep(interval_s)


# -- the tablets ------------------------------------------------------------------------------

class Listener:
    """One tablet: keeps the arrival time of every event; parsing waits until the run is over."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.arrivals: list[tuple[bytes, float]] = []

    async def read(self) -> None:
        try:
            async for message in self.ws:
                self.arrivals.append((message[:80] if isinstance(message, bytes) else message[:80].encode(), time.time()))
        except websockets.ConnectionClosed:
            pass

    def latencies(self, since_seq: int) -> dict[int, float]:
        out = {}
        for head, arrived in self.arrivals:
            m = ENVELOPE.match(head)
            if m and m.group(3) == b"event" and int(m.group(1)) > since_seq:
                out[int(m.group(1))] = (arrived - float(m.group(2))) * 1000
        return out


async def _connect(url: str) -> Any:
    return await websockets.connect(url.replace("http://", "ws://") + "/api/stream", max_size=2**22)


def _stalled_tablet(url: str) -> socket.socket:
    """A WebSocket opened by hand that never reads a byte after the handshake: a tablet gone to sleep."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window, as on a weak Wi-Fi link
    sock.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET /api/stream HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    if not sock.recv(12).startswith(b"HTTP/1.1 101"):
        raise ConnectionError(f"the display at {url!r} refused a WebSocket")
    return sock


def _fanout(listeners: list[Listener], since_seq: int) -> list[float]:
    """Per event: the time until the LAST of the listeners had it (events some missed are skipped)."""
    per = [lst.latencies(since_seq) for lst in listeners]
    common = set.intersection(*(set(p) for p in per))
    return [max(p[seq] for p in per) for seq in sorted(common)]


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98] if len(values) > 1 else float("nan")


async def _measure(url: str, conn: Connection, clients: int, events: int, interval_s: float) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    others = [Listener(await _connect(url)) for _ in range(clients - 1)]
    readers = [asyncio.create_task(lst.read()) for lst in others]
    await _phase(conn, loop, CHUNK, interval_s)  # warm up

    # Nineteen tablets reading and one asleep, until the server has given up on the sleeper (its
    # kernel buffers, then its queue, had to fill first), so the figure covers the drop too.
    stalled = _stalled_tablet(url)
    since = _last_seq(others)
    played, dropped = await _phase(conn, loop, events, interval_s, until_dropped=True)
    during = _fanout(others, since)
    stalled.close()

    # The same moves again (same seed), all twenty reading: any hiccup of the game itself (a new
    # game starting, a big view) lands on the same events in both runs.
    twentieth = Listener(await _connect(url))
    readers.append(asyncio.create_task(twentieth.read()))
    since = _last_seq(others)
    await _phase(conn, loop, played, interval_s)
    everyone, same_19 = _fanout([*others, twentieth], since), _fanout(others, since)

    for task in readers:
        task.cancel()
    for lst in [*others, twentieth]:
        await lst.ws.close()
    return {
        "fanout_ms_p99": round(p99(everyone), 2),
        "fanout_ms_p50": round(statistics.median(everyone), 2),
        "stalled_client_extra_ms_p99": round(max(0.0, p99(during) - p99(same_19)), 2),
        "stalled_fanout_ms_p99": round(p99(during), 2),
        "stalled_fanout_ms_p50": round(statistics.median(during), 2),
        "stalled_client_dropped": dropped >= 1,
        "clients": clients, "events_per_phase": played, "interval_ms": interval_s * 1000,
        "events_measured": [len(everyone), len(during)],
    }


async def _phase(conn: Connection, loop: asyncio.AbstractEventLoop, events: int, interval_s: float,
                 until_dropped: bool = False) -> tuple[int, int]:
    """Have the server's bots play ``events`` moves from the bench's seed; returns (moves, tablets dropped)."""
    played, dropped = 0, 0
    seed: int | None = SEED  # the first chunk starts the game again from the bench's seed; the rest go on
    while played < events or (until_dropped and not dropped and played < 3000):
        conn.send(("play", CHUNK, interval_s, seed))
        dropped = await loop.run_in_executor(None, conn.recv)
        played, seed = played + CHUNK, None
    await asyncio.sleep(0.3)  # the last events reach the tablets
    return played, dropped


def _last_seq(listeners: list[Listener]) -> int:
    seqs = [int(m.group(1)) for lst in listeners for head, _ in lst.arrivals if (m := ENVELOPE.match(head))]
    return max(seqs, default=0)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion bench display", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--events", type=int, default=1000,
                        help="events per phase (the stalled phase goes on until the server dropped the sleeper)")
    parser.add_argument("--interval-ms", type=float, default=20.0, help="time between events")
    args = parser.parse_args(argv)
    if args.clients < 2 or args.events < 2:
        parser.error(f"need at least 2 clients and 2 events, not {args.clients!r} and {args.events!r}")

    ours, theirs = multiprocessing.Pipe()
    server = multiprocessing.get_context("spawn").Process(target=_serve, args=(theirs,), daemon=True)
    server.start()
    try:
        url = ours.recv()
        gc.disable()  # this process only measures: its own collector pauses are not the display's delay
        result = asyncio.run(_measure(url, ours, args.clients, args.events, args.interval_ms / 1000))
        gc.enable()
        ours.send(("stop",))
    finally:
        server.join(timeout=10)
        if server.is_alive():
            server.terminate()
    print_figures(result, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(__import__("sys").argv[1:]))

"""The command-line entry points: serve on a real store, and the bench's reading of the push stream."""
from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from companion.night_at_the_table import serve
from companion.web import bench
from companion.web.push import Hub


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_resumes_the_night_in_its_store(tmp_path: Path) -> None:
    port, store = free_port(), tmp_path / "night.sqlite"
    command = [sys.executable, "-m", "companion", "serve", "--store", str(store), "--host", "127.0.0.1",
               "--port", str(port), "--join-code", "135790"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert "join code: 135790" in (server.stdout.readline() if server.stdout else "")
        night = _get(f"http://127.0.0.1:{port}/api/night")
        assert night["games"] == [] and night["standings"] == []
        joined = httpx.post(f"http://127.0.0.1:{port}/api/session", json={"code": "135790"})
        assert joined.status_code == 200 and "incanto_session" in joined.cookies
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert store.exists()


def _get(url: str) -> dict:  # type: ignore[type-arg]
    for _ in range(100):
        try:
            return httpx.get(url).json()  # type: ignore[no-any-return]
        except httpx.ConnectError:
            time.sleep(0.05)
    raise AssertionError(f"nothing answered at {url}")


def test_serve_refuses_a_bad_join_code(capsys) -> None:  # type: ignore[no-untyped-def]
    assert serve.main(["--join-code", "12ab"]) == 2
    assert "join_code" in capsys.readouterr().err


def test_the_bench_reads_the_hubs_own_envelope() -> None:
    async def one_message() -> str:
        hub = Hub(lambda: {})
        hub.start(asyncio.get_running_loop())
        sent: list[str] = []

        class Peer:
            async def send(self, text: str) -> None:
                sent.append(text)

            async def close(self, code: int, reason: str) -> None: ...

        hub.connect(Peer())
        hub._broadcast({"type": "event", "event": {"seq": 1}})
        await asyncio.sleep(0.01)
        return sent[-1]

    text = asyncio.run(one_message())
    match = bench.ENVELOPE.match(text.encode())
    assert match is not None and match.group(3) == b"event"
    assert float(match.group(2)) == json.loads(text)["pushed_at"]
    assert bench.p99([1.0, 2.0, 3.0, 100.0]) > 3.0

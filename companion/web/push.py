"""The push hub: every message reaches every tablet, and no tablet can hold back another.

Each client has its own bounded queue and its own sender task. Publishing only drops a ready-made
JSON text into each queue, so a tablet that sleeps or stops reading costs the others nothing: when its
queue is full, or one send takes longer than the timeout, it is dropped, and the page reconnects to
a fresh snapshot.

Messages are ``{"seq": n, "pushed_at": t, "type": "event" | "snapshot" | "status" | "questions", ...}``. ``seq``
counts every message published; a snapshot carries the seq it is current at, so a page that sees
any number but the next one knows it missed something and asks for a snapshot.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any, Protocol
from collections.abc import Callable

log = logging.getLogger(__name__)

FELL_BEHIND = 4001  # WebSocket close code: reconnect and take a snapshot


class Peer(Protocol):
    """One connected page, whatever carries the bytes."""

    async def send(self, text: str) -> None: ...

    async def close(self, code: int, reason: str) -> None: ...


class Client:
    def __init__(self, peer: Peer, queue_size: int) -> None:
        self.peer = peer
        self.queue: asyncio.Queue[str] = asyncio.Queue(queue_size)
        self.task: asyncio.Task[None] | None = None


class Hub:
    """Lives on the server's event loop; ``publish`` may be called from any thread."""

    def __init__(self, snapshot: Callable[[], dict[str, Any]], queue_size: int = 64,
                 send_timeout_s: float = 2.0) -> None:
        self._snapshot = snapshot
        self.queue_size = queue_size
        self.send_timeout_s = send_timeout_s
        self.seq = 0
        self.clients: set[Client] = set()
        self.dropped = 0  # clients dropped for falling behind, for the status page and tests
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    # -- publishing ----------------------------------------------------------------------

    def publish(self, body: dict[str, Any]) -> None:
        """Thread-safe: the engine calls its listeners in whichever thread proposed."""
        if self._loop is None or self._loop.is_closed():
            return  # no server running: nobody to tell
        try:
            self._loop.call_soon_threadsafe(self._broadcast, body)
        except RuntimeError:  # the loop closed between the check and the call (shutdown)
            pass

    def _broadcast(self, body: dict[str, Any]) -> None:
        self.seq += 1
        envelope = {"seq": self.seq, "pushed_at": time.time(), **body}  # pushed_at: for latency figures
        text = json.dumps(envelope, separators=(",", ":"))  # encoded once for every client
        for client in list(self.clients):
            self._offer(client, text)

    def _offer(self, client: Client, text: str) -> None:
        try:
            client.queue.put_nowait(text)
        except asyncio.QueueFull:
            self._drop(client, "fell behind")

    def snapshot_text(self) -> str:
        return json.dumps({"seq": self.seq, "type": "snapshot", **self._snapshot()}, separators=(",", ":"))

    # -- clients -------------------------------------------------------------------------

    def connect(self, peer: Peer) -> Client:
        """Must run on the hub's loop. The client's first message is a snapshot."""
        client = Client(peer, self.queue_size)
        self.clients.add(client)
        self._offer(client, self.snapshot_text())
        client.task = asyncio.get_running_loop().create_task(self._send_all(client))
        return client

    def resync(self, client: Client) -> None:
        """The page saw a gap: queue a fresh snapshot behind whatever it has not received yet."""
        if client in self.clients:
            self._offer(client, self.snapshot_text())

    def disconnect(self, client: Client) -> None:
        self.clients.discard(client)
        if client.task is not None and client.task is not asyncio.current_task():
            client.task.cancel()

    async def _send_all(self, client: Client) -> None:
        while True:
            text = await client.queue.get()
            try:
                await asyncio.wait_for(client.peer.send(text), self.send_timeout_s)
            except TimeoutError:
                self._drop(client, f"no send in {self.send_timeout_s} s")
                return
            except Exception:  # the page went away mid-send; its own handler cleans up
                self.disconnect(client)
                return

    def _drop(self, client: Client, why: str) -> None:
        if client not in self.clients:
            return
        log.info("dropping a display client: %s", why)
        self.dropped += 1
        self.disconnect(client)
        asyncio.get_running_loop().create_task(self._close(client, why))

    async def _close(self, client: Client, why: str) -> None:
        # A stalled socket may never take the close frame either; give up after the timeout.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.peer.close(FELL_BEHIND, why), self.send_timeout_s)

    async def close_all(self) -> None:
        for client in list(self.clients):
            self.disconnect(client)
            await self._close(client, "server stopping")

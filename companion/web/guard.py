"""Who may talk to the display: requests must name this display as their Host, and a browser page
that says where it comes from (Origin) must come from the display itself.

A page on another site can point a name of its own at the Pi's address (DNS rebinding) and then read
the display as if it were that site; its requests still carry its own name as Host, and are refused.
A page on another site that posts to the Pi's address directly carries its own Origin, and is refused.
Scripts that send no Origin (the bench, ``curl``) are not browsers and are let through.
"""
from __future__ import annotations

import json
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("localhost", "localhost.localdomain")


def own_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """The names this machine answers to: localhost, its hostname and its mDNS name, and ``extra``."""
    hostname = socket.gethostname().lower()
    return frozenset({*LOOPBACK_NAMES, hostname, f"{hostname}.local", *(n.lower() for n in extra)})


def split_host(host: str) -> tuple[str, str]:
    """``"Pi.local:8000"`` -> ``("pi.local", "8000")``; ``"[::1]:80"`` -> ``("::1", "80")``."""
    host = host.strip().lower()
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        return name, rest.removeprefix(":")
    name, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    return name, port


class HostGuard:
    """ASGI middleware: a wrong Host is answered 421, a foreign Origin 403 (a WebSocket is closed
    before it is accepted), each naming what was refused."""

    def __init__(self, app: ASGIApp, names: frozenset[str]) -> None:
        self.app, self.names = app, names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if not self.answers_to(host, scope):
            return await _refuse(scope, send, 421, "WrongHost",
                                 f"this display does not answer to the name {split_host(host)[0]!r}: "
                                 "open it by its address, as printed when it started")
        origin = headers.get("origin")
        if origin is not None and not _same_origin(origin, scope["scheme"], host):
            return await _refuse(scope, send, 403, "ForeignOrigin",
                                 f"a page from {origin[:80]!r} may not use this display")
        await self.app(scope, receive, send)

    def answers_to(self, host: str, scope: Scope) -> bool:
        """A name of this machine, or the very address the request came in on."""
        name, _ = split_host(host)
        if not name:
            return False
        server = scope.get("server")
        if server and name == str(server[0]).lower():
            return True
        return name in self.names


def _same_origin(origin: str, scheme: str, host: str) -> bool:
    """``origin`` is this display as the request reached it: same scheme, name and port."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return False
    ours = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    if parts.scheme != ours or not parts.hostname:
        return False  # "null" (a sandboxed frame, a file), another scheme, or something stranger
    default = "443" if ours == "https" else "80"
    name, host_port = split_host(host)
    return parts.hostname == name and str(port or default) == (host_port or default)


async def _refuse(scope: Scope, send: Send, status: int, kind: str, message: str) -> None:
    if scope["type"] == "websocket":  # closing before accepting answers the handshake with 403
        await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
        return
    body = json.dumps({"error": message, "kind": kind}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})

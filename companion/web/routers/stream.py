"""The push stream: one WebSocket per page, a snapshot first, then every message in order."""
from __future__ import annotations

import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from companion.web.deps import HubDep

router = APIRouter(tags=["stream"])
UNSUPPORTED_DATA = 1003  # WebSocket close code: a page sends text only


class WebSocketPeer:
    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws

    async def send(self, text: str) -> None:
        await self.ws.send_text(text)

    async def close(self, code: int, reason: str) -> None:
        await self.ws.close(code, reason)


@router.websocket("/api/stream")
async def stream(ws: WebSocket, hub: HubDep) -> None:
    await ws.accept()
    client = hub.connect(WebSocketPeer(ws))
    try:
        while (text := await _next_text(ws)) is not None:
            # The only thing a page says on the stream: "I saw a gap, send me a snapshot".
            if _asks_resync(text):
                hub.resync(client)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hub.disconnect(client)


async def _next_text(ws: WebSocket) -> str | None:
    """The next text frame; None once the page left or sent a binary frame (closed with 1003, quietly)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    if message.get("text") is None:
        if ws.application_state == WebSocketState.CONNECTED:
            await ws.close(UNSUPPORTED_DATA, "the stream takes text frames only")
        return None
    return str(message["text"])


def _asks_resync(text: str) -> bool:
    try:
        return bool(json.loads(text).get("type") == "resync")
    except (ValueError, AttributeError):
        return False

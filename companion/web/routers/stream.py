"""The push stream: one WebSocket per page, a snapshot first, then every message in order."""
from __future__ import annotations

import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from companion.web.deps import HubDep

router = APIRouter(tags=["stream"])


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
        while True:
            # The only thing a page says on the stream: "I saw a gap, send me a snapshot".
            if _asks_resync(await ws.receive_text()):
                hub.resync(client)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hub.disconnect(client)


def _asks_resync(text: str) -> bool:
    try:
        return json.loads(text).get("type") == "resync"  # type: ignore[no-any-return]
    except (ValueError, AttributeError):
        return False

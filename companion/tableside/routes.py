"""The tablet's cue button: ``POST /api/cue`` (a session needed, as for every change).

The casting reading starts from the moment of the tap, as it does from the hub's cue button; what
came of it arrives on the push stream as a notice (and, if the camera was unsure, as a question).
"""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from companion.web.deps import Joined

router = APIRouter(prefix="/api/cue", tags=["cue"])


@router.post("")
def cue(request: Request, _: Joined) -> dict[str, Any]:
    side = request.app.state.tableside
    given = side.cue.tablet()
    return {"source": given.source, "t_end": given.t_end}


def attach(app: Any, side: Any) -> None:
    """Give the display's app its table side and the cue route."""
    app.state.tableside = side
    app.include_router(router)

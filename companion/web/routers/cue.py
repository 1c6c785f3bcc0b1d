"""The tablet's cue button: ``POST /api/cue`` (a session needed, as for every change).

Only a display with something at the table that hears the cue has this route: the root attaches it
with that cue button (``attach``). The casting reading starts from the moment of the tap, as it does
from the hub's cue button; what came of it arrives on the push stream as a notice (and, if the camera
was unsure, as a question). A tap carries an action id made by the page: a retried tap answers what
the first one did and starts no second reading.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

from fastapi import APIRouter, FastAPI, Request
from pydantic import BaseModel, ConfigDict

from companion.web.deps import Joined
from companion.web.routers.game import ActionId

router = APIRouter(prefix="/api/cue", tags=["cue"])
REMEMBERED_TAPS = 256  # enough for every retry a tablet makes; older ids are long settled


class GivenCue(Protocol):
    @property
    def source(self) -> str: ...

    @property
    def t_end(self) -> float: ...


class CueButton(Protocol):
    """Whatever hears the table's cue (the table side's cue inputs): a tablet's tap gives one now."""

    def tablet(self) -> GivenCue: ...


class CueTap(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action_id: str | None = ActionId


class TapMemory:
    """The answers to the most recent taps, by action id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._answers: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def once(self, action_id: str | None, give: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        with self._lock:
            if action_id is not None and action_id in self._answers:
                return self._answers[action_id]
            answer = give()
            if action_id is not None:
                self._answers[action_id] = answer
                while len(self._answers) > REMEMBERED_TAPS:
                    self._answers.popitem(last=False)
            return answer


@router.post("")
def cue(request: Request, _: Joined, body: CueTap | None = None) -> dict[str, Any]:
    button: CueButton = request.app.state.cue_button
    taps: TapMemory = request.app.state.cue_taps

    def give() -> dict[str, Any]:
        given = button.tablet()
        return {"source": given.source, "t_end": given.t_end}

    return taps.once(body.action_id if body else None, give)


def attach(app: FastAPI, button: CueButton) -> None:
    """Give the display the table's cue button and the route that presses it."""
    app.state.cue_button = button
    app.state.cue_taps = TapMemory()
    app.include_router(router)

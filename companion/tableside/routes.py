"""The tablet's cue button: ``POST /api/cue`` (a session needed, as for every change).

The casting reading starts from the moment of the tap, as it does from the hub's cue button; what
came of it arrives on the push stream as a notice (and, if the camera was unsure, as a question).
A tap carries an action id made by the page: a retried tap answers what the first one did and
starts no second reading. ``POST /api/cue/dismiss`` is the other tap: a spoken cue that was not the
chant is dismissed, and the question its reading opened, if any, is withdrawn.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict

from companion.cue import CueError
from companion.web.deps import Joined
from companion.web.errors import UnknownQuestion
from companion.web.routers.game import ActionId

router = APIRouter(prefix="/api/cue", tags=["cue"])
REMEMBERED_TAPS = 256  # enough for every retry a tablet makes; older ids are long settled


class CueTap(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action_id: str | None = ActionId


class TapMemory:
    """The answers to the most recent taps, by action id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._answers: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def once(self, action_id: str | None, give: Any) -> dict[str, Any]:
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
    side = request.app.state.tableside
    taps: TapMemory = request.app.state.cue_taps

    def give() -> dict[str, Any]:
        given = side.cue.tablet()
        return {"source": given.source, "t_end": given.t_end}

    return taps.once(body.action_id if body else None, give)


class Dismissal(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    cue_id: int


@router.post("/dismiss")
def dismiss(request: Request, body: Dismissal, _: Joined) -> dict[str, Any]:
    side = request.app.state.tableside
    try:
        cue = side.cue.dismiss(body.cue_id)
    except CueError as e:
        raise UnknownQuestion(str(e)) from None
    last = side.reader.last
    withdrawn = last.question_id if last is not None and last.outcome == "asked" and side.cue.was_last(cue) else None
    if withdrawn:
        request.app.state.table.questions.close(withdrawn)
    return {"dismissed": body.cue_id, "withdrawn_question": withdrawn}


def attach(app: Any, side: Any) -> None:
    """Give the display's app its table side and the cue route."""
    app.state.tableside = side
    app.state.cue_taps = TapMemory()
    app.include_router(router)

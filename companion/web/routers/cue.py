"""The tablet's cue button: ``POST /api/cue`` (a session needed, as for every change).

Only a display with something at the table that hears the cue has this route: the root attaches it
with that cue button (``attach``). The casting reading starts from the moment of the tap, as it does
from the hub's cue button; what came of it arrives on the push stream as a notice (and, if the camera
was unsure, as a question). A tap carries an action id made by the page: a retried tap answers what
the first one did and starts no second reading. ``POST /api/cue/dismiss`` is the other tap: a spoken
cue that was not the chant is dismissed, and the question its reading opened, if any, is withdrawn.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

from fastapi import APIRouter, FastAPI, Request
from pydantic import BaseModel, ConfigDict

from companion.web.answers import CHANGES, EVERY_ROUTE, refused
from companion.web.deps import Joined
from companion.web.errors import UnknownQuestion
from companion.web.routers.game import ActionId

router = APIRouter(prefix="/api/cue", tags=["cue"])
REMEMBERED_TAPS = 256  # enough for every retry a tablet makes; older ids are long settled


class GivenCue(Protocol):
    @property
    def source(self) -> str: ...

    @property
    def t_end(self) -> float: ...


class CueButton(Protocol):
    """Whatever hears the table's cue (the table side's cue inputs): a tablet's tap gives one now, and
    a spoken cue that was not the chant can be dismissed."""

    def tablet(self) -> GivenCue: ...

    def dismiss(self, cue_id: int) -> str | None:
        """Dismiss spoken cue ``cue_id``; the id of the question its reading opened, if still open.
        Raises ``CueError`` (a ``ValueError``) for a cue that is unknown or already dismissed."""


class Dismissal(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    cue_id: int


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


@router.post("", responses=refused(*CHANGES))
def cue(request: Request, _: Joined, body: CueTap | None = None) -> dict[str, Any]:
    button: CueButton = request.app.state.cue_button
    taps: TapMemory = request.app.state.cue_taps

    def give() -> dict[str, Any]:
        given = button.tablet()
        return {"source": given.source, "t_end": given.t_end}

    return taps.once(body.action_id if body else None, give)


@router.post("/dismiss", responses=refused(*CHANGES, 404, 422))
def dismiss(request: Request, body: Dismissal, _: Joined) -> dict[str, Any]:
    button: CueButton = request.app.state.cue_button
    try:
        withdrawn = button.dismiss(body.cue_id)
    except ValueError as e:
        raise UnknownQuestion(str(e)) from None
    if withdrawn:
        request.app.state.table.questions.close(withdrawn)
    return {"dismissed": body.cue_id, "withdrawn_question": withdrawn}


def attach(app: FastAPI, button: CueButton) -> None:
    """Give the display the table's cue button and the route that presses it."""
    app.state.cue_button = button
    app.state.cue_taps = TapMemory()
    app.include_router(router, responses=refused(*EVERY_ROUTE))

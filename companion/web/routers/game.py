"""The current game: its view and history to read, proposals and answers to change it."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import Field

from companion.web.answers import CHANGES, refused
from companion.web.bodies import Body
from companion.web.deps import Joined, TableDep
from companion.web.errors import UnknownQuestion
from companion.web.questions import OpenQuestion
from companion.web.table import entry

router = APIRouter(prefix="/api/game", tags=["game"])

ActionId = Field(None, min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")


class Proposal(Body):
    action: dict[str, Any]
    action_id: str | None = ActionId  # made by the page, so a retried tap applies once
    base: int | None = Field(None, ge=0)  # the version the page showed when the tap was made


class Answer(Body):
    targets: dict[str, str | None]
    action_id: str | None = ActionId


@router.get("", responses=refused(404))
def view(table: TableDep) -> dict[str, Any]:
    return table.view()


@router.get("/history", responses=refused(404))
def history(table: TableDep) -> list[dict[str, Any]]:
    return table.history()


@router.post("/actions", responses=refused(*CHANGES, 404, 409))
def propose(body: Proposal, table: TableDep, _: Joined) -> dict[str, Any]:
    event = table.propose(body.action, body.action_id, body.base)
    return {"event": entry(event), "version": table.game.version}


@router.get("/questions")
def questions(table: TableDep) -> list[dict[str, Any]]:
    return table.questions.open()


@router.post("/questions/{question_id}", responses=refused(*CHANGES, 404, 409))
def answer(question_id: str, body: Answer, table: TableDep, _: Joined) -> dict[str, Any]:
    """One tap answers one wand (or several): marked at once on every tablet; the tap that answers the
    last wand makes the casting (``event``)."""
    done = table.answer(question_id, body.targets, body.action_id)
    if isinstance(done, OpenQuestion):
        return {"question": done.as_dict(), "complete": False, "version": table.game.version}
    return {"event": entry(done), "complete": True, "version": table.game.version}


# The camera's picture of each asked wand, for the question's <img>: outside /api/game, since it
# belongs to the question, which outlives no game but is not part of the game's view.
pictures = APIRouter(prefix="/api/questions", tags=["game"])
PNG: dict[int | str, dict[str, Any]] = {200: {"content": {"image/png": {}}, "description": "the wand's picture at the deciding moment"}}


@pictures.get("/{question_id}/wand/{wand}.png", response_class=Response, responses={**PNG, **refused(404)})
def wand_picture(question_id: str, wand: int, table: TableDep) -> Response:
    asked = table.questions.get(question_id)
    try:
        picture = asked.question.wand(wand).picture
    except KeyError:
        picture = None
    if picture is None:
        raise UnknownQuestion(f"question {question_id!r} has no picture of wand {wand!r}")
    # A question's pictures never change: a tablet redrawing its marks need not fetch them again.
    return Response(picture, media_type="image/png", headers={"Cache-Control": "private, max-age=600"})

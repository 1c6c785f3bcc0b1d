"""The current game: its view and history to read, proposals and answers to change it."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import Field

from companion.web.answers import CHANGES, refused
from companion.web.bodies import Body
from companion.web.deps import Joined, TableDep
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
    event = table.answer(question_id, body.targets, body.action_id)
    return {"event": entry(event), "version": table.game.version}

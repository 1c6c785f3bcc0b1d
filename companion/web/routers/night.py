"""The night: standings across the games played, starting the next game, and resuming an unfinished one."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import Field, StringConstraints

from companion import night_options
from companion.web.answers import CHANGES, refused
from companion.web.bodies import Body
from companion.web.deps import Joined, TableDep

router = APIRouter(prefix="/api/night", tags=["night"])


PlayerName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=24)]


class NewGame(Body):
    game: str = Field(min_length=1, max_length=40)
    players: list[PlayerName] = Field(min_length=1, max_length=8)
    options: dict[str, Any] = Field(default_factory=dict)


@router.get("")
def night(table: TableDep) -> dict[str, Any]:
    return table.night_view()


@router.post("/games", responses=refused(*CHANGES))
def start_game(body: NewGame, table: TableDep, _: Joined) -> dict[str, Any]:
    game = table.start_game(body.game, body.players, night_options.started_with(body.game, body.options))
    return {"game": game.rules.name, "players": game.players, "version": game.version}


@router.post("/games/{game_id}/resume", responses=refused(*CHANGES, 400))
def resume_game(game_id: Annotated[int, Path(ge=1, le=2**63 - 1)], table: TableDep, _: Joined) -> dict[str, Any]:
    """An unfinished game of tonight, left when another was started, is played on from where it was."""
    game = table.resume(game_id)
    return {"game": game.rules.name, "players": game.players, "version": game.version, "id": game_id}

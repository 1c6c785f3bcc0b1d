"""The games Incanto knows, by name and title: what the night page offers to start next."""
from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from companion import games
from companion.web.answers import refused

router = APIRouter(prefix="/api/games", tags=["games"])


class KnownGame(BaseModel):
    name: str  # what ``POST /api/night/games`` takes as ``game``
    title: str  # what the table calls it


class KnownGames(BaseModel):
    games: list[KnownGame]


@router.get("", responses=refused())
def known_games() -> KnownGames:
    return KnownGames(games=[KnownGame(name=name, title=games.get(name).title) for name in games.names()])

"""The games Incanto knows, by name and title, with their player counts and the host's controls for each
option: what the night page offers to start next."""
from __future__ import annotations

from fastapi import APIRouter
from typing import Any

from pydantic import BaseModel

from companion import games, night_options
from companion.web.answers import refused

router = APIRouter(prefix="/api/games", tags=["games"])


class KnownGame(BaseModel):
    name: str  # what ``POST /api/night/games`` takes as ``game``
    title: str  # what the table calls it
    player_counts: list[int]  # how many may play, as the rulebook says
    options: list[dict[str, Any]]  # the host's controls for the options its setup takes (companion.night_options)


class KnownGames(BaseModel):
    games: list[KnownGame]


@router.get("", responses=refused())
def known_games() -> KnownGames:
    return KnownGames(games=[known(name) for name in games.names()])


def known(name: str) -> KnownGame:
    rules = games.get(name)
    return KnownGame(name=name, title=rules.title, player_counts=list(rules.player_counts),
                     options=night_options.options(name))

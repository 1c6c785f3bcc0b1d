"""Co-operative scoring: the group wins or loses together.

Every player's score is the group's: the monsters it banished. The ranking lists the players in
seat order, all sharing one place; ``places`` says so to the night's standings (a win for everyone
when the grimoire is beaten, for no one when it is not).
"""
from __future__ import annotations

from companion.games.grimoire.state import State


def scores(state: State) -> dict[str, int]:
    return {p.name: len(state.banished) for p in state.players}


def ranking(state: State) -> list[str]:
    return [p.name for p in state.players]


def places(state: State) -> list[list[str]]:
    """Players grouped by place, best first; an empty first place: the game beat the whole group."""
    everyone = ranking(state)
    return [everyone] if state.outcome == "won" else [[], everyone]

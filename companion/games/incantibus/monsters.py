"""Catching monsters: with the weapon of the monster's colour (kept), else with Ultimus (used up)."""
from __future__ import annotations

from companion.games.incantibus.state import State
from companion.games.incantibus.tokens import load

ULTIMUS = "ultimus"


def catcher(state: State, player: str, monster: str) -> str | None:
    """The token that catches ``monster`` for ``player``: a matching weapon, else an Ultimus, else None.
    The rulebook lets a player keep Ultimus when they have the weapon, and keeping it never costs
    anything, so the weapon is always used first."""
    kinds = load().kinds
    ultimus = None
    for token in state.satchels[player]:
        kind = kinds[state.kinds[token] or ""]
        if kind.catches == monster:
            return token
        if kind.name == ULTIMUS:
            ultimus = token
    return ultimus


def weapon_for(monster: str) -> str:
    return next(k.name for k in load().kinds.values() if k.catches == monster)

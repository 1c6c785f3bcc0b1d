"""Scoring: the points printed on the tokens in each satchel (plus the wand in expert mode)."""
from __future__ import annotations

from companion.games.incantibus.state import State
from companion.games.incantibus.tokens import load


def satchel_points(state: State, player: str) -> int:
    kinds = load().kinds
    return sum(kinds[state.kinds[t] or ""].points for t in state.satchels[player])


def points(state: State, player: str) -> int:
    return satchel_points(state, player) + (state.wands[player] if state.expert else 0)


def breakdown(state: State, player: str) -> dict[str, int]:
    """Points by what earned them: gold, monsters, potions, spells, books, sorcerers (and wand)."""
    kinds = load().kinds
    out: dict[str, int] = {}
    for t in state.satchels[player]:
        kind = kinds[state.kinds[t] or ""]
        if kind.points:
            key = "gold" if kind.cell == "gold" else kind.category
            out[key] = out.get(key, 0) + kind.points
    if state.expert:
        out["wand"] = state.wands[player]
    return out


def scores(state: State) -> dict[str, int]:
    return {p: points(state, p) for p in state.players}


def ranking(state: State) -> list[str]:
    """Most points first; a tie goes to the stronger wand at the end (even one put on the table)."""
    return sorted(state.players, key=lambda p: (-points(state, p), -state.wands[p]))

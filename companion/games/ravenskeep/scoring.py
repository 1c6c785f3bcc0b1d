"""Scores and places: the unspent (full) potion bottles; the winner is among the players with every
bottle full and every wizard in Ravenskeep, the most full bottles, ties sharing the victory."""
from __future__ import annotations

from companion.games.ravenskeep import turn
from companion.games.ravenskeep.state import State


def scores(state: State) -> dict[str, int]:
    return {p.name: p.full for p in state.players}


def _key(state: State, seat: int) -> tuple[int, int, int]:
    """Goal reached first, then full bottles; among the others, wizards in Ravenskeep (interpretation)."""
    p = state.players[seat]
    reached = turn.done(state, seat)
    return (1, p.full, 0) if reached else (0, p.keep, p.full)


def places(state: State) -> list[list[str]]:
    """Players grouped by place, best first; a group shares its place (the winners' tie included)."""
    seats = sorted(range(len(state.players)), key=lambda s: (tuple(-k for k in _key(state, s)), s))
    groups: list[list[str]] = []
    last: tuple[int, int, int] | None = None
    for s in seats:
        if _key(state, s) != last:
            groups.append([])
            last = _key(state, s)
        groups[-1].append(state.players[s].name)
    return groups


def ranking(state: State) -> list[str]:
    return [name for group in places(state) for name in group]


def winners(state: State) -> list[str]:
    first = places(state)[0]
    return first if state.over and turn.done(state, state.seat(first[0]) or 0) else []

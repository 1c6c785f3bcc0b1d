"""Scores: Bonus rewards, the points printed on yellow, purple and blue portals, and green portals'
delayed effects counted over every open portal. A tie goes to the player with the most portals."""
from __future__ import annotations

from companion.games.via_magica.portals import PortalEffect, load
from companion.games.via_magica.state import State


def green_points(state: State, player: str, effect: PortalEffect | None) -> int:
    cards = [load().portals[p] for p in state.achieved[player]]
    if effect is None:  # every green portal has one: see data/portals.json
        raise ValueError(f"a green portal of {player} has no effect to score")
    if effect.kind == "per_colour":
        return effect.points * sum(1 for c in cards if c.colour == effect.colour)
    return effect.points * sum(c.spaces.count(effect.animus[0]) for c in cards)


def breakdown(state: State, player: str) -> dict[str, int]:
    cat = load()
    portals = [cat.portals[p] for p in state.achieved[player]]
    return {
        "rewards": sum(cat.rewards[r].points for r, who in state.rewards.items() if who == player),
        "portals": sum(c.points for c in portals if c.colour != "green"),
        "green": sum(green_points(state, player, c.effect) for c in portals if c.colour == "green"),
    }


def points(state: State, player: str) -> int:
    return sum(breakdown(state, player).values())


def scores(state: State) -> dict[str, int]:
    return {p: points(state, p) for p in state.players}


def ranking(state: State) -> list[str]:
    return sorted(state.players, key=lambda p: (-points(state, p), -len(state.achieved[p])))

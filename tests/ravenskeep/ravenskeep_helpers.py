"""Shared by the Ravenskeep tests: boards described by position, actions played on them."""
from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

from companion import games
from companion.engine.game import rng_for
from companion.games.ravenskeep.state import State
from tests import game_helpers

RULES = games.get("ravenskeep")
GOLDEN = Path(__file__).with_name("golden")
TWO = ["Lera", "Kirill"]
TOWERS = [f"T{i}" for i in range(1, 10)]
PARK = "13"  # towers a test does not place stand here, out of the way


def board(spaces: dict[str, list[str]], players: list[str] | None = None, **bottles: Any) -> State:
    names = players or TWO
    on_board = {n: sum(s.count(n) for s in spaces.values()) for n in names}
    keep = {n: bottles.pop(f"{n.lower()}_keep", 3 - on_board[n]) for n in names}
    described = {n: {"keep": keep[n], **bottles.get(n.lower(), {})} for n in names}
    placed = {i for s in spaces.values() for i in s}
    parked = {PARK: [t for t in TOWERS if t not in placed] + spaces.get(PARK, [])}
    return RULES.from_position(names, {"first": names[0]}, {"spaces": {**spaces, **parked}, "players": described},
                               Random(1))


def play(state: State, *actions: dict[str, Any], seed: int = 0) -> State:
    result: State = game_helpers.act(RULES, state, actions, lambda now, n: rng_for(seed, n))
    return result


def stack(state: State, space: int) -> list[str]:
    return list(state.spaces[space])

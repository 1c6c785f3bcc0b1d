"""Helpers for the Via Magica tests: play a script through the engine, start from a position, walk bots."""
from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any
from collections.abc import Iterator

from companion.engine.game import Game, rng_for
from companion.games.via_magica import RULES
from companion.games.via_magica.state import State

__all__ = ["GOLDEN", "ROW", "RULES", "act", "bot_states", "play", "position", "script", "start"]

GOLDEN = Path(__file__).with_name("golden")
ROW = ["P20a", "P21a", "P22a", "P23a", "P24a"]


def script(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (GOLDEN / f"{name}.jsonl").read_text().splitlines() if line.strip()]


def play(lines: list[dict[str, Any]]) -> Game:
    """Every line through ``Game.start`` and ``propose``, as the replay command and the tablets do."""
    setup, *actions = lines
    game = Game.start(RULES, setup["players"], setup.get("options", {}), setup["seed"], position=setup.get("position"))
    for action in actions:
        game.propose(action)
    return game


def start(players: list[str], **options: Any) -> State:
    return RULES.setup(players, options, rng_for(1, 0))


def position(players: dict[str, dict[str, Any]], catcher: str | None = None, row: list[str] | None = None,
             draws: str = "table", **more: Any) -> State:
    """A two-or-more player table described as ``players`` says (stockpile, area, achieved, rewards)."""
    described = {"catcher": catcher or next(iter(players)), "row": ROW if row is None else row,
                 "players": players, **more}
    return RULES.from_position(list(players), {"draws": draws}, described, rng_for(1, 0))


def act(state: State, *actions: dict[str, Any]) -> State:
    """Each action parsed, checked (it must be legal) and applied, as the engine does."""
    for n, raw in enumerate(actions):
        action = RULES.parse_action(raw)
        problems = RULES.check(state, action)
        assert problems == [], (action, problems, state.pending)
        state = RULES.apply(state, action, rng_for(7, state.turn * 100 + n))
    return state


def bot_states(state: State, seed: int) -> Iterator[tuple[dict[str, Any], State]]:
    """(action, state after it) for a random legal game played to the end from ``state``."""
    rng = Random(seed)
    for seq in range(1, 5000):
        action = RULES.random_action(state, rng)
        if action is None:
            return
        action = RULES.parse_action(action)
        assert RULES.check(state, action) == [], (action, state.pending)
        state = RULES.apply(state, action, rng_for(seed, seq))
        yield action, state
    raise AssertionError("a random game did not end in 5000 actions")

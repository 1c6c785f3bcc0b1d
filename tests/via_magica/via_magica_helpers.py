"""Helpers for the Via Magica tests: play a script through the engine, start from a position, walk bots."""
from __future__ import annotations

from pathlib import Path
from typing import Any
from collections.abc import Iterator

from companion.engine.game import Game, rng_for
from companion.games.via_magica import RULES
from companion.games.via_magica.state import State
from tests import game_helpers

__all__ = ["GOLDEN", "ROW", "RULES", "act", "bot_states", "play", "position", "script", "start"]

GOLDEN = Path(__file__).with_name("golden")
ROW = ["P20a", "P21a", "P22a", "P23a", "P24a"]


def script(name: str) -> list[dict[str, Any]]:
    return game_helpers.script(GOLDEN, name)


def play(lines: list[dict[str, Any]]) -> Game:
    return game_helpers.play(RULES, lines)


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
    result: State = game_helpers.act(RULES, state, actions, lambda now, n: rng_for(7, now.turn * 100 + n))
    return result


def bot_states(state: State, seed: int) -> Iterator[tuple[dict[str, Any], State]]:
    return game_helpers.bot_states(RULES, state, seed)

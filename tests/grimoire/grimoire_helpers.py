"""Shared by the Grimoire tests: start a game on a known book, play actions, read the circle."""
from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

from companion import games
from companion.engine.game import Game
from companion.games.grimoire.state import State

RULES = games.get("grimoire")
GOLDEN = Path(__file__).with_name("golden")
NAMES = ["Lera", "Kirill", "Katya", "Rosa"]
BOOK = ["a", "b", "c", "d", "e"]


def start(players: list[str] | None = None, seed: int = 3, **options: Any) -> Game:
    opts = {"book": BOOK, "first": "Lera", **options}
    return Game.start(RULES, players or NAMES[:2], opts, seed=seed)


def position(position: dict[str, Any], players: list[str] | None = None, **options: Any) -> State:
    opts = {"book": BOOK, "first": "Lera", **options}
    return RULES.from_position(players or NAMES[:2], opts, position, Random(1))


def end_turn(game: Game) -> None:
    game.propose({"type": "end_turn", "player": game.state.current.name})


def banish_all(game: Game, reward: str = "feuer") -> None:
    for curse in list(game.state.curses_out):
        game.propose({"type": "banish", "player": game.state.current.name, "curse": curse, "reward": reward})

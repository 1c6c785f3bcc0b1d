"""The standard board of a game: where its places lie on the table when it is laid out as its table card
shows, read from the game's ``data/board.json``. The table side, the calibration tool and the rendered
tables all take the layout from here, so it is written once."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TypedDict

from companion.games import MODULES

Point = tuple[float, float]


class BoardFile(TypedDict):
    token_radius_mm: float
    places: dict[str, list[float]]
    seats: list[list[float]]


@dataclass(frozen=True)
class Board:
    """Places by the game's own names (``r0``, ``p1``, ``s4``) and the seats in seat order, in table mm."""

    token_radius_mm: float
    places: dict[str, Point]
    seats: tuple[Point, ...]


def path_of(game: str) -> Path:
    return Path(__file__).parent / MODULES[game].rsplit(".", 1)[-1] / "data" / "board.json"


@lru_cache(maxsize=8)
def standard_board(game: str) -> Board | None:
    """The game's standard board, or None for a game without one (its places are laid out by hand)."""
    if game not in MODULES or not path_of(game).is_file():
        return None
    raw: BoardFile = json.loads(path_of(game).read_text(encoding="utf-8"))
    return Board(float(raw["token_radius_mm"]), {name: _point(p) for name, p in raw["places"].items()},
                 tuple(_point(s) for s in raw["seats"]))


def _point(value: list[float]) -> Point:
    x, y = value
    return float(x), float(y)

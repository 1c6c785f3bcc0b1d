"""Where each token place and each seat lies on the table, in table millimetres.

The rules name targets by place (``r3`` room slot 3, ``p1`` potion space 1, ``b0`` magic book space 0,
``s4`` sorcerer space 4); the camera needs to know where on the table each place is. The standard
layout is the Incantibus board as laid out in front of the table markers (the room tile in the middle,
potions to its right, books to its left, the sorcerers in a row beyond), read from the game's own
``data/board.json`` (``companion.games.boards``); a table laid out differently gives its own file:

    {"places": {"r0": [455, 375, 15], "p0": {"x_mm": 690, "y_mm": 350, "radius_mm": 15}, ...},
     "seats": [[500, 0], [1000, 400], [500, 800], [0, 400]]}

Seats are the points of the table edge in front of each player, in seat order.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict

from companion import settings_file
from companion.games.boards import Board, standard_board
from companion.tableside.config import TableSideError


def _incantibus() -> Board:
    board = standard_board("incantibus")
    if board is None:
        raise TableSideError("the Incantibus board (companion/games/incantibus/data/board.json) is missing")
    return board


TOKEN_RADIUS_MM = _incantibus().token_radius_mm
SEATS_MM = _incantibus().seats  # south, east, north, west


@dataclass(frozen=True)
class Place:
    id: str
    x_mm: float
    y_mm: float
    radius_mm: float = TOKEN_RADIUS_MM

    def candidate(self) -> dict[str, Any]:
        """The form the vision pipeline takes a legal target in."""
        return {"id": self.id, "x_mm": self.x_mm, "y_mm": self.y_mm, "radius_mm": self.radius_mm}


@dataclass(frozen=True)
class TablePlaces:
    places: dict[str, Place]
    seats: tuple[tuple[float, float], ...]

    def place(self, place_id: str) -> Place:
        if place_id not in self.places:
            raise TableSideError(f"no table position for place {place_id!r}; known places: {sorted(self.places)!r}")
        return self.places[place_id]

    def candidates(self, place_ids: Iterable[str]) -> list[dict[str, Any]]:
        """Pipeline candidates for these places, each once, in a stable order."""
        return [self.place(p).candidate() for p in sorted(set(place_ids))]

    def seat_points(self, players: Sequence[str]) -> dict[str, tuple[float, float]]:
        """Each player's seat point, players given in seat order."""
        if len(players) > len(self.seats):
            raise TableSideError(f"{len(players)!r} players but only {len(self.seats)} seats are laid out")
        return dict(zip(players, self.seats))


def standard_places() -> TablePlaces:
    """The standard Incantibus layout: 9 room slots on the room tile, 3 potion and 3 book spaces either
    side of it, 12 sorcerer spaces in a row beyond it."""
    board = _incantibus()
    return TablePlaces({name: Place(name, x, y, board.token_radius_mm) for name, (x, y) in board.places.items()},
                       board.seats)


def load_places(path: Path | None) -> TablePlaces:
    """The table's own layout file, or the standard layout when ``path`` is None. A bad file is
    refused with every bad key named (``TableSideError``)."""
    if path is None:
        return standard_places()
    layout = settings_file.load(PlacesFile, Path(path), TableSideError)
    places = {pid: Place(pid, *spot) for pid, spot in layout.places.items()}
    return TablePlaces(places, tuple((x, y) for x, y in layout.seats))


Millimetres = Annotated[float, Strict()]  # a number; "12" or true is refused, not guessed at


def _as_list(keys: tuple[str, ...]) -> Any:
    """Accept a point as a list or as {"x_mm": .., "y_mm": ..}; either way a list is validated."""
    def convert(value: Any) -> Any:
        if isinstance(value, dict):
            unknown = set(value) - set(keys)
            if unknown:
                raise ValueError(f"unknown keys {sorted(unknown)!r}; a point has {list(keys)!r}")
            return [value[k] for k in keys if k in value]
        return value
    return BeforeValidator(convert)


Spot = Annotated[list[Millimetres], Field(min_length=2, max_length=3), _as_list(("x_mm", "y_mm", "radius_mm"))]
Point = Annotated[list[Millimetres], Field(min_length=2, max_length=2), _as_list(("x_mm", "y_mm"))]


class PlacesFile(BaseModel):
    """The layout file: ``places`` by id as [x_mm, y_mm(, radius_mm)], ``seats`` as [x_mm, y_mm]."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    places: dict[str, Spot]
    seats: list[Point] = Field(default_factory=lambda: [list(s) for s in SEATS_MM])

"""Where a game's places and the players' seats lie on the table, in table millimetres: the one model of
a places file, read alike by the table side (``--places``), vision (the profile's places, a recording's
``places.json``) and the calibration tool (which writes it from taps).

The rules name targets by place (``r3`` room slot 3, ``p1`` potion space 1, ``s4`` sorcerer space 4);
the camera needs to know where on the table each one is. A place is given as an object or a list:

    {"schema": 1, "game": "incantibus",
     "places": {"r0": {"x_mm": 455, "y_mm": 375, "radius_mm": 15}, "p0": [690, 350, 15], "b0": [310, 350]},
     "seats": [[500, 0], {"x_mm": 1000, "y_mm": 400}, ...]}

``schema`` and ``game`` may be left out (files of older Incantos have neither). Seats are the points of
the table edge in front of each player, in seat order; none given (or ``[]``) means the game's standard
seats, which the reader that knows the game fills in. Numbers must be numbers: ``"12"``, ``true``, NaN
and a place more than ten metres off are refused, not guessed at.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

from vision.targets import Candidate

# The Incantibus token's radius (its board file, companion/games/incantibus/data/board.json, says the
# same; tests/incantibus/test_board.py holds the two together): a place given without one has it.
TOKEN_RADIUS_MM = 15.0
TABLE_REACH_MM = 10_000.0  # no table is ten metres from its corner: a place further off is a typo

Millimetres = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-TABLE_REACH_MM, le=TABLE_REACH_MM)]
# A token from a finger's width to a plate's: a 0 or a 2-metre radius is a slip of the keyboard.
Radius = Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0, le=200)]
PlaceId = Annotated[str, Field(strict=True, min_length=1, max_length=40, pattern=r"^\S+$")]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Place(_Model):
    """A place's token on the table: its centre and radius in table millimetres."""

    x_mm: Millimetres
    y_mm: Millimetres
    radius_mm: Radius = TOKEN_RADIUS_MM

    @model_validator(mode="before")
    @classmethod
    def _from_list(cls, value: Any) -> Any:
        """Accept ``[x_mm, y_mm(, radius_mm)]`` for ``{"x_mm": .., "y_mm": .., "radius_mm": ..}``."""
        if not isinstance(value, (list, tuple)):
            return value
        if len(value) not in (2, 3):
            raise ValueError(f"a place is [x_mm, y_mm] or [x_mm, y_mm, radius_mm], not {len(value)} numbers")
        return dict(zip(("x_mm", "y_mm", "radius_mm"), value))

    def candidate(self, place_id: str) -> Candidate:
        """The form the vision pipeline takes a legal target in."""
        return Candidate(place_id, self.x_mm, self.y_mm, self.radius_mm)


def _seat_point(value: Any) -> Any:
    """Accept ``{"x_mm": .., "y_mm": ..}`` for ``[x_mm, y_mm]``; either of another shape is named whole."""
    if isinstance(value, dict):
        if set(value) != {"x_mm", "y_mm"}:
            raise ValueError(f"a seat is [x_mm, y_mm] or {{'x_mm': .., 'y_mm': ..}}, not one with keys {sorted(value)!r}")
        return value["x_mm"], value["y_mm"]
    if isinstance(value, (list, tuple)) and len(value) != 2:
        raise ValueError(f"a seat is [x_mm, y_mm], not {len(value)} numbers")
    return value


Point = Annotated[tuple[Millimetres, Millimetres], BeforeValidator(_seat_point)]


Places = dict[PlaceId, Place]


class UnknownPlace(KeyError, ValueError):
    """A place the layout does not hold (a ``KeyError`` by its lookup, a ``ValueError`` by its cause)."""

    def __str__(self) -> str:  # KeyError would quote the whole message again
        return str(self.args[0])


class TablePlaces(_Model):
    """Every place of one game by the game's own name for it, and the seats in seat order."""

    schema_: Literal[1] = Field(1, alias="schema")
    game: Annotated[str, Field(strict=True, min_length=1)] | None = None
    places: Places
    seats: tuple[Point, ...] = ()

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="before")
    @classmethod
    def _an_object(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            raise ValueError(f"a places file holds an object with 'places' (and 'seats'), not {type(value).__name__}")
        return value

    @field_validator("places")
    @classmethod
    def _some(cls, places: dict[str, Place]) -> dict[str, Place]:
        if not places:
            raise ValueError("no places: a layout has at least one")
        return places

    def place(self, place_id: str) -> Place:
        if place_id not in self.places:
            raise UnknownPlace(f"no table position for place {place_id!r}; known places: {sorted(self.places)!r}")
        return self.places[place_id]

    def candidates(self, place_ids: Iterable[str]) -> list[Candidate]:
        """Pipeline candidates for these places, each once, in a stable order."""
        return [self.place(p).candidate(p) for p in sorted(set(place_ids))]

    def seat_points(self, players: Sequence[str]) -> dict[str, tuple[float, float]]:
        """Each player's seat point, players given in seat order."""
        if len(players) > len(self.seats):
            raise ValueError(f"{len(players)!r} players but only {len(self.seats)} seats are laid out")
        return dict(zip(players, self.seats))

    def with_seats(self, seats: Iterable[tuple[float, float]]) -> TablePlaces:
        """The same places with these seats (a file that laid none out takes the game's standard ones)."""
        return self.model_validate({**self.dump(), "seats": [list(s) for s in seats]})

    def dump(self) -> dict[str, Any]:
        """The file's content, as the readers read it back."""
        return self.model_dump(by_alias=True, exclude_none=True)

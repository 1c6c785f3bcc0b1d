"""Where each token place and each seat lies on the table, for the table side.

The places model is vision's (``vision.places.TablePlaces``: the one file format the calibration tool
writes and vision reads too). What the table side adds is the game: the standard layout is the
Incantibus board as its table card shows it, read from the game's own ``data/board.json``
(``companion.games.boards``), and a table's own file that lays out no seats takes the board's.
"""
from __future__ import annotations

from pathlib import Path

from companion import settings_file
from companion.games.boards import Board, standard_board
from companion.tableside.config import TableSideError
from vision.places import Place, TablePlaces, UnknownPlace

__all__ = ["Place", "TablePlaces", "UnknownPlace", "load_places", "standard_places"]


def _incantibus() -> Board:
    board = standard_board("incantibus")
    if board is None:
        raise TableSideError("the Incantibus board (companion/games/incantibus/data/board.json) is missing")
    return board


TOKEN_RADIUS_MM = _incantibus().token_radius_mm
SEATS_MM = _incantibus().seats  # south, east, north, west


def standard_places() -> TablePlaces:
    """The standard Incantibus layout: 9 room slots on the room tile, 3 potion and 3 book spaces either
    side of it, 12 sorcerer spaces in a row beyond it."""
    board = _incantibus()
    return TablePlaces.model_validate({
        "game": "incantibus",
        "places": {name: [x, y, board.token_radius_mm] for name, (x, y) in board.places.items()},
        "seats": [list(seat) for seat in board.seats]})


def load_places(path: Path | None) -> TablePlaces:
    """The table's own layout file, or the standard layout when ``path`` is None. A bad file is refused
    as a settings file is, a line for each bad value, naming it and the file (``TableSideError``)."""
    if path is None:
        return standard_places()
    layout = settings_file.load(TablePlaces, Path(path), TableSideError)
    return layout if layout.seats else layout.with_seats(SEATS_MM)

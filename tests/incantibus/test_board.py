"""The standard Incantibus board is written once, in the game's data, and every reader takes it from there."""
from __future__ import annotations

import json
from pathlib import Path

from calibration.layout import game_places
from companion.games.boards import standard_board
from companion.tableside.places import load_places
from vision.places import TOKEN_RADIUS_MM
from vision.render.table import nominal_places

BOARD_FILE = Path(__file__).resolve().parents[2] / "companion" / "games" / "incantibus" / "data" / "board.json"


def test_the_board_holds_every_place_the_rules_name_and_a_seat_for_each_of_four_players() -> None:
    board = standard_board("incantibus")
    assert board is not None
    assert set(board.places) == {f"r{n}" for n in range(9)} | {f"p{n}" for n in range(3)} | \
        {f"b{n}" for n in range(3)} | {f"s{n}" for n in range(12)}
    assert len(board.seats) == 4 and board.token_radius_mm == 15.0


def test_the_table_side_the_calibration_tool_and_the_renderer_read_the_one_board() -> None:
    written = json.loads(BOARD_FILE.read_text())
    spots = {name: (float(x), float(y)) for name, (x, y) in written["places"].items()}
    standard = load_places(None)
    assert {n: (p.x_mm, p.y_mm) for n, p in standard.places.items()} == spots
    assert {p.radius_mm for p in standard.places.values()} == {written["token_radius_mm"]}
    assert [list(s) for s in standard.seats] == written["seats"]
    assert game_places("incantibus").board_mm == spots
    assert game_places("incantibus").token_radius_mm == written["token_radius_mm"]
    assert nominal_places() == spots
    # A places file may leave a place's radius out: it is the token's, the board's and vision's alike.
    assert TOKEN_RADIUS_MM == written["token_radius_mm"]


def test_a_game_without_a_board_has_none() -> None:
    assert standard_board("grimoire") is None and standard_board("chess") is None

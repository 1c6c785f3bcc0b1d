"""Where the places and seats lie: the standard layout, a table's own file, the files Incanto wrote before
the one places model (tests/data/places/) read by every reader alike, and bad files refused by name."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.tableside.config import TableSideConfig, TableSideError
from companion.tableside.places import SEATS_MM, UnknownPlace, load_places, standard_places
from vision.places import TablePlaces
from vision.profile import ProfileError, save_places
from vision.profile import load_places as vision_places
from vision.targets import Candidate

WRITTEN_BEFORE = Path(__file__).resolve().parents[1] / "data" / "places"


def test_the_standard_layout_has_every_incantibus_place_a_casting_can_name() -> None:
    places = standard_places()
    assert {f"r{n}" for n in range(9)} | {"p0", "p1", "p2", "b0", "b1", "b2"} | {f"s{n}" for n in range(12)} \
        == set(places.places)
    # Room slots 45 mm apart on a 3x3 grid: r4 is the middle one.
    r0, r4 = places.place("r0"), places.place("r4")
    assert (r4.x_mm - r0.x_mm, r4.y_mm - r0.y_mm) == (45.0, 45.0)
    assert places.candidates(["r4", "r0", "r4"]) == [Candidate("r0", 455.0, 375.0, 15.0), Candidate("r4", 500.0, 420.0, 15.0)]


def test_a_tables_own_layout_is_read(tmp_path: Path) -> None:
    path = tmp_path / "places.json"
    path.write_text(json.dumps({"places": {"r0": [100, 200], "p0": {"x_mm": 300, "y_mm": 400, "radius_mm": 20}},
                                "seats": [[0, 0], [10, 10]]}))
    places = load_places(path)
    assert places.place("p0").candidate("p0") == Candidate("p0", 300.0, 400.0, 20.0)
    assert places.place("r0").radius_mm == 15.0  # a place given without a radius has the token's
    assert places.seat_points(["Lera", "Kirill"]) == {"Lera": (0.0, 0.0), "Kirill": (10.0, 10.0)}
    with pytest.raises(ValueError, match="3"):
        places.seat_points(["Lera", "Kirill", "Katya"])


@pytest.mark.parametrize("name", ["layout-step.json", "night-recording.json", "rendered-table.json", "hand-written.json"])
def test_every_places_file_incanto_wrote_is_read_alike_by_the_table_side_and_vision(name: str) -> None:
    path = WRITTEN_BEFORE / name
    written = json.loads(path.read_text())
    table_side, vision = load_places(path), vision_places(path)
    assert set(table_side.places) == set(vision.places) == set(written["places"])
    assert table_side.places == vision.places
    for place_id, spot in written["places"].items():
        x, y = (spot["x_mm"], spot["y_mm"]) if isinstance(spot, dict) else spot[:2]
        assert (table_side.place(place_id).x_mm, table_side.place(place_id).y_mm) == (x, y)
    # Seats laid out are the table's; none laid out (``[]``) are the standard ones, at the table side.
    seats = [tuple(s) if isinstance(s, (list, tuple)) else (s["x_mm"], s["y_mm"]) for s in written.get("seats") or SEATS_MM]
    assert list(table_side.seats) == seats


def test_a_layout_written_is_read_back_as_it_was(tmp_path: Path) -> None:
    laid = load_places(WRITTEN_BEFORE / "hand-written.json")
    save_places(laid, tmp_path / "again.json")
    assert load_places(tmp_path / "again.json") == laid == vision_places(tmp_path / "again.json")
    assert set(json.loads((tmp_path / "again.json").read_text())) == {"schema", "places", "seats"}


@pytest.mark.parametrize("content,key,bad", [
    ({"places": {"r0": [100, "far"]}}, "places.r0.y_mm", "valid number (got 'far')"),
    ({"places": {"r0": [100, True]}}, "places.r0.y_mm", "valid number (got True)"),
    ({"places": {"r0": ["100", 200]}}, "places.r0.x_mm", "valid number (got '100')"),
    ({"places": {"r0": [100, 200, 0]}}, "places.r0.radius_mm", "greater than 0 (got 0)"),
    ({"places": {"r0": [100, 1e9]}}, "places.r0.y_mm", "less than or equal to 10000 (got 1000000000.0)"),
    ({"places": {"r0": [100, 200, 15, 4]}}, "places.r0", "a place is [x_mm, y_mm] or [x_mm, y_mm, radius_mm], not 4"),
    ({"places": {"r0": {"x_mm": 1, "y_mm": 2, "size": 3}}}, "places.r0.size", ""),
    ({"places": {"r0": [1, 2]}, "seats": [[1]]}, "seats[0]", "a seat is [x_mm, y_mm], not 1 numbers"),
    ({"places": {"r0": [1, 2]}, "seats": [{"x": 1, "y": 2}]}, "seats[0]", "not one with keys ['x', 'y']"),
    ({"places": {}}, "places", "no places"),
    ({"places": {"r 0": [1, 2]}}, "places.r 0.[key]", "(got 'r 0')"),
    ({"places": {"r0": [1, 2]}, "schema": 2}, "schema", "(got 2)"),
    ({"places": {"r0": [1, 2]}, "game": ""}, "game", "(got '')"),
    ({"spaces": {}}, "places", "required"),
])
def test_a_bad_layout_is_refused_naming_the_key_and_the_bad_value(tmp_path: Path, content: object, key: str,
                                                                    bad: str) -> None:
    path = tmp_path / "places.json"
    path.write_text(json.dumps(content))
    # The table side refuses it as a settings file, a line for each problem; vision in one line.
    for read, error in ((load_places, TableSideError), (vision_places, ProfileError)):
        with pytest.raises(error) as refused:
            read(path)
        lines = [line for line in str(refused.value).splitlines() if f"{key}: " in line]
        assert lines and bad in lines[0] and str(path) in lines[0], str(refused.value)
    assert issubclass(TableSideError, ValueError) and issubclass(ProfileError, ValueError)


def test_an_unknown_key_is_named_with_the_keys_it_may_be(tmp_path: Path) -> None:
    path = tmp_path / "places.json"
    path.write_text(json.dumps({"places": {"r0": {"x_mm": 1, "y_mm": 2, "size": 3}}, "seat": []}))
    with pytest.raises(TableSideError) as refused:
        load_places(path)
    assert str(refused.value).splitlines() == [
        f"{str(path)!r}: places.r0.size: not a setting here; the settings are 'radius_mm', 'x_mm', 'y_mm'",
        f"{str(path)!r}: seat: not a setting here; the settings are 'game', 'places', 'schema', 'seats'"]


def test_a_layout_that_is_not_an_object_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "places.json"
    path.write_text("[1, 2]")
    with pytest.raises(TableSideError, match="a places file holds an object with 'places'"):
        load_places(path)


def test_not_a_number_is_refused_as_a_place(tmp_path: Path) -> None:
    path = tmp_path / "places.json"
    path.write_text('{"places": {"r0": [NaN, 200]}}')  # Python's json writes and reads NaN
    with pytest.raises(TableSideError, match=r"places.r0.x_mm: must be a finite number \(got nan\)"):
        load_places(path)


def test_a_place_with_no_position_is_named() -> None:
    with pytest.raises(UnknownPlace, match="'x9'"):
        standard_places().candidates(["r0", "x9"])
    assert issubclass(UnknownPlace, ValueError)


def test_the_model_is_one_for_every_reader() -> None:
    assert type(standard_places()) is TablePlaces


def test_bad_settings_are_refused_by_name() -> None:
    with pytest.raises(TableSideError, match="''"):
        TableSideConfig(hub="")
    with pytest.raises(TableSideError, match="swap_recheck_s.*-1"):
        TableSideConfig(swap_recheck_s=-1)

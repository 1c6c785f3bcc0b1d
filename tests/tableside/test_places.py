"""Where the places and seats lie: the standard layout, a table's own file, and bad files refused by name."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.tableside.config import TableSideConfig, TableSideError
from companion.tableside.places import load_places, standard_places


def test_the_standard_layout_has_every_incantibus_place_a_casting_can_name() -> None:
    places = standard_places()
    assert {f"r{n}" for n in range(9)} | {"p0", "p1", "p2", "b0", "b1", "b2"} | {f"s{n}" for n in range(12)} \
        == set(places.places)
    # Room slots 45 mm apart on a 3x3 grid: r4 is the middle one.
    r0, r4 = places.place("r0"), places.place("r4")
    assert (r4.x_mm - r0.x_mm, r4.y_mm - r0.y_mm) == (45.0, 45.0)
    assert places.candidates(["r4", "r0", "r4"]) == [r0.candidate(), r4.candidate()]


def test_a_tables_own_layout_is_read(tmp_path: Path) -> None:
    path = tmp_path / "places.json"
    path.write_text(json.dumps({"places": {"r0": [100, 200], "p0": {"x_mm": 300, "y_mm": 400, "radius_mm": 20}},
                                "seats": [[0, 0], [10, 10]]}))
    places = load_places(path)
    assert places.place("p0").candidate() == {"id": "p0", "x_mm": 300.0, "y_mm": 400.0, "radius_mm": 20.0}
    assert places.seat_points(["Lera", "Kirill"]) == {"Lera": (0.0, 0.0), "Kirill": (10.0, 10.0)}
    with pytest.raises(TableSideError, match="3"):
        places.seat_points(["Lera", "Kirill", "Katya"])


@pytest.mark.parametrize("content,named", [
    ({"places": {"r0": [100, "far"]}}, "places.r0[1]"),
    ({"places": {"r0": [1, 2]}, "seats": [[1]]}, "seats[0]"),
    ({"spaces": {}}, "'places'"),
])
def test_a_bad_layout_is_refused_naming_the_bad_value(tmp_path: Path, content: dict, named: str) -> None:  # type: ignore[type-arg]
    path = tmp_path / "places.json"
    path.write_text(json.dumps(content))
    with pytest.raises(TableSideError, match=named.replace("[", r"\[")):
        load_places(path)
    assert issubclass(TableSideError, ValueError)


def test_a_place_with_no_position_is_named() -> None:
    with pytest.raises(TableSideError, match="'x9'"):
        standard_places().candidates(["r0", "x9"])


def test_bad_settings_are_refused_by_name() -> None:
    with pytest.raises(TableSideError, match="''"):
        TableSideConfig(hub="")
    with pytest.raises(TableSideError, match="swap_recheck_s.*-1"):
        TableSideConfig(swap_recheck_s=-1)

"""A table side on simulated devices: a real SQLite night, the simulated hub behind a real socat pty,
and the rendered table as the camera, read by the real vision pipeline."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.inputs.ptypair import PtyPair
from companion.inputs.simhub import SimHub
from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.tableside import TableSide, TableSideConfig
from companion.tableside.places import standard_places
from companion.night_at_the_table.rendered import RenderedTable
from companion.web.table import Table

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]
SEED = 3  # wands: Lera 2, Kirill 1, Katya 3, Rosa 4; room slots r0..r6 legal for everyone


def wait_for(condition: Callable[[], Any], timeout: float = 30.0) -> Any:
    """Poll until ``condition()`` is truthy; generous (a passing test never waits it out), since a
    loaded machine can take seconds to open a rendered camera and a pty."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := condition():
            return found
        time.sleep(0.02)
    return condition()


def device(status: StatusBoard, name: str) -> dict[str, Any] | None:
    return next((d for d in status.snapshot() if d["device"] == name), None)


def casts(table: Table) -> list[dict[str, Any]]:
    return [e["payload"] for e in table.history() if e["kind"] == "action" and e["payload"]["type"] == "cast"]


@pytest.fixture
def status() -> StatusBoard:
    return StatusBoard()


@pytest.fixture
def table(store: Store, status: StatusBoard) -> Table:
    night = Night.resume_or_start(store, "Test night")
    night.start_game("incantibus", PLAYERS, seed=SEED)
    return Table(night, status)


@pytest.fixture
def rendered(table: Table) -> RenderedTable:
    view = table.view()
    table_ = RenderedTable(standard_places(), [p["name"] for p in view["players"]], view["wands"])
    table_.lay_out(list(view["legal"]["tokens"]))
    return table_


@pytest.fixture
def calibration(rendered: RenderedTable, tmp_path: Path) -> Path:
    return rendered.save_calibration(tmp_path / "calibration.json")


@pytest.fixture
def sim(pty_pair: PtyPair) -> Iterator[SimHub]:
    with SimHub(pty_pair.hub_end) as hub:
        yield hub


@pytest.fixture
def make_side(table: Table, status: StatusBoard) -> Iterator[Callable[..., TableSide]]:
    """Start a TableSide with these settings; every one made is stopped at the end."""
    made: list[TableSide] = []

    def make(config: TableSideConfig, **kw: Any) -> TableSide:
        made.append(TableSide(table, status, config, **kw).start())
        return made[-1]

    yield make
    for side in made:
        side.stop()


@pytest.fixture
def seeing_side(make_side: Callable[..., TableSide], rendered: RenderedTable, calibration: Path,
                status: StatusBoard) -> TableSide:
    """No hub, the rendered table as the camera, the table calibrated, the swap checked quickly."""
    side = make_side(TableSideConfig(hub="none", camera="render", calibration=calibration, swap_check_after_s=0.2,
                                     swap_recheck_s=0.5, swap_give_up_s=20.0), opener=lambda: rendered)
    assert wait_for(lambda: side.camera.sees), status.snapshot()
    return side

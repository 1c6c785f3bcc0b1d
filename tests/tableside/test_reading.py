"""The casting reading: a cue on the hub, the rendered table read by the real pipeline, and the
engine or the tablets hearing of it; never a guess."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from companion.cue import Cue
from companion.inputs.simhub import SimHub
from companion.status import StatusBoard
from companion.tableside import TableSide, TableSideConfig
from companion.night_at_the_table.rendered import RenderedTable
from companion.web.table import Table

from .conftest import casts, wait_for

TARGETS = {"Lera": "r1", "Kirill": "r4", "Katya": "r6", "Rosa": "r6"}  # Katya and Rosa contest r6


def by_strength(table: Table, targets: dict[str, str]) -> dict[int, str]:
    wands = table.view()["wands"]
    return {wands[player]: target for player, target in targets.items()}


def test_a_cue_on_the_hub_leads_to_a_reading_and_one_cast_keyed_by_player(
        make_side: Callable[..., TableSide], sim: SimHub, pty_pair, rendered: RenderedTable, calibration: Path,
        table: Table, status: StatusBoard) -> None:
    side = make_side(TableSideConfig(hub=str(pty_pair.host_end), camera="render", calibration=calibration),
                     opener=lambda: rendered)
    assert wait_for(lambda: side.camera.sees and side.hub.link and side.hub.link.connected.is_set()), status.snapshot()
    version = table.view()["version"]
    rendered.point(by_strength(table, TARGETS))
    sim.cue()  # the caller presses the hub's cue button as the wands start to move
    assert wait_for(lambda: side.reader.count >= 1)
    assert side.reader.last.outcome == "cast", side.reader.last
    assert casts(table) == [{"type": "cast", "targets": TARGETS}]
    assert table.view()["version"] == version + 1
    assert table.game.log.events()[-1].action_id.startswith("camera-hub-")


def test_a_wand_the_camera_cannot_see_becomes_a_question_not_an_engine_action(
        seeing_side: TableSide, rendered: RenderedTable, table: Table) -> None:
    version = table.view()["version"]
    lera = table.view()["wands"]["Lera"]
    start = rendered.point(by_strength(table, TARGETS), hidden=[lera])  # a sleeve over Lera's wand
    reading = seeing_side.reader.read(Cue("tablet", start))
    assert reading.outcome == "asked", reading
    assert table.view()["version"] == version and casts(table) == []
    (question,) = table.questions.open()
    assert question["id"] == reading.question_id
    assert list(question["unsure"]) == ["Lera"]
    assert question["why"] == {"Lera": "the camera did not see the tip"}
    assert set(question["unsure"]["Lera"]) == set(table.view()["legal"]["targets"]["Lera"])  # no guess offered
    assert {p: t for p, t in question["action"]["targets"].items() if p != "Lera"} == \
        {p: t for p, t in TARGETS.items() if p != "Lera"}
    # One tap on the tablet and the engine has the whole casting.
    table.answer(question["id"], {"Lera": "r1"}, None)
    assert casts(table) == [{"type": "cast", "targets": TARGETS}]


def test_a_cue_outside_a_casting_reads_nothing(seeing_side: TableSide, table: Table) -> None:
    table.propose({"type": "cast", "targets": {"Lera": "r1", "Kirill": "r4", "Katya": "r6", "Rosa": "r6"}}, None, None)
    kind = table.view()["legal"]["kind"]
    reading = seeing_side.reader.read(Cue("hub", 0.0))
    assert (reading.outcome == "not_casting") == (kind != "cast")


def test_a_casting_entered_on_a_tablet_while_the_camera_reads_wins(seeing_side: TableSide, rendered: RenderedTable,
                                                                   table: Table) -> None:
    tapped = {"Lera": "r0", "Kirill": "r0", "Katya": "r0", "Rosa": "r0"}
    seeing_side.on_cue(Cue("hub", rendered.point(by_strength(table, TARGETS))))
    table.propose({"type": "cast", "targets": tapped}, "tap-1", None)  # while the wands are still moving
    assert wait_for(lambda: seeing_side.reader.count >= 1)
    assert seeing_side.reader.last.outcome == "stale", seeing_side.reader.last
    assert casts(table) == [{"type": "cast", "targets": tapped}]


def test_the_reading_sees_the_table_as_it_was_before_the_cue(seeing_side: TableSide, rendered: RenderedTable,
                                                              table: Table) -> None:
    """The frames of the second before the cue reach the pipeline: a token of a wand's colour there is
    the table, never a tip."""
    start = rendered.point(by_strength(table, TARGETS))
    seeing_side.reader.read(Cue("tablet", start))
    assert seeing_side.camera.pipeline is not None and seeing_side.camera.pipeline.table is not None

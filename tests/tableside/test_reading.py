"""The casting reading: a cue on the hub, the rendered table read by the real pipeline, and the
engine or the tablets hearing of it; never a guess."""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from companion.cue import Cue
from companion.inputs.simhub import SimHub
from companion.status import StatusBoard
from companion.tableside import TableSide, TableSideConfig
from companion.night_at_the_table.rendered import RenderedTable
from companion.web.table import Table

from .conftest import casts, wait_for

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
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
    assert "→" in side.reader.last.message and not re.search(r"\b[rpbs]\d+\b", side.reader.last.message)  # no place ids
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
    asked = table.questions.get(question["id"]).question
    assert dict(asked.seen) == {p: t for p, t in TARGETS.items() if p != "Lera"}
    (wand,) = asked.wands
    assert (wand.player, wand.wand, wand.why) == ("Lera", lera, "unseen")
    assert wand.picture is not None and wand.picture.startswith(b"\x89PNG")  # the table around the places offered
    assert [c.name for c in wand.choices][-1] == "no token"
    assert not any(c.place in c.name for c in wand.choices if c.place)  # named in the game's words, no ids
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


def test_two_wands_between_tokens_are_asked_each_with_its_picture(seeing_side: TableSide, rendered: RenderedTable,
                                                                  table: Table) -> None:
    """Each unsure wand gets the camera's picture of it at the deciding moment, its two candidates
    outlined and named; a second cue joins the open question instead of asking again."""
    import cv2
    import numpy as np

    between = {"Lera": ("r1", "r2"), "Kirill": ("r4", "r5")}
    start = rendered.point(by_strength(table, {**TARGETS, **between}))  # type: ignore[dict-item]
    reading = seeing_side.reader.read(Cue("tablet", start))
    assert reading.outcome == "asked", reading
    asked = table.questions.get(reading.question_id).question
    assert {w.player for w in asked.wands} == set(between)
    for wand in asked.wands:
        offered = {c.place for c in wand.choices if c.place}
        assert offered <= set(between[wand.player]) and offered, (wand.player, offered)
        assert wand.why in ("between", "hidden", "aim")
        picture = cv2.imdecode(np.frombuffer(wand.picture or b"", np.uint8), cv2.IMREAD_COLOR)
        assert picture is not None and picture.shape[:2] == (480, 480)
        # Each candidate's outline is drawn in its own colour, as its button is.
        for choice in wand.choices:
            if choice.outline:
                rgb = bytes.fromhex(choice.outline[1:])
                assert np.any(np.all(picture == (rgb[2], rgb[1], rgb[0]), axis=2)), choice
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / f"question-wand-{wand.wand}.png").write_bytes(wand.picture or b"")
    again = seeing_side.reader.read(Cue("hub", start + 3.0))
    assert (again.outcome, again.question_id) == ("joined", reading.question_id)
    assert len(table.questions.open()) == 1


def test_the_live_table_keeps_its_castings_and_answers_for_vision_read(
        make_side: Callable[..., TableSide], rendered: RenderedTable, calibration: Path, table: Table,
        status: StatusBoard, tmp_path: Path, capsys) -> None:
    """With ``record``, each casting's frames, its cue and how the table settled it are kept in
    ``python -m vision record``'s format; ``python -m vision read`` reads them again and scores the
    reading against the table's answers: the wand the table answered is the camera's "unsure"."""
    import json
    import random

    from vision.__main__ import main as vision_main

    night = tmp_path / "night"
    side = make_side(TableSideConfig(hub="none", camera="render", calibration=calibration, record=night),
                     opener=lambda: rendered)
    assert wait_for(lambda: side.camera.sees), status.snapshot()
    lera = table.view()["wands"]["Lera"]
    first = by_strength(table, TARGETS)
    start = rendered.point(first, hidden=[lera])
    asked = side.reader.read(Cue("tablet", start))
    assert asked.outcome == "asked", asked
    table.answer(asked.question_id, {"Lera": "r1"}, None)  # the table answers on the tablet

    game, rng = table.game, random.Random(4)  # on to the next casting, laid out and held as the game says
    while table.view()["legal"]["kind"] != "cast":
        game.propose(game.rules.random_action(game.state, rng))
    view = table.view()
    rendered.lay_out(list(view["legal"]["tokens"]))
    rendered.hold(view["wands"])
    aims = {p: view["legal"]["targets"][p][i] for i, p in enumerate(view["legal"]["players"])}
    second = side.reader.read(Cue("tablet", rendered.point(by_strength(table, aims))))
    side.reader.close()  # as stopping the table side does

    answers = [json.loads(line) for line in (night / "answers.jsonl").read_text().splitlines()]
    assert second.outcome == "cast", second  # read as seen: the table took it
    assert answers == [{"t": start, "answered": [lera], "wands": {str(w): t for w, t in sorted(first.items())}},
                       {"t": answers[1]["t"], "answered": [], "wands": {str(w): t for w, t in sorted(second.targets.items())}}]
    capsys.readouterr()
    assert vision_main(["read", "--recording", str(night), "--json"]) == 0
    read = json.loads(capsys.readouterr().out)
    assert [c["decided"] for c in read["castings"]] == [True, True]
    assert read["castings"][0]["score"]["wands"][str(lera)] == "unsure"  # not seen, asked: never a guess
    assert read["score"]["wrong"] == 0 and read["score"]["right"] >= 3


def test_the_reading_sees_the_table_as_it_was_before_the_cue(seeing_side: TableSide, rendered: RenderedTable,
                                                              table: Table) -> None:
    """The frames of the second before the cue reach the pipeline: a token of a wand's colour there is
    the table, never a tip."""
    start = rendered.point(by_strength(table, TARGETS))
    seeing_side.reader.read(Cue("tablet", start))
    assert seeing_side.camera.pipeline is not None and seeing_side.camera.pipeline.table is not None

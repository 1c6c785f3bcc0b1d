"""The swap check, the engine proposal, the watch tool and the bench's bookkeeping."""
from __future__ import annotations

from pathlib import Path

import pytest

from vision.__main__ import main as vision_main
from vision.axis import WandAxis
from vision.bench import WandOutcome, by_bins, evaluate, summary
from vision.decide import CastingResult, WandReading
from vision.proposal import cast_proposal
from vision.render.scene import make_scene
from vision.render.source import BadRenderSpec, open_rendered
from vision.swap import SeatPlace, check_swap, seat_of
from vision.table_geometry import TableGeometry

SEATS = [SeatPlace("Lera", 500, 0), SeatPlace("Kirill", 1000, 400), SeatPlace("Katya", 500, 800), SeatPlace("Rosa", 0, 400)]


def test_swap_that_happened_reports_nothing() -> None:
    assert check_swap({4: "Katya", 1: "Lera"}, {4: "Katya", 1: "Lera"}) == []


def test_swap_that_did_not_happen_names_the_wand_and_seat() -> None:
    problems = check_swap({4: "Katya", 1: "Lera", 2: "Rosa"}, {4: "Lera", 1: "Katya", 2: None})
    messages = [p.message for p in problems]
    assert "wand 4 is still at Lera's seat; it should be at Katya's" in messages
    assert any("wand 2 was not seen" in m for m in messages)
    with pytest.raises(ValueError, match=r"\[3\]"):
        check_swap({4: "Katya"}, {3: "Lera"})


def test_seat_of_a_pointing_wand_is_its_holders_seat_or_unknown() -> None:
    told = wrong = 0
    for seed in range(40, 60):
        scene = make_scene(seed, "card")
        geo = TableGeometry(scene.calibration)
        for k, seat in scene.seats.items():
            pose = scene.gestures[k].aims[-1]
            axis = WandAxis(k, scene.camera.project(pose.tip[None])[0], scene.camera.project(pose.point(110)[None])[0], 110, "band")
            got = seat_of(geo, axis, SEATS)
            told += got is not None
            wrong += got is not None and got != seat.name
    assert wrong <= 1 and told >= 60  # of 80 wands
    assert seat_of(geo, WandAxis(1, axis.tip_px, None, 0, "tip"), SEATS) is None


def test_proposal_lists_unsure_wands_for_the_tablet() -> None:
    result = CastingResult({
        4: WandReading(4, "target", "room2", 0.97, "room1", {}),
        2: WandReading(2, "unsure", None, 0.5, "room3", {}, best="room1"),
        1: WandReading(1, "missing", None, 0.0, None, {}),
    }, decided_at=1.0, cue_at=0.0)
    p = cast_proposal(result)
    assert p["type"] == "cast" and p["source"] == "camera"
    assert p["targets"] == {1: None, 2: None, 4: "room2"}
    assert p["unsure"] == [1, 2]
    assert result.as_dicts()[2]["runner_up"] == "room1"


def test_watch_writes_annotated_images_without_a_screen(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    assert vision_main(["watch", "--source", "render:hover:3:1", "--out", str(tmp_path), "--frames", "12"]) == 0
    assert len(list(tmp_path.glob("frame_*.png"))) == 12


def test_watch_refuses_an_uncalibrated_table(tmp_path: Path, capsys) -> None:
    config = tmp_path / "vision.json"
    config.write_text('{"calibration_file": "%s"}' % (tmp_path / "none.json"))
    assert vision_main(["watch", "--source", str(tmp_path), "--config", str(config), "--out", str(tmp_path)]) == 2
    assert "python -m calibration" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["render:", "render:sideways", "render:hover:x", "render:hover:1:2:3"])
def test_bad_render_spec_is_named(spec: str) -> None:
    with pytest.raises(BadRenderSpec, match=repr(spec).replace("[", r"\[")):
        open_rendered(spec)


def test_bench_counts_right_silent_and_bins() -> None:
    found = [WandOutcome(1, "a", "target", "a", 10, 20, 1, "band"), WandOutcome(2, "b", "target", "c", 50, 90, 1, "band"),
             WandOutcome(3, "c", "unsure", None, 50, 90, 1, "tip"), WandOutcome(4, "d", "missing", None, 10, 20, 0, None)]
    s = summary(found)
    assert (s["accuracy"], s["silent_errors"], s["unsure"], s["missing"]) == (0.25, 0.25, 0.25, 0.25)
    bins = by_bins(found, "tip_distance_mm", (0, 30, 60))
    assert bins["0-30"]["accuracy"] == 0.5 and bins["30-60"]["silent_errors"] == 0.5


def test_bench_evaluates_rendered_castings() -> None:
    found = evaluate(range(50, 52), "hover", False)
    assert len(found) == 8
    assert all(o.truth is not None and 0 < o.tip_height_mm <= 42 for o in found)


def test_marker_comparison_reads_both_options_on_the_same_casting() -> None:
    from vision.bench.markers import run_option
    from vision.config import load_config

    scene = make_scene(60, "hover", tips_in_view=True)
    caps, _, caps_seen = run_option(scene, "caps", load_config())
    flags, _, _ = run_option(scene, "aruco", load_config())
    assert caps_seen == 1.0
    assert [o.truth for o in caps] == [o.truth for o in flags]
    assert sum(o.right for o in caps) >= 3


def test_aruco_flag_gives_the_wand_and_its_tip() -> None:
    import dataclasses

    from vision.markers_aruco import FlagFinder

    scene = dataclasses.replace(make_scene(61, "hover"), look="aruco", _background=None)
    frame, truth = scene.render(3)
    found = FlagFinder(TableGeometry(scene.calibration)).find(frame.image)
    assert found, "no flag found in a steady, well-lit frame"
    for k, (axis, _) in found.items():
        assert k in truth.wands
        assert float(((axis.tip_px - truth.wands[k].tip_px) ** 2).sum()) ** 0.5 < 8

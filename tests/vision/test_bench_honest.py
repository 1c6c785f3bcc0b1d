"""The vision bench measures castings as they come: the tip switch with its physics and its night-long
faults, a person's taps on tokens laid by hand, hands over the table before the cue, wands crowding one
token, no casting drawn again, development seeds in the file and held-out seeds from a secret."""
from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest

import vision.bench as bench
from vision.bench.tips import DEAD, OK, STUCK, WEAK, HubTips, SceneTips, axial_force, clicks, table_faults
from vision.decide import TARGET, CastingResult, WandReading
from vision.render.scene import CROWD_REACH_MM, FPS, FrameTruth, WandTruth, make_scene, random_rig
from vision.render.setup_shots import place_taps
from vision.render.table import nominal_places
from vision.touch import SILENT_CASTINGS, SilentSwitches


def _truth(scene, wand: int, lift_mm: float, elevation_deg: float, frame: int = 0, off_mm: float = 0.0) -> FrameTruth:
    """Wand ``wand`` with its bead ``lift_mm`` above resting on its target token, ``off_mm`` from its
    centre."""
    token = scene.layout.token(scene.gestures[wand].target)
    bead = scene.paints[wand].bead_radius_mm
    tip = np.array([token.x_mm + off_mm, token.y_mm, 2.0 + bead + lift_mm])
    w = WandTruth(wand, "Lera", token.id, tip, np.zeros(2), None, False, 1.0, 0.0, float(tip[2]), elevation_deg)
    return FrameTruth(frame / FPS, {wand: w})


def _switch(faults: dict[int, str] | None = None, press_n: float = 2.0, friction: float = 0.2,
            bounce: int = 0) -> tuple[SceneTips, object]:
    scene = make_scene(11, "hover")
    tips = SceneTips(scene, faults)
    tips.press_n[1], tips.friction[1], tips.bounce[1] = press_n, friction, bounce
    return tips, scene


def _reads(tips: SceneTips, scene, frames: list[tuple[float, float]]) -> list[bool | None]:
    out = []
    for i, (lift, elevation) in enumerate(frames):
        tips.see(_truth(scene, 1, lift, elevation, i))
        out.append(tips.touching(1))
    return out


def test_the_switch_feels_only_the_push_along_the_wand() -> None:
    assert axial_force(2.0, 90.0, 0.2) == pytest.approx(2.0)
    assert axial_force(2.0, 0.0, 0.2) == pytest.approx(0.4)  # flat: only the friction's share
    assert not clicks(1.2, 20.0, 0.2)  # a light touch with a flat wand: 0.64 N < 0.98 N
    assert clicks(2.5, 60.0, 0.2)  # a firm touch with a steep one: 2.4 N


def test_a_light_flat_touch_does_not_click_and_a_firm_steep_one_does() -> None:
    light, scene = _switch(press_n=1.2, friction=0.2)
    assert _reads(light, scene, [(0.0, 20.0)] * 6) == [False] * 6
    firm, scene = _switch(press_n=2.5, friction=0.2)
    assert _reads(firm, scene, [(0.0, 60.0)] * 3) == [True] * 3
    assert firm.states() == {1: (True, True)}


def test_a_firm_steep_wand_held_above_the_token_does_not_click() -> None:
    tips, scene = _switch(press_n=3.0)
    assert _reads(tips, scene, [(6.0, 70.0)] * 4) == [False] * 4
    assert tips.states() == {1: (False, False)}


def test_a_bead_on_a_tokens_edge_rests_and_one_beside_it_on_the_table_does_not_hover() -> None:
    tips, scene = _switch(press_n=2.5)
    radius = scene.layout.token(scene.gestures[1].target).radius_mm
    tips.see(_truth(scene, 1, 0.0, 60.0, off_mm=radius + 2.0))  # crowding a token: its centre past the edge
    assert tips.resting(1) and tips.touching(1)
    tips.see(_truth(scene, 1, 8.0, 60.0, off_mm=radius + 2.0))
    assert not tips.resting(1) and not tips.touching(1)


def test_the_switch_closes_up_to_three_frames_late() -> None:
    tips, scene = _switch(press_n=2.5, bounce=3)
    assert _reads(tips, scene, [(0.0, 60.0)] * 5) == [False, False, False, True, True]
    tips, scene = _switch(press_n=2.5, bounce=3)  # a touch broken off restarts the bounce
    assert _reads(tips, scene, [(0.0, 60.0)] * 3 + [(10.0, 60.0)] + [(0.0, 60.0)] * 4)[-1] is True
    assert _reads(tips, scene, [(10.0, 60.0), (0.0, 60.0)]) == [False, False]
    drawn = [SceneTips(make_scene(seed, "hover")).bounce[k] for seed in range(30) for k in (1, 2, 3, 4)]
    assert set(drawn) == {0, 1, 2, 3}


def test_a_dead_switch_never_closes_and_a_stuck_one_never_opens() -> None:
    dead, scene = _switch({1: DEAD}, press_n=3.0)
    assert _reads(dead, scene, [(0.0, 80.0)] * 8) == [False] * 8
    stuck, scene = _switch({1: STUCK})
    assert _reads(stuck, scene, [(40.0, 30.0), (0.0, 10.0), (100.0, 50.0)]) == [True] * 3


def test_a_dead_switch_silent_on_its_token_is_doubted_over_the_night_until_it_clicks() -> None:
    """The bench's hub doubts a switch as the table side does (``vision.touch.SilentSwitches``): after
    three castings read resting on a token with its switch open, it is not known; a click trusts it."""
    silent = SilentSwitches()
    on_token = CastingResult({1: WandReading(1, TARGET, "r1", 1.0, None, {}, "band", "r1")}, 1.0, 0.0)
    answers = []
    for _ in range(SILENT_CASTINGS + 1):
        tips, scene = _switch({1: DEAD}, press_n=3.0)
        hub = HubTips(tips, silent)
        hub.see(_truth(scene, 1, 0.0, 80.0))
        answers.append(hub.touching(1))
        hub.closed(on_token)
    assert answers == [False] * SILENT_CASTINGS + [None]
    tips, scene = _switch(press_n=3.0)  # its cable pushed home: it clicks again
    hub = HubTips(tips, silent)
    hub.see(_truth(scene, 1, 0.0, 80.0))
    assert hub.touching(1) is True and silent.doubted() == {}


def test_a_tired_spring_clicks_lighter_and_reopens_late() -> None:
    tips, scene = _switch({1: WEAK}, press_n=1.2, friction=0.2)  # 0.64 N: too light for a sound switch
    tips.release[1] = 5
    reads = _reads(tips, scene, [(0.0, 20.0)] * 2 + [(30.0, 40.0)] * 7)
    assert reads == [True, True] + [True] * 5 + [False, False]


def test_a_wands_fault_lasts_the_night_at_its_table() -> None:
    assert table_faults(77) == table_faults(77)
    one, other = SceneTips(make_scene(1, "hover"), table_faults(77)), SceneTips(make_scene(2, "hover"), table_faults(77))
    assert one.fault == other.fault
    nights = [f for seed in range(3000) for f in table_faults(seed).values()]
    share = {name: nights.count(name) / len(nights) for name in (OK, DEAD, STUCK, WEAK)}
    assert share[OK] > 0.93 and 0.01 < share[DEAD] < 0.03 and 0.001 < share[STUCK] < 0.01 and 0.01 < share[WEAK] < 0.03


def test_taps_land_three_to_five_pixels_off_tokens_laid_by_hand() -> None:
    rng = np.random.default_rng(5)
    rig = random_rig(rng)
    printed = nominal_places()
    off_mm = [math.hypot(t.x_mm - printed[t.id][0], t.y_mm - printed[t.id][1]) for t in rig.layout.tokens
              if t.id in printed]
    assert max(off_mm) <= 10.0 + 5.0 + 1e-6 and np.mean(off_mm) > 3.0  # laid up to 10 mm off (plus the room's jitter)
    taps = place_taps(rig.camera, rig.layout, printed, rng, wobble_px=(3.0, 5.0))
    for t in rig.layout.tokens:
        seen = rig.camera.project(np.array([[t.x_mm, t.y_mm, 2.0]]))[0]
        assert 3.0 - 0.1 <= math.dist(taps[t.id], seen) <= 5.0 + 0.1


def test_a_casting_whose_tip_is_hidden_is_kept_not_drawn_again() -> None:
    scene = make_scene(0, "hover", motion=True)
    truth = scene.render(scene.frames - 1)[1]
    assert min(w.tip_visible for w in truth.wands.values()) < 0.1  # a fist over a tip, and measured so


def test_hands_held_over_the_table_before_the_cue() -> None:
    held = 0
    for seed in range(20):
        plain, early = make_scene(seed, "hover", motion=True), make_scene(seed, "hover", motion=True, early=1.0)
        assert {k: g.target for k, g in plain.gestures.items()} == {k: g.target for k, g in early.gestures.items()}
        for k, g in early.gestures.items():
            before = g.pose(-3 / FPS).tip
            assert np.allclose(g.pose(2.0).tip, plain.gestures[k].pose(2.0).tip)  # the same after the cue
            near = min(math.hypot(before[0] - t.x_mm, before[1] - t.y_mm) for t in early.layout.tokens)
            held += bool(before[2] < 90 and near < 15)
    assert held >= 20  # every casting has one to four wands over a token before the cue


def test_crowded_castings_put_wands_side_by_side_on_one_token() -> None:
    sizes = []
    for seed in range(12):
        scene = make_scene(seed, "crowded", motion=True)
        targets = [g.target for g in scene.gestures.values()]
        shared = max(set(targets), key=targets.count)
        on = [k for k, g in scene.gestures.items() if g.target == shared]
        sizes.append(len(on))
        token = scene.layout.token(shared)
        for k in on:
            tip = scene.gestures[k].aims[-1].tip
            assert math.hypot(tip[0] - token.x_mm, tip[1] - token.y_mm) <= CROWD_REACH_MM + 1e-6
            for j in on:
                if j < k:
                    gap = np.linalg.norm(tip - scene.gestures[j].aims[-1].tip)
                    assert gap >= scene.paints[k].bead_radius_mm + scene.paints[j].bead_radius_mm
    assert min(sizes) >= 2 and max(sizes) >= 3


def test_the_seed_file_holds_development_seeds_only() -> None:
    seeds = json.loads(bench.SEEDS.read_text())
    assert set(seeds) == {"about", "development"}
    assert not Path(bench.SEEDS).with_name("heldout.json").exists()


def test_wilson_interval() -> None:
    assert bench.wilson(50, 100) == [0.4038, 0.5962]
    lo, hi = bench.wilson(0, 1024)
    assert lo == 0.0 and 0.003 < hi < 0.004
    assert bench.wilson(0, 0) is None


def test_a_heldout_run_draws_its_seed_from_no_file_and_tells_it_after(monkeypatch, capsys) -> None:
    plans: list[bench.Plan] = []

    def tables(plan: bench.Plan) -> list:
        plans.append(plan)
        assert "seed" not in capsys.readouterr().out  # nothing told before the run
        return []

    def no_files(*args, **kwargs):
        raise AssertionError("a held-out run reads no seed file")

    monkeypatch.setattr(bench, "run_tables", tables)
    monkeypatch.setattr(Path, "read_text", no_files)
    monkeypatch.setattr(Path, "read_bytes", no_files)
    assert bench.main(["--heldout", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert bench.main(["--heldout", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    first = plans[0]
    assert report["seed"] == first.secret and report["seeds"] == "held-out" and again["seed"] != report["seed"]
    assert len(first.rigs) >= 16 and len(first.rigs) * first.per_set * 4 >= 1024
    assert first.rigs == bench.Plan.heldout(report["seed"]).rigs  # the told seed gives the run's tables


@pytest.mark.parametrize("argv", [["--bogus"], ["--workers", "0"], ["--workers"], ["--quick", "--heldout"]])
def test_bad_arguments_get_one_line(argv: list[str], capsys) -> None:
    assert bench.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "python -m vision bench" in err


def test_a_quick_run_reports_every_key_of_the_issue(capsys) -> None:
    plan = dataclasses.replace(bench.Plan.development(quick=True), per_set=1, motion=1)
    report = bench.run(plan)
    for name in ("nominal", "hard", "crowded", "natural", "upright", "distance", "confusable"):
        for key in ("accuracy", "silent_errors", "castings_automatic", "unsure", "missing"):
            assert f"{key}_{name}" in report and f"{key}_{name}_ci95" in report
        assert f"accuracy_{name}_camera_alone" in report and f"by_tip_visible_{name}" in report
        assert report[f"wands_{name}"] == 4 and report[f"castings_{name}"] == 1
        assert f"accuracy_{name}" in report["floors"]
        assert "clicked_when_resting" in report["tip_switches"][name]
    for key in ("wand_stage_ms_p50", "pipeline_ms_p50", "mediapipe_ms_p50", "cue_to_decision_ms_p95", "wall_s",
                "accuracy_motion", "silent_errors_motion"):
        assert key in report
    assert set(bench.FLOORS) <= set(report["floors"]) and report["seeds"] == "development" and "seed" not in report
    assert all(set(f) == {"floor", "value", "met"} for f in report["floors"].values())

"""``python -m calibration bench [--json] [--development]``: the table and layout steps and the check
during play, on rendered tables the tool is not told about.

Each table gets vision's renderer's own camera (0.8-1.2 m up, tilted, a distorting lens), its own
tokens laid by hand, and a photo of the default marker sheet drawn by the renderer. The table step
finds the pose from that photo alone (with the camera's intrinsics, which the camera step measures);
a person taps each place with a pixel of wobble; the places are scored against where the tokens
really lie. The check during play then looks at the same view (no alarm wanted) and at views where
the camera was turned by 1 degree or the table pushed by 10 mm (an alarm wanted).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import time
from pathlib import Path

import numpy as np

from calibration.drift import check_markers
from calibration.geometry import pixels_to_table
from calibration.table import DEFAULT_LAYOUT, TableLayout, find_markers, solve_table_pose
from companion.figures import print_figures
from vision.render.camera import RenderCamera, _axis_rotation
from vision.render.scene import random_rig
from vision.render.setup_shots import empty_table, marker_sheet_view, place_taps
from vision.render.table import nominal_places

SEEDS = Path(__file__).parent / "data" / "bench_seeds.json"


@dataclasses.dataclass
class Tally:
    found: int = 0
    tables: int = 0
    place_errors_mm: list[float] = dataclasses.field(default_factory=list)
    table_ms: list[float] = dataclasses.field(default_factory=list)
    false_alarms: int = 0
    turned_seen: int = 0
    pushed_seen: int = 0
    refusals: list[str] = dataclasses.field(default_factory=list)


def photo(camera: RenderCamera, table: np.ndarray, layout: TableLayout, rng: np.random.Generator) -> np.ndarray:
    return marker_sheet_view(camera, table, layout.markers, layout.marker_mm, layout.dictionary, rng)


def turned(camera: RenderCamera, degrees: float) -> RenderCamera:
    """The same camera knocked on its mount: turned about a level axis through its centre."""
    bump = _axis_rotation(np.array([1.0, 0.0, 0.0]), np.radians(degrees))
    return dataclasses.replace(camera, rotation=camera.rotation @ bump.T)


def pushed(camera: RenderCamera, mm: float) -> RenderCamera:
    """The table pushed by ``mm`` along x: as seen from the camera, the camera moved the other way."""
    return dataclasses.replace(camera, centre=camera.centre - np.array([mm, 0.0, 0.0]))


def one_table(seed: int, layout: TableLayout, tally: Tally) -> None:
    rng = np.random.default_rng(seed)
    rig = random_rig(rng)
    table = empty_table(rig.camera, rig.layout, seed)
    intrinsics = rig.camera.calibration().camera
    tally.tables += 1
    started = time.perf_counter()
    try:
        fit = solve_table_pose(find_markers(photo(rig.camera, table, layout, rng), layout.dictionary), layout, intrinsics)
    except ValueError as e:
        tally.refusals.append(f"seed {seed}: {e}")
        return
    tally.table_ms.append((time.perf_counter() - started) * 1000)
    tally.found += 1
    pose = fit.pose
    taps = place_taps(rig.camera, rig.layout, nominal_places(), rng)
    where = pixels_to_table(np.array(list(taps.values())), intrinsics.matrix(), intrinsics.dist_coeffs(),
                            np.array(pose.rvec), np.array(pose.tvec))
    for name, (x, y) in zip(taps, where):
        token = next((t for t in rig.layout.tokens if t.id == name), None)
        truth = (token.x_mm, token.y_mm) if token else nominal_places()[name]
        tally.place_errors_mm.append(float(np.hypot(x - truth[0], y - truth[1])))
    tally.false_alarms += check_markers(photo(rig.camera, table, layout, rng), intrinsics, pose, layout).moved_table
    for camera, seen in ((turned(rig.camera, 1.0), "turned_seen"), (pushed(rig.camera, 10.0), "pushed_seen")):
        moved = empty_table(camera, rig.layout, seed)
        check = check_markers(photo(camera, moved, layout, rng), intrinsics, pose, layout)
        setattr(tally, seen, getattr(tally, seen) + int(check.moved_table))


def run(seeds: list[int]) -> dict[str, object]:
    layout, tally = TableLayout.load(DEFAULT_LAYOUT), Tally()
    for seed in seeds:
        one_table(seed, layout, tally)
    errors = np.array(tally.place_errors_mm or [np.nan])
    return {"tables": tally.tables, "table_found": tally.found,
            "place_error_mm_p50": round(float(np.median(errors)), 2),
            "place_error_mm_p95": round(float(np.percentile(errors, 95)), 2),
            "place_error_mm_max": round(float(errors.max()), 2),
            "moved_false_alarms": tally.false_alarms, "turned_1deg_seen": tally.turned_seen,
            "pushed_10mm_seen": tally.pushed_seen,
            "table_step_ms_p50": round(float(np.median(tally.table_ms)), 1) if tally.table_ms else None,
            "refusals": tally.refusals}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m calibration bench", description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--development", action="store_true", help="the development seeds, not the held-out ones")
    args = parser.parse_args(argv)
    seeds = json.loads(SEEDS.read_text())["development" if args.development else "heldout"]
    print_figures(run(seeds), args.json)
    return 0

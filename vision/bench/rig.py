"""A rendered table set up the way a group sets up theirs: the calibration tool's own commands, run as
a user runs them, on rendered pictures. The pipeline then knows only what the tool wrote (the profile
and the places file), never the renderer's camera, paints or token positions."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.profile import Place, Profile, load_places, load_profile
from vision.render.scene import Rig, random_rig
from vision.render.setup_shots import board_views, empty_table, marker_sheet_view, place_taps
from vision.render.table import nominal_places
from vision.render.wandstep import wand_step_frames

REPO = Path(__file__).resolve().parents[2]
MARKERS = REPO / "calibration" / "data" / "table_markers.json"  # the marker sheet the table step expects
BOARD = "chessboard:9x6:25"
TAP_WOBBLE_PX = (3.0, 5.0)  # how far off the token as seen a finger lands on the preview
RETAKES = 2  # how many more times the chessboard is photographed when the table step refuses the camera


class SetupFailed(RuntimeError):
    """A calibration command refused the rendered pictures (its own words are in the message)."""


@dataclass(frozen=True)
class SetUpTable:
    """A rendered table and what the calibration tool made of it."""

    rig: Rig
    profile: Profile
    places: dict[str, Place]
    seed: int
    retakes: int = 0  # how often the chessboard was photographed again before the table step agreed


def calibrate(args: list[str]) -> str:
    """``python -m calibration ARGS`` as a subprocess; its output, or SetupFailed with its error."""
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-m", "calibration", *args], capture_output=True, text=True, env=env,
                          cwd=REPO, timeout=600)
    if done.returncode != 0:
        raise SetupFailed(f"python -m calibration {args[0]}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def camera_step(rig: Rig, table: np.ndarray, rng: np.random.Generator, folder: Path, profile: Path,
                photos: int) -> None:
    """Photograph the chessboard ``photos`` times and run the camera step on the pictures."""
    for old in folder.glob("board_*.png"):
        old.unlink()
    for i, image in enumerate(board_views(rig.camera, table, rng, count=photos)):
        cv2.imwrite(str(folder / f"board_{i:02d}.png"), image)
    calibrate(["camera", "--profile", str(profile), "--images", str(folder / "board_*.png"), "--board", BOARD])


def set_up(seed: int, folder: Path, near_share: float = 0.25) -> SetUpTable:
    """Render a table, photograph the board, the marker sheet, the places and the wands, and run the
    camera, table, layout and wands steps on those pictures, into ``folder``."""
    rng = np.random.default_rng(seed)
    rig = random_rig(rng, near_share)
    folder.mkdir(parents=True, exist_ok=True)
    profile = folder / "profile.json"
    table = empty_table(rig.camera, rig.layout, seed)
    camera_step(rig, table, rng, folder, profile, photos=14)
    sheet = json.loads(MARKERS.read_text())
    markers = {int(k): (float(v[0]), float(v[1])) for k, v in sheet["markers"].items()}
    photo = marker_sheet_view(rig.camera, table, markers, float(sheet["marker_mm"]), sheet["dictionary"], rng)
    cv2.imwrite(str(folder / "table.png"), photo)
    attempt = 0
    for attempt in range(RETAKES + 1):
        if attempt:
            camera_step(rig, table, rng, folder, profile, photos=14 + 10 * attempt)
        try:
            calibrate(["table", "--profile", str(profile), "--image", str(folder / "table.png")])
            break
        except SetupFailed:
            # The table step refuses a camera calibration its markers disagree with, and says to check
            # it: a group then takes the chessboard photos again, more of them. So does the bench.
            if attempt == RETAKES:
                raise

    (folder / "taps.json").write_text(json.dumps(place_taps(rig.camera, rig.layout, nominal_places(), rng,
                                                                   wobble_px=TAP_WOBBLE_PX)))
    places = folder / "places.json"
    # Given the picture the taps were made on, as the tablet's layout step is, each tap snaps to its token.
    calibrate(["layout", "--profile", str(profile), "--game", "incantibus", "--taps", str(folder / "taps.json"),
               "--places-out", str(places), "--image", str(folder / "table.png")])

    shot = wand_step_frames(seed, rig.camera, rig.paints, rig.layout)
    wands = folder / "wands"
    wands.mkdir(exist_ok=True)
    rows = ["file,t"]
    for i, image in enumerate(shot.frames):
        cv2.imwrite(str(wands / f"wands_{i:02d}.png"), image)
        rows.append(f"wands_{i:02d}.png,{i * 0.5:.2f}")
    (wands / "timestamps.csv").write_text("\n".join(rows) + "\n")
    cv2.imwrite(str(folder / "empty.png"), shot.table)
    calibrate(["wands", "--profile", str(profile), "--source", str(wands), "--empty-table", str(folder / "empty.png")])
    return SetUpTable(rig, load_profile(profile), dict(load_places(places).places), seed, attempt)

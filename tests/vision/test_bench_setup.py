"""The vision bench sets up each table with the calibration tool's own commands, and the pipeline reads
what those commands wrote. This test runs that set-up once, so a change to what the layout or wands
step writes cannot silently break the benchmark."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from vision.bench.rig import set_up
from vision.render.table import nominal_places


def test_a_rendered_table_is_set_up_by_the_calibration_tool(tmp_path: Path) -> None:
    table = set_up(4242, tmp_path / "table")
    assert set(table.places) == set(nominal_places())  # every place of the game, from the layout step's file
    drawn = {t.id: t for t in table.rig.layout.tokens}
    # A token the renderer laid is up to 10 mm off its printed place by hand and tapped 3-5 px off as the
    # preview shows it (5-11 mm at the table); the layout step, given the picture the taps were made
    # on, moves each place onto the token it sees there.
    off = {name: math.dist((place.x_mm, place.y_mm), (drawn[name].x_mm, drawn[name].y_mm))
           for name, place in table.places.items() if name in drawn}
    assert len(off) >= 10 and max(off.values()) < 3.0, off
    assert set(table.profile.wands) == set(table.rig.paints)  # the wand step learned every wand
    taps = json.loads((tmp_path / "table" / "taps.json").read_text())
    for name, token in drawn.items():  # a finger lands 3-5 px off the token as the preview shows it
        seen = table.rig.camera.project(np.array([[token.x_mm, token.y_mm, 2.0]]))[0]
        assert 2.9 <= math.dist(taps[name], seen) <= 5.1

"""A wand read from afar (its tip over no token): kept only when its line, with the tip taken resting
and taken higher than a hover, names no other token. One camera cannot tell how high the tip is."""
from __future__ import annotations

import numpy as np
import pytest

from tests.vision_two_tokens import two_token_pipeline, wand_two
from vision.axis import WandAxis
from vision.decide import TARGET, UNSURE, verdict
from vision.pipeline import Pipeline
from vision.targets import Candidate

# A wand seen by its shaft alone (its band under the fist), its tip 36 mm up at (870, 495), aimed at T
# 115 mm off; o5 lies 50 mm from the tip, a little off the line. The pixels are where the camera saw
# the tip and a point on the shaft, each a pixel or so off the true ones, as a real picture puts them.
SEEN = WandAxis(2, np.array([525.89, 174.65]), np.array([471.8, 185.15]), 0.0, "shaft", 7.116)
TABLE = [Candidate("T", 979.2, 505.8, 15.0), Candidate("o0", 736.9, 455.8, 15.0),
         Candidate("o1", 786.2, 357.1, 15.0), Candidate("o2", 714.1, 363.0, 15.0),
         Candidate("o3", 974.7, 596.8, 15.0), Candidate("o4", 1035.6, 298.2, 15.0),
         Candidate("o5", 919.1, 490.4, 15.0)]


@pytest.fixture
def pipeline(config) -> Pipeline:
    return two_token_pipeline(config)


def test_a_wand_whose_lines_name_another_token_than_its_reading_from_afar_is_asked(pipeline) -> None:
    """The reading from afar, which weighs every tip height together, names o5; the line with the tip
    taken resting names T, where the wand is aimed. The camera cannot tell which: asked, o5 offered."""
    afar = verdict(2, pipeline._from_afar(SEEN, TABLE), pipeline.cfg.decide, "shaft")
    assert (afar.status, afar.target) == (TARGET, "o5")  # what the reading from afar alone said
    rest = pipeline._resting_mm(2)
    assert pipeline._line_names(SEEN, TABLE, rest, rest) == "T"
    for touching in (False, None):
        reading = pipeline.read(SEEN, TABLE, touching)
        assert (reading.status, reading.why, reading.best) == (UNSURE, "aim", "o5"), touching


def test_a_wand_aimed_from_afar_whose_lines_agree_is_read(pipeline) -> None:
    """Held 6-12 cm up and aimed at a token 20 cm off, seen by its band, tokens all round: read."""
    target = Candidate("Y", 700.0, 450.0, 15.0)
    others = [Candidate("X", 640.0, 280.0, 15.0), Candidate("Z", 800.0, 330.0, 15.0)]
    for height in (60.0, 90.0, 120.0):
        reading = pipeline.read(wand_two((700.0, 250.0, height), (target.x_mm, target.y_mm, 0.0)), [target, *others],
                                False)
        assert (reading.status, reading.target) == (TARGET, "Y"), height

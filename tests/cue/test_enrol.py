import numpy as np
import pytest

from companion.cue import CueError
from companion.cue.chorus import CHANT, Take, say
from companion.cue.config import CueConfig
from companion.cue.enrol import cut_takes, enrol_player
from companion.cue.features import SAMPLE_RATE
from companion.cue.microphone import MemorySource


def three_takes(scene) -> np.ndarray:
    gap = np.zeros(SAMPLE_RATE, np.float32)
    parts = [gap]
    for speed, pitch in ((140, 50), (160, 40), (175, 65)):
        parts += [say(Take(CHANT, "en-gb-scotland", speed, pitch), scene.cache), gap]
    audio = np.concatenate(parts)
    return audio + 0.002 * np.random.default_rng(0).standard_normal(len(audio)).astype(np.float32)


def test_takes_are_cut_from_a_live_source_and_counted_as_heard(scene):
    heard = []
    takes = cut_takes(MemorySource(three_takes(scene)), wanted=2, on_take=heard.append)
    assert heard == [1, 2] and len(takes) == 2
    assert all(0.6 < len(t) / SAMPLE_RATE < 2.0 for t in takes)


def test_a_player_needs_two_takes_and_then_joins_the_book(tmp_path, scene):
    config = CueConfig(templates_dir=tmp_path)
    takes = cut_takes(MemorySource(three_takes(scene)))
    with pytest.raises(CueError, match="'Cara'.*1"):
        enrol_player("Cara", takes[:1], config)
    book = enrol_player("Cara", takes, config)
    assert book.players == ["Cara"] and len(book.templates) == 3
    assert book.threshold == pytest.approx(config.threshold_factor * np.median(book.take_distances))

"""The nine-voice tuning figures count the bench's own trials and say why each missed chant was missed."""
from __future__ import annotations

from dataclasses import replace

from companion.cue.bench import Scene
from companion.cue.bench.nine_voices import chants_heard
from companion.cue.config import CueConfig


def test_every_chant_is_counted_and_each_miss_names_the_phrases_near_it(scene: Scene) -> None:
    one = replace(scene, voices=scene.voices[:1], seed=101)
    heard = chants_heard(one, 1, (20.0,), ("stationary",))
    assert (heard.heard, heard.chants, heard.misses) == (1, 1, ())
    # Takes that no phrase can come within: the same chant is missed, and the miss says where the
    # phrase was, what the model made of it and how far the takes were.
    deaf = chants_heard(one, 1, (20.0,), ("stationary",), CueConfig(threshold=0.01, model=False))
    assert (deaf.heard, deaf.chants, len(deaf.misses)) == (0, 1, 1)
    miss = deaf.misses[0]
    assert miss.startswith(f"{one.voices[0]} (") and "stationary 20 dB" in miss
    assert "model off, takes at " in miss and "[" in miss


def test_the_tally_counts_each_room_and_level_and_explains_misses_only_from_the_level_asked(scene: Scene) -> None:
    one = replace(scene, voices=scene.voices[:1], seed=101)
    deaf = CueConfig(threshold=0.01, model=False)
    quiet = chants_heard(one, 1, (20.0,), ("stationary",), deaf, explained_from_db=25.0)
    assert (quiet.heard, quiet.chants, quiet.misses) == (0, 1, ())  # counted, not explained under 25 dB
    assert quiet.by_room == {("stationary", 20.0): (0, 1)}
    assert quiet.rate((20.0,)) == 0.0 and quiet.rate((10.0,)) is None
    assert len(chants_heard(one, 1, (20.0,), ("stationary",), deaf, explained_from_db=20.0).misses) == 1

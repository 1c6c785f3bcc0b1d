import json
import re

import numpy as np
import pytest

from companion.cue import CueError, dtw, templates
from companion.cue.bench.chorus import CHANT, Take, say
from companion.cue.features import FeatureConfig, chant_features


def takes(scene, voice, styles=((140, 50), (160, 45), (175, 55))):
    return [say(Take(CHANT, voice, s, p), scene.cache) for s, p in styles]


def test_enrolled_takes_are_saved_and_read_back(tmp_path, scene):
    book = templates.enrol(tmp_path, "Anna", takes(scene, "en-us"))
    templates.enrol(tmp_path, "Ben", takes(scene, "en+f3"))
    again = templates.load(tmp_path)
    assert again.players == ["Anna", "Ben"]
    assert len(again.templates) == 6 and len(list(tmp_path.glob("*.npz"))) == 6
    assert np.array_equal(again.templates[0].features, book.templates[0].features)
    assert again.templates[0].audio.dtype == np.int16


def test_threshold_is_chosen_from_the_spread_of_each_players_takes(tmp_path, scene):
    book = templates.enrol(tmp_path, "Anna", takes(scene, "en-us"), factor=2.0)
    feats = [t.features for t in book.templates]
    spread = [min(dtw.chant_distance(f, g) for j, g in enumerate(feats) if j != k) for k, f in enumerate(feats)]
    assert book.take_distances == pytest.approx(spread)
    assert book.threshold == pytest.approx(2.0 * np.median(spread))
    assert json.loads((tmp_path / "index.json").read_text())["threshold"] == pytest.approx(book.threshold)


def test_re_enrolling_replaces_only_that_players_takes(tmp_path, scene):
    templates.enrol(tmp_path, "Anna", takes(scene, "en-us"))
    templates.enrol(tmp_path, "Ben", takes(scene, "en+f3"))
    ben_files = {t.file for t in templates.load(tmp_path).templates if t.player == "Ben"}
    book = templates.enrol(tmp_path, "Anna", takes(scene, "en-us", ((150, 50), (170, 50))))
    assert sum(t.player == "Anna" for t in book.templates) == 2
    assert {t.file for t in book.templates if t.player == "Ben"} == ben_files
    assert {p.name for p in tmp_path.glob("*.npz")} == {t.file for t in book.templates}


def test_a_failed_save_leaves_the_old_book_whole(tmp_path, scene, monkeypatch):
    templates.enrol(tmp_path, "Anna", takes(scene, "en-us"))
    before = templates.load(tmp_path)

    def unplugged(*args):
        raise OSError("power cut")

    monkeypatch.setattr(templates, "_write_index", unplugged)
    with pytest.raises(OSError):
        templates.enrol(tmp_path, "Anna", takes(scene, "en+f3"))
    after = templates.load(tmp_path)
    assert [t.file for t in after.templates] == [t.file for t in before.templates]
    assert np.array_equal(after.templates[0].features, before.templates[0].features)


@pytest.mark.parametrize("name", ["", "   ", "x" * 33, "tab\there", 7])
def test_bad_player_names_are_refused_and_nothing_is_written(tmp_path, scene, name):
    with pytest.raises(CueError, match=re.escape(repr(name))):
        templates.enrol(tmp_path, name, takes(scene, "en-us"))
    assert list(tmp_path.iterdir()) == []


def test_a_damaged_or_incomplete_book_is_reported(tmp_path, scene):
    assert templates.load(tmp_path / "none").templates == ()
    book = templates.enrol(tmp_path, "Anna", takes(scene, "en-us"))
    (tmp_path / book.templates[0].file).unlink()
    with pytest.raises(CueError, match=book.templates[0].file):
        templates.load(tmp_path)
    (tmp_path / "index.json").write_text("{not json")
    with pytest.raises(CueError, match="damaged"):
        templates.load(tmp_path)


def test_no_takes_is_an_error(tmp_path):
    with pytest.raises(CueError, match="'Anna'"):
        templates.enrol(tmp_path, "Anna", [])


def test_a_book_from_before_near_misses_still_loads_as_chant_takes(tmp_path, scene):
    templates.enrol(tmp_path, "Anna", takes(scene, "en-us"))
    index = json.loads((tmp_path / "index.json").read_text())
    for entry in index["takes"]:
        del entry["kind"]
    for key in ("near_miss_distances", "warnings"):
        del index[key]
    (tmp_path / "index.json").write_text(json.dumps(index))
    old = templates.load(tmp_path)
    assert len(old.templates) == 3 and old.near_misses == () and old.warnings == ()


def test_near_misses_as_close_as_the_chants_own_takes_are_warned_of(tmp_path, scene):
    chant = takes(scene, "en-gb-scotland")
    # A near miss that is really the chant again: nothing can separate the two, and enrolment says so.
    book = templates.enrol(tmp_path, "Cara", chant, near_misses=[say(Take(CHANT, "en-gb-scotland", 150, 50), scene.cache)])
    assert len(book.warnings) == 1 and "'Cara''s near miss" in book.warnings[0]
    assert book.threshold <= book.near_miss_distances[0] or book.threshold <= max(book.take_distances)
    with pytest.raises(CueError, match="'sometimes'"):
        index = json.loads((tmp_path / "index.json").read_text())
        index["takes"][0]["kind"] = "sometimes"
        (tmp_path / "index.json").write_text(json.dumps(index))
        templates.load(tmp_path)


def test_widened_takes_are_the_takes_then_each_take_at_each_warp(tmp_path, scene):
    book = templates.enrol(tmp_path, "Anna", takes(scene, "en-us"))
    wide = templates.widened(book.templates, book.feature_config, (0.9, 1.0, 1.1))
    assert len(wide) == 3 * len(book.templates)  # 1.0 is the take itself, not a copy
    assert all(a is b for a, b in zip(wide, book.templates))
    first_warped = wide[len(book.templates)]
    assert (first_warped.player, first_warped.file, first_warped.kind) == ("Anna", book.templates[0].file, "chant")
    assert np.array_equal(first_warped.features, chant_features(book.templates[0].audio, book.feature_config, 0.9))


@pytest.mark.parametrize("setting", ["declick", "damp_rings"])
def test_a_book_enrolled_before_a_feature_setting_existed_reads_phrases_without_it(tmp_path, scene, setting):
    """A book's stored takes were read with its feature settings: one from before a setting (the click
    bridge, the ring damping: no such key in its index) goes on reading phrases without it, and a new
    book with it."""
    chants = takes(scene, "en-us")
    assert getattr(templates.enrol(tmp_path / "new", "Anna", chants).feature_config, setting)
    assert getattr(templates.load(tmp_path / "new").feature_config, setting)
    without = FeatureConfig(**{setting: False})
    templates.enrol(tmp_path / "old", "Anna", chants, config=without)
    index = json.loads((tmp_path / "old" / "index.json").read_text())
    del index["feature_config"][setting]
    (tmp_path / "old" / "index.json").write_text(json.dumps(index))
    assert templates.load(tmp_path / "old").feature_config == without

"""The chant finder: it is in the package, reads a phrase at its own pace in windows ending every
50 ms, refuses a damaged file in one line, and as one more way a phrase can be heard (``chant_finder``)
hears a chant glued to talk over babble that the chant model rules out."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.cue import CueError, finder
from companion.cue.config import CueConfig, from_dict
from companion.cue.features import SAMPLE_RATE


def test_the_shipped_finder_loads_from_the_package_and_is_small() -> None:
    package = Path(finder.__file__).parent
    assert finder.SHIPPED.is_relative_to(package) and finder.SHIPPED.stat().st_size < 1_000_000
    loaded = finder.load()
    assert loaded.w1.shape[0] == finder.WINDOW_FRAMES // finder.POOL * finder.MEL.n_mels
    windows = loaded.windows(np.zeros(3 * SAMPLE_RATE, np.float32) + 1e-4)
    assert all(0.0 <= p <= 1.0 for _, _, p in windows)


def test_windows_slide_every_50_ms_and_a_short_phrase_ends_where_its_one_window_ends() -> None:
    rng = np.random.default_rng(1)
    frames = rng.standard_normal((300, finder.MEL.n_mels))
    starts, rows = finder.window_rows(frames)
    assert list(starts[:3]) == [0, finder.HOP_FRAMES, 2 * finder.HOP_FRAMES]
    assert starts[-1] == 300 - finder.WINDOW_FRAMES  # the phrase's last frames are always read
    assert rows.shape == (len(starts), finder.WINDOW_FRAMES // finder.POOL * finder.MEL.n_mels)
    # Each window normalised on its own: a louder stretch elsewhere does not change it.
    louder = frames.copy()
    louder[200:] += 5.0
    assert np.allclose(finder.window_rows(louder)[1][0], rows[0], atol=1e-5)
    short_starts, short_rows = finder.window_rows(frames[:50])
    assert list(short_starts) == [50 - finder.WINDOW_FRAMES] and len(short_rows) == 1


def test_a_damaged_or_foreign_finder_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    with pytest.raises(CueError, match="chant finder .*bad.npz.* is damaged") as damaged:
        finder.load(tmp_path / "bad.npz")
    assert "\n" not in str(damaged.value)
    with pytest.raises(CueError, match="no chant finder at .*missing.npz.*companion.cue.train.finder"):
        finder.load(tmp_path / "missing.npz")
    np.savez(tmp_path / "other.npz", window_frames=100, pool=2, n_mels=32)
    with pytest.raises(CueError, match="windows of 100 frames"):
        finder.load(tmp_path / "other.npz")
    shipped = finder.load()
    shipped.save(tmp_path / "copy.npz")
    with np.load(tmp_path / "copy.npz") as data:
        cut = {k: data[k] for k in data.files}
    cut["w1"] = cut["w1"][:-5]
    np.savez(tmp_path / "cut.npz", **cut)
    with pytest.raises(CueError, match="cut.npz.* is damaged: its weights do not fit") as short:
        finder.load(tmp_path / "cut.npz")
    assert "\n" not in str(short.value)
    assert finder.load(tmp_path / "copy.npz").b2 == pytest.approx(shipped.b2)


def test_the_finder_setting_is_off_by_default_and_validated() -> None:
    assert CueConfig().chant_finder is False
    assert from_dict({"chant_finder": True, "finder_threshold": 0.6}).finder_threshold == 0.6
    with pytest.raises(CueError, match="chant_finder"):
        from_dict({"chant_finder": "yes"})
    with pytest.raises(CueError, match="finder_threshold"):
        from_dict({"finder_threshold": 1.5})


def glued_in_babble(scene, chatter, voice: str, speed: int, pitch: int, seed: int) -> tuple[np.ndarray, float]:
    """The chant with someone's talk a breath before it and someone else's a breath after it, each
    2 dB under the caller, in babble 10 dB under the chant; and where the chant ends (s)."""
    from companion.cue.bench import room_noise
    from companion.cue.bench.chorus import CHANT, Take, say
    from companion.cue.bench.table_noise import mix_at, speech_power, spoken_span

    chant = say(Take(CHANT, voice, speed, pitch), scene.cache)
    before = say(Take("Pass the crisps, please.", "en-gb-scotland", 170), scene.cache)
    after = say(Take("Who's keeping score?", "en-029+f5", 170), scene.cache)
    level = 0.8 * np.sqrt(speech_power(chant))
    first, last = spoken_span(chant, -30.0)
    said = chant[int(first * SAMPLE_RATE) : int(last * SAMPLE_RATE) + 1600]
    talk_before = before[: int(spoken_span(before, -30.0)[1] * SAMPLE_RATE)] * (level / np.sqrt(speech_power(before)))
    talk_after = after[int(spoken_span(after, -30.0)[0] * SAMPLE_RATE) :] * (level / np.sqrt(speech_power(after)))
    breath = np.zeros(int(0.12 * SAMPLE_RATE), np.float32)
    speech = np.concatenate([talk_before, breath, said, breath, talk_after]).astype(np.float32)
    rng = np.random.default_rng(seed)
    mix = mix_at(room_noise("babble", len(speech) + 2 * SAMPLE_RATE, chatter, rng), speech, SAMPLE_RATE, 10.0)
    return mix, 1.0 + (len(talk_before) + len(breath)) / SAMPLE_RATE + spoken_span(said, -40.0)[1]


def test_a_chant_glued_to_talk_in_babble_is_heard_by_the_finder_where_the_model_rules_it_out(scene, book, chatter) -> None:
    from companion.cue.bench import listen
    from companion.cue.detector import ChantDetector

    mix, truth = glued_in_babble(scene, chatter, "en-us", 120, 40, 1)
    without = [c for c in listen(ChantDetector(book), mix, 0.0) if abs(c.t_end - truth) <= 0.3]
    assert without == []  # the chant model rules out every cut of it
    heard = listen(ChantDetector(book, CueConfig(chant_finder=True)), mix, 0.0)
    assert [c.player for c in heard] == ["en-us"]
    assert heard[0].t_end == pytest.approx(truth, abs=0.1)
    assert heard[0].distance <= 1.6 * book.threshold

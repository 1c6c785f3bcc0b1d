"""The shipped chant model: it is in the package, loads with no network, and hears the chant as
more like the chant than the words most like it."""
from __future__ import annotations

import socket
from pathlib import Path

import numpy as np
import pytest

from companion.cue import CueError, model
from companion.cue.bench.chorus import CHANT, Take, say
from companion.cue.bench.table_noise import mix_at, pink_noise, spoken_span
from companion.cue.features import SAMPLE_RATE


def test_the_shipped_model_loads_from_the_package_with_no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("the chant model reached for the network")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    package = Path(model.__file__).parent
    assert model.SHIPPED.is_relative_to(package) and model.SHIPPED.stat().st_size < 1_000_000
    loaded = model.load()
    assert loaded.w1.shape == (model.FRAMES * model.MEL.n_mels + 1, loaded.w1.shape[1])
    assert 0.0 <= loaded.score(np.zeros(SAMPLE_RATE, np.float32) + 1e-4) <= 1.0
    pyproject = (package.parents[1] / "pyproject.toml").read_text()
    assert "cue/data/*.npz" in pyproject  # installed with the package, not fetched


@pytest.mark.parametrize("voice", ["en-us", "en-gb-scotland", "en+f3"])
def test_the_model_scores_a_chant_above_its_near_misses(scene, voice: str) -> None:
    rng = np.random.default_rng(4)
    shipped = model.shipped()

    def heard(text: str) -> float:
        clean = say(Take(text, voice, 160, 45), scene.cache)
        room = pink_noise(len(clean) + SAMPLE_RATE, rng)
        return shipped.score(mix_at(room, clean, SAMPLE_RATE // 2, 20.0))

    chant = heard(CHANT)
    assert chant > 0.5
    for near in ("Incantation", "Can't go", "Toronto", "In Cancun"):
        assert heard(near) < chant, near


def test_a_damaged_or_foreign_model_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    with pytest.raises(CueError, match="bad.npz"):
        model.load(tmp_path / "bad.npz")
    with pytest.raises(CueError, match="no chant model at .*missing.npz.*companion.cue.train"):
        model.load(tmp_path / "missing.npz")
    np.savez(tmp_path / "other.npz", frames=20, n_mels=13)
    with pytest.raises(CueError, match="20 frames of 13 bands"):
        model.load(tmp_path / "other.npz")


def test_sliding_windows_find_the_chant_in_a_long_phrase_and_score_as_phrases_do(scene) -> None:
    """A window is scored exactly as the same stretch cut as a phrase of its own, and the
    likeliest window over chatter, the chant and chatter again lies on the chant."""
    rng = np.random.default_rng(5)
    shipped = model.shipped()
    before = say(Take("Where's the little blue cube?", "en-gb-scotland", 170), scene.cache)
    chant = say(Take(CHANT, "en-us", 150, 50), scene.cache)
    after = say(Take("Pass the crisps, please.", "en+f3", 170), scene.cache)
    speech = np.concatenate([before, chant, after])
    audio = mix_at(pink_noise(len(speech) + SAMPLE_RATE, rng), speech, SAMPLE_RATE // 2, 25.0)
    first, last = spoken_span(chant)
    length = round((last - first + 0.2) * SAMPLE_RATE)  # the chant's speech and a margin either side
    found = shipped.windows(audio, [length], 800)
    assert len(found) == 1 + (len(audio) - length) // 800  # every 800 samples (every 5 frames)
    a, b, p = found[0]
    assert p == pytest.approx(shipped.score(audio[a:b]), abs=1e-3)
    start, end = (SAMPLE_RATE // 2 + len(before) + round(t * SAMPLE_RATE) for t in (first, last))
    assert min(b, end) - max(a, start) >= 0.9 * (end - start)  # on the chant
    assert p > 0.5
    assert all(q < 0.5 for c, d, q in found if min(d, end) - max(c, start) <= 0)  # the chatter is not


def test_a_model_reads_phrases_as_it_was_trained_to_with_clicks_bridged_or_not(scene, tmp_path: Path) -> None:
    """A model trained on bridged phrases says so in its file and bridges every phrase and window
    it reads; a file without the key (trained before the bridge) reads phrases as they come."""
    shipped = model.shipped()
    # Mel powers of three syllables over a quiet room, and the same with a die's click (two frames
    # 20 dB over the loudest syllable in every band) in the middle syllable.
    t = np.arange(90)[:, None]
    syllables = sum(np.exp(-(((t - c) / 6.0) ** 2)) for c in (25, 45, 65)) * np.linspace(1.0, 0.2, model.MEL.n_mels)
    power = 1e-4 + syllables
    clicked = power.copy()
    clicked[44:46] = 100.0
    moved = {d: np.abs(model.power_vector(clicked, d) - model.power_vector(power, d)).mean() for d in (False, True)}
    assert moved[True] < 0.25 * moved[False]  # bridged, the click barely moves what the model sees

    rng = np.random.default_rng(6)
    chant = say(Take(CHANT, "en-us", 150, 50), scene.cache)
    audio = mix_at(pink_noise(len(chant) + SAMPLE_RATE, rng), chant, SAMPLE_RATE // 2, 25.0)
    for declick in (False, True):
        written = model.ChantModel(shipped.mean, shipped.scale, shipped.w1, shipped.b1, shipped.w2, shipped.b2, declick)
        written.save(tmp_path / f"m{declick}.npz")
        read = model.load(tmp_path / f"m{declick}.npz")
        assert read.declick is declick
        vector = model.phrase_vector(audio, declick)[None, :]
        assert read.score(audio) == pytest.approx(float(1.0 / (1.0 + np.exp(-read.logits(vector)[0]))), abs=1e-6)
        a, b, p = read.windows(audio, [len(chant)], 800)[0]
        assert p == pytest.approx(read.score(audio[a:b]), abs=1e-3)  # a window is read as a phrase cut there
    with np.load(tmp_path / "mFalse.npz") as data:
        np.savez(tmp_path / "before.npz", **{k: data[k] for k in data.files if k != "declick"})
    assert model.load(tmp_path / "before.npz").declick is False

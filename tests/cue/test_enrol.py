import numpy as np
import pytest

from companion.cue import CueError, templates
from companion.cue.audio import write_wav
from companion.cue.bench.chorus import CHANT, Take, say
from companion.cue.bench.table_noise import pink_noise, spoken_span
from companion.cue.config import CueConfig
from companion.cue.enrol import NEAR_MISS_PROMPTS, cut_takes, enrol_player, spoken_seconds, takes_from_wavs
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


STYLES = ((150, 50), (125, 38), (178, 64), (155, 45))


def roomy(take: np.ndarray) -> np.ndarray:
    """A take recorded with a quarter second of quiet either side."""
    quiet = np.zeros(4000, np.float32)
    return np.concatenate([quiet, take, quiet])


def trimmed(audio: np.ndarray, floor_db: float = -40.0) -> np.ndarray:
    """What an editor's "trim silence" leaves: from the first to the last 10 ms within 40 dB of the peak."""
    start, end = spoken_span(audio, floor_db)
    return audio[int(start * SAMPLE_RATE) : int(end * SAMPLE_RATE)]


def test_tightly_trimmed_wavs_enrol_whole_takes(tmp_path, scene):
    clean = [say(Take(CHANT, "en-gb-scotland", s, p), scene.cache) for s, p in STYLES]
    paths = []
    for k, take in enumerate(clean):
        write_wav(tmp_path / f"take{k}.wav", trimmed(take))
        paths.append(tmp_path / f"take{k}.wav")
    takes = takes_from_wavs(paths)
    assert len(takes) == len(clean)
    for take, whole in zip(takes, clean):
        # The whole chant is kept: nothing of its first syllable is lost to the cutter's warm-up.
        assert len(take) >= len(trimmed(whole)) and spoken_seconds(take) >= spoken_seconds(trimmed(whole)) - 0.02
    tight = enrol_player("Cara", takes, CueConfig(templates_dir=tmp_path / "tight"))
    roomy = enrol_player("Cara", cut_takes(MemorySource(three_takes(scene))), CueConfig(templates_dir=tmp_path / "roomy"))
    assert tight.threshold < 1.5 * roomy.threshold  # the bar is not loosened by chopped takes


@pytest.mark.parametrize("spoil,reason", [
    (lambda a: a[int((spoken_span(a)[0] + 0.06) * SAMPLE_RATE):], "starts in the middle of a word|unlike the others"),
    (lambda a: roomy(np.clip(a * 40.0, -1.0, 1.0)), "clipped"),
    (lambda a: roomy(a * 0.004), "too quiet"),
    (lambda a: roomy(a[: int(0.2 * SAMPLE_RATE)]), "too short"),
])
def test_a_spoiled_take_is_refused_with_its_reason_and_nothing_saved(tmp_path, scene, spoil, reason):
    clean = [say(Take(CHANT, "en-us", s, p), scene.cache) for s, p in STYLES[:3]]
    for k, take in enumerate(clean):
        write_wav(tmp_path / f"take{k}.wav", spoil(take) if k == 1 else roomy(take))
    with pytest.raises(CueError, match=rf"(take1.wav'.*|take 2 )({reason})"):
        enrol_player("Dan", takes_from_wavs(sorted(tmp_path.glob("take*.wav"))), CueConfig(templates_dir=tmp_path / "book"))
    assert not (tmp_path / "book").exists()


def test_takes_from_the_microphone_are_checked_too(tmp_path, scene):
    takes = cut_takes(MemorySource(three_takes(scene)))
    with pytest.raises(CueError, match="take 2: clipped.*record again"):
        enrol_player("Eve", [takes[0], np.clip(takes[1] * 50, -1, 1), takes[2]], CueConfig(templates_dir=tmp_path))


def test_near_misses_are_kept_beside_the_chant_and_bound_the_threshold(tmp_path, scene):
    takes = [say(Take(CHANT, "en-us", s, p), scene.cache) for s, p in STYLES]
    near = [say(Take(text, "en-us"), scene.cache) for text in NEAR_MISS_PROMPTS]
    book = enrol_player("Finn", takes, CueConfig(templates_dir=tmp_path), near)
    assert len(book.templates) == 4 and len(book.near_misses) == 3
    assert {t.kind for t in book.near_misses} == {"near_miss"}
    assert book.threshold <= min(book.near_miss_distances)
    again = templates.load(tmp_path)
    assert len(again.near_misses) == 3 and again.near_miss_distances == pytest.approx(book.near_miss_distances)


def in_the_room(take: np.ndarray, rng: np.random.Generator, room_db: float, breath: bool = False) -> np.ndarray:
    """A good take as a phone or a laptop records it: a second of the room's own hiss before and
    after (``room_db`` dBFS), the chant peaking at -6 dBFS, and with ``breath`` an in-breath
    (a soft hiss, 30 dB under the chant) half a second after it."""
    second = SAMPLE_RATE
    audio = pink_noise(len(take) + 2 * second, rng) * 10 ** (room_db / 20)
    audio[second : second + len(take)] += take * (0.5 / np.max(np.abs(take)))
    if breath:
        at = second + len(take) + second // 2
        hiss = rng.standard_normal(second // 3) * np.hanning(second // 3) * 0.5 * 10 ** (-30 / 20)
        audio[at : at + len(hiss)] += hiss.astype(np.float32)[: len(audio) - at]
    return audio.astype(np.float32)


@pytest.mark.parametrize("room_db,breath", [(-60.0, False), (-50.0, False), (-55.0, True)])
def test_a_good_take_padded_with_a_second_of_room_noise_is_one_take(tmp_path, scene, room_db, breath):
    rng = np.random.default_rng(5)
    clean = [say(Take(CHANT, "en-gb-scotland", s, p), scene.cache) for s, p in STYLES]
    paths = []
    for k, take in enumerate(clean):
        paths.append(tmp_path / f"lera-{k + 1}.wav")
        write_wav(paths[-1], in_the_room(take, rng, room_db, breath))
    takes = takes_from_wavs(paths)
    assert len(takes) == len(clean)  # one file, one take: the room and the breath are not takes
    for take, whole in zip(takes, clean):
        assert spoken_seconds(take) >= spoken_seconds(trimmed(whole)) - 0.05
        assert len(take) < len(whole) + SAMPLE_RATE  # the take is the chant, not the whole second of room
    book = enrol_player("Lera", takes, CueConfig(templates_dir=tmp_path / "book"))
    assert book.players == ["Lera"] and len(book.templates) == len(clean)


def test_a_file_of_clearly_separate_chants_is_several_takes_and_a_refusal_names_file_and_take(tmp_path, scene):
    rng = np.random.default_rng(6)
    good = three_takes(scene)
    write_wav(tmp_path / "three.wav", good)
    assert len(takes_from_wavs([tmp_path / "three.wav"])) == 3
    gap = np.zeros(SAMPLE_RATE, np.float32)
    chants = [say(Take(CHANT, "en-gb-scotland", s, p), scene.cache) for s, p in STYLES[:3]]
    chants[1] = np.clip(chants[1] * 60.0, -1.0, 1.0)
    spoilt = np.concatenate([gap, chants[0], gap, chants[1], gap, chants[2], gap])
    write_wav(tmp_path / "lera-clipped.wav", spoilt + 0.002 * rng.standard_normal(len(spoilt)).astype(np.float32))
    with pytest.raises(CueError, match=r"'[^']*lera-clipped.wav', take 2 of 3 \(.*s\): clipped"):
        takes_from_wavs([tmp_path / "three.wav", tmp_path / "lera-clipped.wav"])

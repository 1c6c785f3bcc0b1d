"""The detector on synthetic players: their own chant at other speeds and pitches over table noise
is heard, at the right moment and with the right player; other phrases and table talk are not."""
import numpy as np
import pytest

from companion.cue.bench import chant_in_noise, false_triggers, listen
from companion.cue.chorus import CHANT, Take, say
from companion.cue.config import CueConfig
from companion.cue.detector import ChantDetector
from companion.cue.features import SAMPLE_RATE
from companion.cue.table_noise import mix_at, table_noise

HELD_OUT = [(115, 35), (205, 65)]


@pytest.mark.parametrize("speed,pitch", HELD_OUT)
@pytest.mark.parametrize("snr_db", [25.0, 20.0])
def test_players_own_chant_is_heard_when_it_ends(scene, book, chatter, speed, pitch, snr_db):
    rng = np.random.default_rng(speed + int(snr_db))
    for voice in scene.voices:
        mix, truth = chant_in_noise(scene, Take(CHANT, voice, speed, pitch), snr_db, chatter, rng)
        cues = listen(ChantDetector(book), mix, t0=1000.0)
        assert len(cues) == 1, (voice, cues)
        assert cues[0].source == "microphone" and cues[0].player == voice
        assert cues[0].t_end - 1000.0 == pytest.approx(truth, abs=0.1)
        assert cues[0].distance <= book.threshold


@pytest.mark.parametrize("text", ["Incantatum", "Toronto", "Let us go", "In a can", "Canto", "Income tax"])
def test_near_misses_by_the_same_players_are_not_the_chant(scene, book, chatter, text):
    rng = np.random.default_rng(len(text))
    for voice in scene.voices:
        for speed in (140, 175):
            phrase = say(Take(text, voice, speed), scene.cache)
            quiet = mix_at(table_noise(len(phrase) + 3 * SAMPLE_RATE, chatter, rng), phrase, SAMPLE_RATE, 25.0)
            assert listen(ChantDetector(book), quiet, 0.0) == [], (text, voice, speed)


def test_two_minutes_of_table_talk_give_no_cue(scene, book):
    talk = false_triggers(scene, book, CueConfig(), seconds=120.0)
    assert talk.hours == pytest.approx(120.0 / 3600.0, rel=0.01)
    assert talk.phrases > 30  # the talk was heard and matched...
    assert talk.false_triggers == 0  # ...and none of it was taken for the chant


def test_cue_carries_when_the_chant_ended_not_when_it_was_decided(scene, book, chatter):
    rng = np.random.default_rng(11)
    mix, truth = chant_in_noise(scene, Take(CHANT, scene.voices[0], 150, 60), 25.0, chatter, rng)
    detector, decided_at = ChantDetector(book), []
    heard = []
    detector.when_cue = heard.append
    for start in range(0, len(mix), 512):
        if detector.hear(mix[start : start + 512], start / SAMPLE_RATE):
            decided_at.append((start + 512) / SAMPLE_RATE)
    assert len(heard) == 1 and heard[0].t_end == pytest.approx(truth, abs=0.06)
    # The phrase is only closed after the hangover, so the decision comes later than the end.
    assert decided_at[0] > heard[0].t_end + 0.2


def test_a_strict_threshold_from_config_overrides_the_enrolled_one(scene, book, chatter):
    rng = np.random.default_rng(12)
    mix, _ = chant_in_noise(scene, Take(CHANT, scene.voices[1], 150, 50), 25.0, chatter, rng)
    assert len(listen(ChantDetector(book), mix, 0.0)) == 1
    assert listen(ChantDetector(book, CueConfig(threshold=0.01)), mix, 0.0) == []

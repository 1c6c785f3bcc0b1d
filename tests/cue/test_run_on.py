"""A phrase opened early by a rattle of dice is begun again where the chant starts, and is heard."""
from __future__ import annotations

import numpy as np

from companion.cue.bench import listen
from companion.cue.bench.chorus import CHANT, Take, say
from companion.cue.bench.table_noise import dice_rattle, mix_at, pink_noise, spoken_span
from companion.cue.config import VoiceActivityConfig
from companion.cue.detector import ChantDetector, Verdict
from companion.cue.features import SAMPLE_RATE
from companion.cue.phrases import PhraseCutter
from companion.cue.run_on import later_starts, room_after


def rattled_chant(scene, voice: str) -> tuple[np.ndarray, float, float]:
    """A quiet room, dice thrown 0.4 s before the chant starts (louder than it) and rattling into it."""
    rng = np.random.default_rng(8)
    clean = say(Take(CHANT, voice, 150, 50), scene.cache)
    start, _ = spoken_span(clean)
    at = 2 * SAMPLE_RATE
    room = pink_noise(at + len(clean) + SAMPLE_RATE, rng) * 0.01
    dice = np.zeros_like(room)
    while not np.any(dice):
        dice = dice_rattle(int(0.5 * SAMPLE_RATE), rng, rattles_per_minute=300.0)
    rattle_at = at + int((start - 0.4) * SAMPLE_RATE)
    room[rattle_at : rattle_at + len(dice)] += dice * 1.5 * np.max(np.abs(clean)) / np.max(np.abs(dice))
    _, end = spoken_span(clean, -40.0)
    return mix_at(room, clean, at, 20.0), at / SAMPLE_RATE + start, at / SAMPLE_RATE + end


def test_a_phrase_is_begun_again_at_its_dips(scene):
    mix, chant_start, _ = rattled_chant(scene, "en-us")
    cutter = PhraseCutter()
    phrases = [p for p in cutter.feed(mix, 0.0) + cutter.flush() if p.t_end > chant_start]
    (phrase,) = phrases
    starts = [p.t_start + 0.1 for p in later_starts(phrase, 0.3, VoiceActivityConfig())]
    assert all(phrase.t_start < s < phrase.t_end - 0.3 for s in starts)
    assert all(len(p.audio) < len(phrase.audio) for p in later_starts(phrase, 0.3, VoiceActivityConfig()))


def test_a_chant_after_a_rattle_of_dice_is_heard_when_it_ends(scene, book):
    for voice in scene.voices:
        mix, _, end = rattled_chant(scene, voice)
        cues = listen(ChantDetector(book), mix, 0.0)
        assert [c.player for c in cues] == [voice]
        assert abs(cues[0].t_end - end) < 0.1


def _burst_then_talker(talker_at: float | None) -> np.ndarray:
    """Quiet room, a loud vowel 1.0-1.8 s, and (at ``talker_at``) someone else 20 dB under it."""
    rng = np.random.default_rng(3)
    audio = 0.003 * rng.standard_normal(4 * SAMPLE_RATE)
    t = np.arange(len(audio)) / SAMPLE_RATE
    loud = (t >= 1.0) & (t < 1.8)
    audio[loud] += 0.3 * np.sin(2 * np.pi * 220 * t[loud]) + 0.1 * np.sin(2 * np.pi * 1200 * t[loud])
    if talker_at is not None:
        later = (t >= talker_at) & (t < talker_at + 0.6)
        audio[later] += 0.03 * np.sin(2 * np.pi * 180 * t[later])
    return audio.astype(np.float32)


def _first_phrase(audio: np.ndarray):
    cutter = PhraseCutter()
    return (cutter.feed(audio, 0.0) + cutter.flush())[0]


def test_the_room_after_a_phrase_ends_where_the_next_talker_comes_back():
    phrase = _first_phrase(_burst_then_talker(1.86))
    assert abs(phrase.t_end - 1.8) < 0.011 and abs(phrase.t_start + len(phrase.audio) / SAMPLE_RATE - 1.9) < 0.011
    alone = room_after(phrase, VoiceActivityConfig())
    assert alone is not None and (alone.t_start, alone.t_end) == (phrase.t_start, phrase.t_end)
    assert abs(alone.t_start + len(alone.audio) / SAMPLE_RATE - 1.86) < 0.011
    assert room_after(_first_phrase(_burst_then_talker(None)), VoiceActivityConfig()) is None  # the room alone


def test_a_phrase_the_model_rules_out_with_the_next_talker_in_its_margin_is_judged_without_it(book, monkeypatch):
    """The model reads the returning talker as the chant's speech (as it did en-us's quick chant in
    babble on the quick dev bench); without it the same takes and near-miss margin judge the phrase."""
    detector = ChantDetector(book)
    phrase = _first_phrase(_burst_then_talker(1.86))
    judged = []

    def judge(candidate, overrule=False):
        judged.append(len(candidate.audio))
        return Verdict(candidate, "en-us", 1.0, len(candidate.audio) < len(phrase.audio), score=0.9)

    monkeypatch.setattr(detector, "judge", judge)
    verdict = detector.judge_run_on(phrase)
    assert verdict.is_chant and len(verdict.phrase.audio) < len(phrase.audio) and verdict.phrase.t_end == phrase.t_end
    assert judged[0] == len(phrase.audio)  # the phrase as cut is judged first

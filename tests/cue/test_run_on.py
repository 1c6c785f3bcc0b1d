"""A phrase opened early by a rattle of dice is begun again where the chant starts, and is heard."""
from __future__ import annotations

import numpy as np

from companion.cue.bench import listen
from companion.cue.bench.chorus import CHANT, Take, say
from companion.cue.bench.table_noise import dice_rattle, mix_at, pink_noise, spoken_span
from companion.cue.config import VoiceActivityConfig
from companion.cue.detector import ChantDetector
from companion.cue.features import SAMPLE_RATE
from companion.cue.phrases import PhraseCutter
from companion.cue.run_on import later_starts


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

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cue.phrases import PhraseCutter

RATE = 16_000


def scene(bursts: list[tuple[float, float]], seconds: float = 4.0, seed: int = 0) -> np.ndarray:
    """Quiet room noise with loud vowel-like bursts at (start, end) seconds."""
    rng = np.random.default_rng(seed)
    audio = 0.003 * rng.standard_normal(int(seconds * RATE))
    t = np.arange(len(audio)) / RATE
    for start, end in bursts:
        inside = (t >= start) & (t < end)
        audio[inside] += 0.3 * np.sin(2 * np.pi * 220 * t[inside]) + 0.1 * np.sin(2 * np.pi * 1200 * t[inside])
    return audio.astype(np.float32)


def cut(audio: np.ndarray, block: int, t0: float = 0.0) -> list:
    cutter = PhraseCutter()
    phrases = []
    for start in range(0, len(audio), block):
        phrases += cutter.feed(audio[start : start + block], t0 + start / RATE)
    return phrases + list(cutter.flush())


def test_a_phrase_ends_when_its_sound_ends_in_host_time():
    phrases = cut(scene([(1.0, 2.2)]), 512, t0=5000.0)
    assert len(phrases) == 1
    assert phrases[0].t_end == pytest.approx(5002.2, abs=0.011)
    assert phrases[0].t_start == pytest.approx(5000.9, abs=0.02)  # with 0.1 s of margin before
    assert len(phrases[0].audio) / RATE == pytest.approx(1.2 + 0.2, abs=0.03)


@settings(max_examples=10, deadline=None)
@given(block=st.integers(1, 4000))
def test_block_size_does_not_change_what_is_heard(block):
    audio = scene([(0.8, 1.5), (2.5, 3.3)])
    ends = [round(p.t_end, 4) for p in cut(audio, block)]
    assert ends == [round(p.t_end, 4) for p in cut(audio, 512)]
    assert ends == pytest.approx([1.5, 3.3], abs=0.011)


def test_clicks_are_not_phrases_and_a_breath_splits_phrases():
    assert cut(scene([(1.0, 1.1)]), 512) == []
    assert len(cut(scene([(0.8, 1.4), (2.2, 3.0)]), 512)) == 2


def test_chatter_before_a_called_phrase_is_left_out():
    rng = np.random.default_rng(5)
    audio = scene([(1.0, 2.0)])
    audio[int(0.5 * RATE) : int(0.8 * RATE)] += 0.03 * rng.standard_normal(int(0.3 * RATE)).astype(np.float32)
    (phrase,) = cut(audio, 512)
    assert phrase.t_start == pytest.approx(0.9, abs=0.02)


def test_each_block_re_anchors_the_host_clock():
    audio = scene([(1.0, 2.0)])
    cutter = PhraseCutter()
    phrases = []
    # Blocks arrive with their own timestamps; the second half of the stream is stamped 3 s later.
    for start in range(0, len(audio), 800):
        shift = 3.0 if start >= RATE else 0.0
        phrases += cutter.feed(audio[start : start + 800], start / RATE + shift)
    assert phrases[0].t_end == pytest.approx(5.0, abs=0.011)


def test_speech_a_breath_after_a_phrase_is_a_phrase_of_its_own_not_its_replacement():
    """A neighbour talks a breath (0.23 s) after the call, before the phrase has closed: both are
    phrases, each ending where its own sound ends; the call is not dropped for the talk."""
    phrases = cut(scene([(1.0, 1.8), (2.03, 2.8)]), 512)
    assert [round(p.t_end, 2) for p in phrases] == pytest.approx([1.8, 2.8], abs=0.011)
    assert phrases[0].t_start == pytest.approx(0.9, abs=0.02)


@pytest.mark.parametrize("block", [160, 512, 4000])
def test_a_click_before_the_chant_opens_no_phrase_early_with_the_median(block):
    """A die's click (5 ms, louder than the voice) 0.12 s before someone speaks: without the
    median the phrase opens at the click; with a median over three 10 ms steps it opens with the
    voice, and the voice's own start and end are kept to a step."""
    from companion.cue.config import VoiceActivityConfig

    audio = scene([(1.2, 2.2)])
    audio[int(1.08 * RATE) : int(1.085 * RATE)] += 0.9 * np.sign(np.sin(np.arange(80) * 2.3))

    def heard(width: int) -> list:
        cutter = PhraseCutter(VoiceActivityConfig(click_median_steps=width))
        found = []
        for start in range(0, len(audio), block):
            found += cutter.feed(audio[start : start + block], start / RATE)
        return found + cutter.flush()

    (plain,) = heard(1)
    assert plain.t_start < 1.08 - 0.05  # opened at the click, 0.1 s of margin before it
    (cleaned,) = heard(3)
    assert cleaned.t_start == pytest.approx(1.1, abs=0.015)  # the voice, with its 0.1 s of margin
    assert cleaned.t_end == pytest.approx(2.2, abs=0.015)


def test_a_stream_shorter_than_the_median_is_still_cut_at_its_end():
    from companion.cue.config import VoiceActivityConfig

    cutter = PhraseCutter(VoiceActivityConfig(click_median_steps=5))
    audio = scene([(1.0, 1.6)], seconds=1.61)
    found = cutter.feed(audio, 0.0) + cutter.flush()
    assert len(found) == 1 and found[0].t_end == pytest.approx(1.6, abs=0.015)


def test_a_lone_syllable_a_long_closure_before_the_rest_is_the_phrase_s_start():
    """A slow "In ... can-to!": the first syllable (0.1 s) closes for 0.23 s, as long as a breath
    between phrases, before the rest. Alone it is too short to be a phrase; it is the start of the
    next one rather than dropped (the phrase used to start at "can")."""
    (phrase,) = cut(scene([(1.0, 1.1), (1.33, 2.0)]), 512)
    assert phrase.t_start == pytest.approx(0.9, abs=0.02)
    assert phrase.t_end == pytest.approx(2.0, abs=0.011)


def test_a_lone_syllable_long_before_the_phrase_is_still_left_out():
    (phrase,) = cut(scene([(1.0, 1.1), (1.5, 2.2)]), 512)
    assert phrase.t_start == pytest.approx(1.4, abs=0.02)

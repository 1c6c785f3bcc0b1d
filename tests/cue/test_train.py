"""The chant model's training rooms: talk run up to the chant and cups set down on it are where
they are meant to be, and the bench's clatter is drawn as it was."""
from __future__ import annotations

import numpy as np

from companion.cue.bench.chorus import CHANT, Take, say
from companion.cue.bench.table_noise import cup_clink, cup_clinks, envelope_db, pink_noise, spoken_span
from companion.cue.features import SAMPLE_RATE
from companion.cue.train import recipe, with_neighbour


def test_a_neighbour_talks_up_to_the_chants_start_or_on_from_its_end(scene) -> None:
    chant = say(Take(CHANT, "en-us", 150, 50), scene.cache)
    talk = say(Take("Pass the crisps, please.", "en+f3", 170), scene.cache)
    at = 2 * SAMPLE_RATE
    span = spoken_span(chant, -30.0)
    background = (1e-3 * pink_noise(at + len(chant) + len(talk) + 2 * SAMPLE_RATE, np.random.default_rng(1))).astype(np.float32)
    for after in (False, True):
        rng = np.random.default_rng(2)
        out = with_neighbour(background.copy(), background, at, 20.0, span, talk, after, rng)
        heard = envelope_db(out - background) >= -30.0  # the neighbour alone: the chant is not in ``out``
        loud = np.flatnonzero(heard) * 0.01
        chant_start, chant_end = (at / SAMPLE_RATE + s for s in span)
        if after:
            gap = loud[0] - chant_end
        else:
            gap = chant_start - loud[-1] - 0.01
        low, high = recipe.NEIGHBOUR_GAP_S
        assert low - 0.02 <= gap <= high + 0.02, (after, gap)
        assert (loud[-1] < chant_start) if not after else (loud[0] > chant_end)


def test_a_cup_clink_rings_as_long_as_a_syllable_and_the_clatter_is_drawn_as_before() -> None:
    ring = cup_clink(SAMPLE_RATE, np.random.default_rng(3))
    assert 0.05 * SAMPLE_RATE <= len(ring) <= 0.3 * SAMPLE_RATE and 0.05 < np.max(np.abs(ring)) < 2.0
    assert len(cup_clink(100, np.random.default_rng(3))) == 100  # cut at the end of the room
    # The bench's clatter is the same sound from the same seed whether a clink is drawn alone or not.
    rng = np.random.default_rng(4)
    n = 20 * SAMPLE_RATE
    starts = rng.integers(0, n, size=rng.poisson(12.0 * n / SAMPLE_RATE / 60.0))
    expected = np.zeros(n, np.float32)
    for start in starts:
        piece = cup_clink(n - int(start), rng)
        expected[start : start + len(piece)] += piece
    assert np.array_equal(cup_clinks(n, np.random.default_rng(4), 12.0), expected)


def test_a_room_left_out_of_the_recipe_draws_nothing_so_the_other_rooms_are_as_before() -> None:
    from companion.cue.train import draw

    rng, untouched = np.random.default_rng(8), np.random.default_rng(8)
    assert draw(rng, 0.0) is False
    assert rng.random() == untouched.random()  # a share of 0 took no number from the stream
    assert draw(np.random.default_rng(8), 1.0) is True

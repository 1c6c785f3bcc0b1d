import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cue import dtw


def reference(a: np.ndarray, b: np.ndarray, band: float) -> float:
    """The textbook recursion, one cell at a time, keeping the length of the path it chose."""
    n, m = len(a), len(b)
    cost = np.full((n + 1, m + 1), np.inf)
    steps = np.zeros((n + 1, m + 1))
    cost[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            if abs((i - 0.5) / n - (j - 0.5) / m) > band:
                continue
            options = [(cost[i - 1, j - 1], steps[i - 1, j - 1]), (cost[i - 1, j], steps[i - 1, j]), (cost[i, j - 1], steps[i, j - 1])]
            best = min(range(3), key=lambda k: options[k][0])
            cost[i, j] = np.linalg.norm(a[i - 1] - b[j - 1]) + options[best][0]
            steps[i, j] = options[best][1] + 1
    return cost[n, m] / steps[n, m]


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 25), lengths=st.lists(st.integers(3, 25), min_size=1, max_size=4), seed=st.integers(0, 10_000))
def test_matches_the_textbook_recursion(n, lengths, seed):
    rng = np.random.default_rng(seed)
    query = rng.normal(size=(n, 3))
    templates = [rng.normal(size=(m, 3)) for m in lengths]
    found = dtw.distances(query, templates, band=0.35, max_stretch=10.0)
    expected = [reference(query, t, 0.35) for t in templates]
    assert np.allclose(found, expected)


def test_a_slower_copy_is_at_distance_zero_and_a_different_sequence_is_not():
    rng = np.random.default_rng(3)
    chant = rng.normal(size=(30, 5))
    slow = np.repeat(chant, 2, axis=0)
    assert dtw.distance(slow, chant) == pytest.approx(0.0, abs=1e-6)
    assert dtw.distance(rng.normal(size=(30, 5)), chant) > 1.0


def test_too_long_or_empty_phrases_never_match():
    rng = np.random.default_rng(4)
    chant = rng.normal(size=(20, 5))
    assert dtw.distance(np.repeat(chant, 3, axis=0), chant, max_stretch=2.0) == np.inf
    assert dtw.distances(np.zeros((0, 5)), [chant]).tolist() == [np.inf]
    assert dtw.distances(chant, []).shape == (0,)


def test_the_path_runs_corner_to_corner_in_small_steps_and_costs_what_distance_says():
    rng = np.random.default_rng(5)
    query, template = rng.normal(size=(18, 4)), rng.normal(size=(25, 4))
    pairs, costs = dtw.path(query, template)
    assert pairs[0].tolist() == [0, 0] and pairs[-1].tolist() == [17, 24]
    steps = np.diff(pairs, axis=0)
    assert set(map(tuple, steps.tolist())) <= {(1, 1), (1, 0), (0, 1)}
    assert costs.mean() == pytest.approx(dtw.distance(query, template, max_stretch=10.0))


def test_a_phrase_missing_a_syllable_is_judged_by_the_syllable_it_lacks():
    rng = np.random.default_rng(6)
    syllables = [rng.normal(size=(15, 6)) for _ in range(3)]
    chant = np.vstack(syllables)
    noisy_chant = chant + 0.3 * rng.normal(size=chant.shape)
    # The first syllable replaced by something else: like "Canto" against "In-can-to".
    two_of_three = np.vstack([syllables[1][::-1], syllables[1], syllables[2]])
    plain = dtw.distance(two_of_three, chant) / dtw.distance(noisy_chant, chant)
    close = dtw.chant_distance(two_of_three, chant) / dtw.chant_distance(noisy_chant, chant)
    assert close > plain > 1.0

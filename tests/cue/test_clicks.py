"""Dice and cups at the table: a click of a few milliseconds is bridged in every mel band, a syllable is kept."""
from __future__ import annotations


import numpy as np

from companion.cue import dtw
from companion.cue.bench.chorus import CHANT, Take, say
from companion.cue.bench.table_noise import dice_rattle, mix_at, pink_noise
from companion.cue.features import SAMPLE_RATE, FeatureConfig, bridge_clicks, chant_features

BRIDGED, UNBRIDGED = FeatureConfig(), FeatureConfig(declick=False)


def test_a_click_is_bridged_and_a_syllable_is_kept():
    power = np.ones((60, 4))
    power[10:12] = 100.0  # a click: two frames (20 ms) in every band
    power[30:36] = 100.0  # a syllable: six frames
    bridged = bridge_clicks(power)
    assert np.all(bridged[10:12] <= 2.0)  # down to its neighbours' level (within 3 dB)
    assert np.array_equal(bridged[30:36], power[30:36])  # the syllable whole, its edges too
    assert np.array_equal(bridged[:10], power[:10]) and np.array_equal(bridged[40:], power[40:])


def test_a_click_louder_than_the_chant_does_not_take_the_chants_frames(scene):
    """The gate keeps the frames near the loudest: a die's click 20 dB over the chant must not be it."""
    chant = say(Take(CHANT, "en-us"), scene.cache)
    rng = np.random.default_rng(5)
    clicked = np.concatenate([np.zeros(SAMPLE_RATE // 4, np.float32), chant, np.zeros(SAMPLE_RATE // 4, np.float32)])
    clicked += (1e-4 * pink_noise(len(clicked), rng)).astype(np.float32)
    # A die's click: 2 ms of high-tilted noise dying away, in the middle of a 10 ms hop (so in two
    # 25 ms frames), ten times the chant's peak.
    at = (SAMPLE_RATE // 4 + len(chant) // 2) // 160 * 160 + 100
    click = np.diff(rng.standard_normal(33)) * np.exp(-np.arange(32) / 8.0)
    clicked[at : at + 32] += (10.0 * np.max(np.abs(chant)) * click).astype(np.float32)
    kept = len(chant_features(clicked, BRIDGED))
    assert kept >= 0.8 * len(chant_features(chant, BRIDGED))
    assert len(chant_features(clicked, UNBRIDGED)) < 0.5 * kept  # without the bridge the click is all the gate keeps


def test_a_chant_under_dice_stays_near_the_same_voices_clean_chant(scene):
    """At 15 dB under a busy dice rattle, bridging the clicks takes back at least a third of what
    the rattle added to the distance between two takes of one voice."""
    take, other = (say(Take(CHANT, "en-us", s, p), scene.cache) for s, p in ((150, 50), (135, 60)))
    pad = np.zeros(SAMPLE_RATE // 10, np.float32)
    added = {}
    for name, config in (("bridged", BRIDGED), ("unbridged", UNBRIDGED)):
        reference = chant_features(np.concatenate([pad, take, pad]), config)
        clean = dtw.chant_distance(chant_features(np.concatenate([pad, other, pad]), config), reference, 0.35)
        noisy = []
        for seed in range(6):
            rng = np.random.default_rng(seed)
            n = len(other) + 2 * len(pad)
            rattle = dice_rattle(n, rng, 14.0)
            rattle = rattle / (np.std(rattle) + 1e-12) + 0.03 * pink_noise(n, rng)
            noisy.append(dtw.chant_distance(chant_features(mix_at(rattle, other, len(pad), 15.0), config), reference, 0.35))
        added[name] = float(np.mean(noisy)) - clean
    assert added["unbridged"] > 0.3  # the rattle does push the takes apart
    assert added["bridged"] < (2 / 3) * added["unbridged"], added

"""Listening for "In-can-to!": phrases cut from the microphone stream, matched against the chant book.

A phrase is the chant when its nearest enrolled chant take is closer than the threshold, and closer
than any enrolled near miss ("Incantibus", "incantation", "can't go" as the players say them) by a
margin: a word that shares the chant's sounds is nearer its own near miss than the chant. The cue carries
the host time when the last syllable ended (taken from the sound itself, not from when matching
finished), the player whose take matched and the distance.

Where the last syllable ends is read from the sound, and the quiet end of a syllable is under the
table's noise: the cutter stops where the vowel fades into it. How much more each player's chant
goes on under that noise is read from their own clean takes (``Endings``) and added.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from companion.cue import Cue
from companion.cue.config import CueConfig
from companion.cue.features import SAMPLE_RATE, as_float, chant_features
from companion.cue.phrases import Phrase, PhraseCutter
from companion.cue.run_on import earlier_ends
from companion.cue.templates import ChantBook

RUN_ON = 1.25  # a phrase this much longer than the typical take may hold a chant and chatter after it
SOURCE = "microphone"  # the name the hub and GPIO inputs use for the spoken cue


@dataclass(frozen=True)
class Verdict:
    """What the detector made of one phrase, kept for calibration screens and the bench."""

    phrase: Phrase
    player: str | None
    distance: float
    is_chant: bool
    near_miss_distance: float = float("inf")  # to the nearest enrolled near miss


class ChantDetector:
    def __init__(self, book: ChantBook, config: CueConfig = CueConfig()) -> None:
        self.book = book
        self.config = config
        self.threshold = config.threshold if config.threshold is not None else book.threshold
        self.cutter = PhraseCutter(config.voice)
        self.endings = Endings(book, config)
        # How long a chant may be: the enrolled takes' speech, half as long to a third longer again.
        spoken = [len(t.audio) / SAMPLE_RATE - 2 * config.voice.margin_s for t in book.templates] or [1.0]
        self.shortest_s, self.longest_s = 0.5 * min(spoken), 1.3 * max(spoken)
        self.typical_s = float(np.median(spoken))
        self.when_cue: Callable[[Cue], None] | None = None
        self.when_phrase: Callable[[Verdict], None] | None = None

    def hear(self, block: np.ndarray, t_first: float) -> list[Cue]:
        """Feed (n,) 16 kHz int16/float samples, the first heard at host time ``t_first``; returns
        the cues whose chant ended in this block (also passed to ``when_cue``)."""
        return self._judge_all(self.cutter.feed(block, t_first))

    def flush(self) -> list[Cue]:
        """The stream ended: judge the phrase still open, if any."""
        return self._judge_all(self.cutter.flush())

    def judge(self, phrase: Phrase) -> Verdict:
        features = chant_features(phrase.audio, self.book.feature_config)
        player, distance = self.book.nearest(features, self.config.band, self.config.max_stretch)
        if distance > self.threshold:
            return Verdict(phrase, player, distance, False)
        _, near = self.book.nearest_near_miss(features, self.config.band, self.config.max_stretch)
        return Verdict(phrase, player, distance, distance * self.config.near_miss_margin < near, near)

    def judge_run_on(self, phrase: Phrase) -> Verdict:
        """A phrase longer than the takes is judged first at its earlier ends (``run_on``): the
        first that is the chant wins, since a chant run on into chatter ends at its own drop."""
        long = len(phrase.audio) / SAMPLE_RATE - 2 * self.config.voice.margin_s > self.typical_s * RUN_ON
        shorter = earlier_ends(phrase, self.shortest_s, self.longest_s, self.config.voice) if self.config.run_on and long else []
        for candidate in shorter:
            verdict = self.judge(candidate)
            if verdict.is_chant:
                return verdict
        return self.judge(phrase)

    def _judge_all(self, phrases: Iterable[Phrase]) -> list[Cue]:
        cues = []
        for heard in phrases:
            verdict = self.judge_run_on(heard)
            phrase = verdict.phrase
            if self.when_phrase is not None:
                self.when_phrase(verdict)
            if verdict.is_chant:
                t_end = phrase.t_end + self.endings.gap(verdict.player, phrase)
                cues.append(Cue(SOURCE, t_end, verdict.player, verdict.distance))
        for cue in cues:
            if self.when_cue is not None:
                self.when_cue(cue)
        return cues



END_DB = -40.0  # a syllable has ended 40 dB under the take's loudest 10 ms (or at its noise floor)
MAX_END_GAP_S = 0.25
DB_PER_NAT = 4.343


def levels_db(audio: np.ndarray) -> np.ndarray:
    """(n,) audio -> (n // 160,) level of each 10 ms in dB under the loudest."""
    n = len(audio) // 160
    power = np.mean(as_float(audio)[: n * 160].astype(np.float64).reshape(n, 160) ** 2, axis=1)
    level = 10.0 * np.log10(power + 1e-12)
    return level - level.max()


def last_sound(levels: np.ndarray) -> int:
    """The index after the last 10 ms within 40 dB of the loudest, not counting the take's own
    room noise (its quietest frames, 6 dB up)."""
    floor = max(END_DB, float(np.percentile(levels, 5)) + 6.0)
    return int(np.flatnonzero(levels >= floor)[-1]) + 1


def end_gap(levels: np.ndarray, heard_floor_db: float) -> float:
    """Seconds of a take's last syllable that lie under ``heard_floor_db`` (dB under its peak):
    what the table's noise hides of it."""
    end = last_sound(levels)
    audible = np.flatnonzero(levels[:end] >= heard_floor_db)
    return float(np.clip((end - (audible[-1] + 1 if len(audible) else end)) / 100.0, 0.0, MAX_END_GAP_S))


class Endings:
    """How far each player's chant goes on under a given noise, from their enrolled takes."""

    def __init__(self, book: ChantBook, config: CueConfig) -> None:
        self.config = config
        self.levels: dict[str, list[np.ndarray]] = {}
        for take in book.templates:
            self.levels.setdefault(take.player, []).append(levels_db(take.audio))

    def gap(self, player: str | None, phrase: Phrase) -> float:
        """Seconds to add to where the cutter ended ``phrase``: the median over the player's takes
        of the tail that would lie under the phrase's background."""
        if player not in self.levels:
            return 0.0
        peak = float(np.log(np.max(levels_power(phrase.audio)) + 1e-10))
        floor = max(END_DB, -DB_PER_NAT * (peak - phrase.background - self.config.voice.stop_nats))
        return float(np.median([end_gap(lv, floor) for lv in self.levels[player]]))


def levels_power(audio: np.ndarray) -> np.ndarray:
    n = len(audio) // 160
    return np.mean(as_float(audio)[: n * 160].astype(np.float64).reshape(n, 160) ** 2, axis=1)

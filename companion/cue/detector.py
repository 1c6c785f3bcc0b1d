"""Listening for "In-can-to!": phrases cut from the microphone stream, matched against the chant book.

A phrase is the chant when its nearest enrolled take is closer than the threshold. The cue carries
the host time when the last syllable ended (taken from the sound itself, not from when matching
finished), the player whose take matched and the distance.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from companion.cue import Cue
from companion.cue.config import CueConfig
from companion.cue.features import chant_features
from companion.cue.phrases import Phrase, PhraseCutter
from companion.cue.templates import ChantBook

SOURCE = "microphone"  # the name the hub and GPIO inputs use for the spoken cue


@dataclass(frozen=True)
class Verdict:
    """What the detector made of one phrase, kept for calibration screens and the bench."""

    phrase: Phrase
    player: str | None
    distance: float
    is_chant: bool


class ChantDetector:
    def __init__(self, book: ChantBook, config: CueConfig = CueConfig()) -> None:
        self.book = book
        self.config = config
        self.threshold = config.threshold if config.threshold is not None else book.threshold
        self.cutter = PhraseCutter(config.voice)
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
        return Verdict(phrase, player, distance, distance <= self.threshold)

    def _judge_all(self, phrases: Iterable[Phrase]) -> list[Cue]:
        cues = []
        for phrase in phrases:
            verdict = self.judge(phrase)
            if self.when_phrase is not None:
                self.when_phrase(verdict)
            if verdict.is_chant:
                cues.append(Cue(SOURCE, phrase.t_end, verdict.player, verdict.distance))
        for cue in cues:
            if self.when_cue is not None:
                self.when_cue(cue)
        return cues

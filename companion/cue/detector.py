"""Listening for "In-can-to!": phrases cut from the microphone stream, matched against the chant book.

A phrase is the chant when its nearest enrolled chant take is closer than the threshold, and closer
than any enrolled near miss ("Incantibus", "incantation", "can't go" as the players say them) by a
margin: a word that shares the chant's sounds is nearer its own near miss than the chant. The cue carries
the host time when the last syllable ended (taken from the sound itself, not from when matching
finished), the player whose take matched and the distance.

Where the last syllable ends is read from the sound, but the quiet end of a syllable is under the
table's noise. Where it was last loud stands out of the noise; how long the matched take goes on
after its own last loud moment, at the phrase's tempo, is added (``Endings``).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from companion.cue import Cue
from companion.cue.config import CueConfig
from companion.cue import finder as chant_finder
from companion.cue import model as chant_model
from companion.cue.features import SAMPLE_RATE, as_float, chant_features
from companion.cue.finder import ChantFinder
from companion.cue.model import ChantModel
from companion.cue.phrases import Phrase, PhraseCutter
from companion.cue.run_on import earlier_ends, later_starts, room_after
from companion.cue.templates import ChantBook, Template, closest, widened

RUN_ON = 1.25  # a phrase this much longer than the typical take may hold a chant and chatter after it
CLEARLY_NEARER = 0.8  # an earlier end of a chant replaces its end when this much nearer the takes (dev panel)
WARP_GAIN = 1.2  # a phrase this far past the threshold from the takes as said is not brought within it by a warp
# The model's windows over a long phrase: this many times the typical take's speech (unseen speeds
# reach a third slower or quicker), every 50 ms, in phrases at least this much longer than a window.
WINDOW_LENGTHS = (0.75, 1.0, 1.3)
WINDOW_HOP_S = 0.05
WINDOW_SHARE = 0.85
WINDOWS_JUDGED = 2
SOURCE = "microphone"  # the name the hub and GPIO inputs use for the spoken cue


@dataclass(frozen=True)
class Verdict:
    """What the detector made of one phrase, kept for calibration screens and the bench."""

    phrase: Phrase
    player: str | None
    distance: float
    is_chant: bool
    near_miss_distance: float = float("inf")  # to the nearest enrolled near miss
    take: Template | None = None  # the enrolled take nearest
    loud_frames: int = 0  # the phrase's frames near its loudest: how long the chant was held
    score: float | None = None  # the chant model's probability that this is the chant (None: no model)


class ChantDetector:
    def __init__(self, book: ChantBook, config: CueConfig = CueConfig()) -> None:
        self.book = book
        self.config = config
        self.threshold = config.threshold if config.threshold is not None else book.threshold
        self.cutter = PhraseCutter(config.voice)
        self.endings = Endings(config, book)
        self.model: ChantModel | None = chant_model.shipped() if config.model else None
        self.finder: ChantFinder | None = chant_finder.shipped() if config.chant_finder and config.model else None
        self.chants = widened(book.templates, book.feature_config, config.warps)
        self.near_misses = widened(book.near_misses, book.feature_config, config.warps)
        # How long a chant may be: the enrolled takes' speech, half as long to a third longer again.
        spoken = [self.spoken_s(t.audio) for t in book.templates] or [1.0]
        self.shortest_s, self.longest_s = 0.5 * min(spoken), 1.3 * max(spoken)
        self.typical_s = float(np.median(spoken))
        # Cuts as long as the takes, from three quarters to 1.3 times, with the cutter's margins (samples).
        margin = config.voice.margin_s
        self.cut_lengths = [round((f * self.typical_s + 2 * margin) * SAMPLE_RATE) for f in WINDOW_LENGTHS]
        self.when_cue: Callable[[Cue], None] | None = None
        self.when_phrase: Callable[[Verdict], None] | None = None

    def hear(self, block: np.ndarray, t_first: float) -> list[Cue]:
        """Feed (n,) 16 kHz int16/float samples, the first heard at host time ``t_first``; returns
        the cues whose chant ended in this block (also passed to ``when_cue``)."""
        return self._judge_all(self.cutter.feed(block, t_first))

    def flush(self) -> list[Cue]:
        """The stream ended: judge the phrase still open, if any."""
        return self._judge_all(self.cutter.flush())

    def judge(self, phrase: Phrase, overrule: bool = False, score: float | None = None) -> Verdict:
        """The chant or not, and whose. With the model: it must not rule the phrase out, and either
        it is sure and the caller's takes are near (``model_relax`` x the threshold: a chant in a
        loud room is further from the takes than the takes from each other), or the takes alone
        are within the threshold. Either way nearer the chant than any enrolled near miss
        (``margin``): eased toward ``model_near_miss_margin`` as the model grows surer, only when the
        takes are within the threshold, never on the relaxed path. With ``overrule`` (a phrase as the cutter cut it),
        a phrase of a chant's length the model rules out is still matched, and is the chant when the
        caller's takes overrule the model (``takes_overrule_margin``). A ``score`` given (the chant
        finder's, for a window it found) stands for the model's."""
        cfg = self.config
        if score is None and self.model is not None:
            score = self.model.score(phrase.audio)
        ruled_out = score is not None and score < cfg.model_floor
        if ruled_out and not (overrule and cfg.takes_overrule_margin is not None and self.chant_long(phrase)):
            return Verdict(phrase, None, float("inf"), False, score=score)  # no need to match: clearly not the chant
        features = chant_features(phrase.audio, self.book.feature_config)
        if ruled_out and closest(self.book.templates, features, cfg.band, cfg.max_stretch)[1] > WARP_GAIN * self.threshold:
            # Most table talk is chant-long: the takes as said (a fifth of the warped set) tell it
            # is not near at a fifth of the processor's time, since a warp brings a phrase at most
            # ~10 % nearer (dev table talk: 1.09).
            return Verdict(phrase, None, float("inf"), False, score=score)
        take, distance = closest(self.chants, features, cfg.band, cfg.max_stretch)
        player = take.player if take is not None else None
        bar = self.threshold * self.relief(score)
        if take is None or distance > bar:
            return Verdict(phrase, player, distance, False, score=score)
        _, near = closest(self.near_misses, features, cfg.band, cfg.max_stretch)
        if ruled_out:
            # Babble under a chant can make the model sure it is talk while the caller's own takes
            # are near (on the dev panel at 10 dB: takes at 0.44-0.9 of the threshold, the nearest
            # near miss 1.9-3.3 times further, the model 0.000-0.002). The takes overrule the model
            # only by a wide margin over the near misses, far wider than any near miss came.
            # A book without near misses has nothing to be that far from: the model's veto stands.
            assert cfg.takes_overrule_margin is not None
            return Verdict(phrase, player, distance, bool(np.isfinite(near)) and distance * cfg.takes_overrule_margin < near,
                           near, take, len(features), score)
        # One relief at a time: the near-miss margin is eased for a sure model only when the takes
        # themselves judge the phrase near. A phrase let in past the takes' own threshold by the
        # model keeps the full margin: the model is over-confident on voices it never heard, and
        # two reliefs stacked let an unheard engine's talk through (the held-out run of 2026-12-02).
        margin = self.margin(score, distance)
        return Verdict(phrase, player, distance, distance * margin < near, near, take, len(features), score)

    def chant_long(self, phrase: Phrase) -> bool:
        """Whether ``phrase`` (its speech, without the cutter's margins) is as long as a chant may be."""
        return self.shortest_s <= self.spoken_s(phrase.audio) <= self.longest_s

    def spoken_s(self, audio: np.ndarray) -> float:
        """How long a phrase's or a take's ``audio`` is without the cutter's margins either side, in seconds."""
        return len(audio) / SAMPLE_RATE - 2 * self.config.voice.margin_s

    def relief(self, score: float | None) -> float:
        """How far past the takes' threshold the model's ``score`` lets a phrase be, as a factor:
        1 when the model is unsure or off, ``model_relax`` when it is all but certain, and (with
        ``relax_by_certainty``) in between by its log-odds, so a near miss the model half-likes
        must still sound like the caller's own takes."""
        cfg = self.config
        if score is None or score < cfg.model_threshold:
            return 1.0
        if not cfg.relax_by_certainty:
            return cfg.model_relax
        return 1.0 + (cfg.model_relax - 1.0) * _surer(score, cfg.model_threshold, cfg.model_sure)

    def margin(self, score: float | None, distance: float) -> float:
        """How many times nearer the chant than any enrolled near miss a phrase at ``distance`` from
        the takes must be, for the model's ``score``. Past the takes' threshold: all of
        ``near_miss_margin`` (one relief at a time). Within it, eased by the model's log-odds from
        ``near_miss_margin`` at ``ease_margin_from`` to ``model_near_miss_margin`` at ``model_sure``:
        a chant in a loud room that the model half-likes (0.56 and 0.94 on the dev panel, under
        babble and clatter at 10 dB) lay 1.35-1.48 times nearer the chant, short of the full margin,
        while the near misses the model is sure of lay past the threshold (the two it half-liked
        within it, 0.54-0.57, 1.34-1.37 times nearer, stay under the margin at their score)."""
        cfg = self.config
        if score is None or distance > self.threshold:
            return cfg.near_miss_margin
        if score >= cfg.model_sure:
            return cfg.model_near_miss_margin
        if cfg.ease_margin_from is None or score < cfg.ease_margin_from:
            return cfg.near_miss_margin
        share = _surer(score, cfg.ease_margin_from, cfg.model_sure)
        return cfg.near_miss_margin + (cfg.model_near_miss_margin - cfg.near_miss_margin) * share

    def judge_run_on(self, phrase: Phrase) -> Verdict:
        """A phrase longer than the takes is judged first at its earlier ends (``run_on``): the
        first that is the chant wins, since a chant run on into chatter ends at its own drop."""
        long = self.spoken_s(phrase.audio) > self.typical_s * RUN_ON
        shorter = earlier_ends(phrase, self.shortest_s, self.longest_s, self.config.voice) if self.config.run_on and long else []
        for candidate in shorter:
            verdict = self.judge(candidate)
            if verdict.is_chant:
                return verdict
        verdict = self.judge(phrase, overrule=True)
        if verdict.is_chant:
            return self.nearest_end(verdict)
        if self.model is not None and self.config.run_on and not long:
            # The model hears the whole phrase, a word glued to the chant's end included ("In-can-to,
            # go!"), and may rule it out; the phrase's earlier ends are then judged on their own.
            for candidate in earlier_ends(phrase, self.shortest_s, self.longest_s, self.config.voice):
                shorter_verdict = self.judge(candidate)
                if shorter_verdict.is_chant:
                    return shorter_verdict
        if self.model is not None and self.config.run_on:
            # A rattle, a clink or a last word just before the call opened the phrase early: the
            # chant begins at one of the phrase's dips.
            for candidate in later_starts(phrase, self.shortest_s, self.config.voice):
                later_verdict = self.judge(candidate)
                if later_verdict.is_chant:
                    return later_verdict
        if self.model is not None and self.config.run_on and self.config.model_windows:
            for candidate in self.windows(phrase):
                window_verdict = self.judge(candidate)
                if window_verdict.is_chant:
                    return window_verdict
        if self.model is not None and self.config.run_on:
            # The next talker came back within the margin after the phrase: judged without it,
            # by the same model, takes and near-miss margin (``run_on.room_after``).
            alone = room_after(phrase, self.config.voice)
            if alone is not None:
                alone_verdict = self.judge(alone)
                if alone_verdict.is_chant:
                    return alone_verdict
        if self.finder is not None and self.chant_long_or_longer(phrase):
            # Babble glued before or after a chant is warped with it onto the chant model's grid,
            # which then rules the phrase out; the finder reads the phrase at its own pace and
            # says where the chant ended. Each cut ending there is a phrase of its own, the
            # finder's word standing for the model's; the takes and near misses judge it as any
            # phrase, with the same threshold and margins. The nearest of those heard is the chant.
            heard = [v for v in (self.judge(cut, score=p) for cut, p in self.found(phrase)) if v.is_chant]
            if heard:
                return min(heard, key=lambda v: v.distance)
        return verdict

    def chant_long_or_longer(self, phrase: Phrase) -> bool:
        """Whether ``phrase`` (its speech, without the cutter's margins) is at least as long as a chant may be."""
        return self.spoken_s(phrase.audio) >= self.shortest_s

    def found(self, phrase: Phrase) -> list[tuple[Phrase, float]]:
        """Where the chant finder hears the chant end in ``phrase`` (at most ``WINDOWS_JUDGED``
        places, each at least ``finder_threshold``), cut as chants as long as the takes are
        (``WINDOW_LENGTHS``) ending there, as phrases of their own with the finder's score."""
        assert self.finder is not None
        return [(self.piece(phrase, max(0, end - length), end), p)
                for end, p in self.finder.ends(phrase.audio, self.config.finder_threshold, WINDOWS_JUDGED)
                for length in self.cut_lengths]

    def windows(self, phrase: Phrase) -> list[Phrase]:
        """The phrase's likeliest chant-long windows by the model (at most ``WINDOWS_JUDGED``, each
        at least ``model_threshold``, none mostly over another), as phrases of their own."""
        assert self.model is not None
        lengths = [n for n in self.cut_lengths if n < WINDOW_SHARE * len(phrase.audio)]  # else the phrase is the window
        chosen: list[tuple[int, int, float]] = []
        for a, b, p in self.model.windows(phrase.audio, lengths, round(WINDOW_HOP_S * SAMPLE_RATE)):
            if p < self.config.model_threshold or len(chosen) == WINDOWS_JUDGED:
                break
            if all(min(b, d) - max(a, c) < 0.5 * min(b - a, d - c) for c, d, _ in chosen):
                chosen.append((a, b, p))
        return [self.piece(phrase, a, b) for a, b, _ in chosen]

    def piece(self, phrase: Phrase, a: int, b: int) -> Phrase:
        """Samples ``a`` to ``b`` of ``phrase`` as a phrase of its own: it ends where its speech
        ends, the cutter's margin before ``b`` (never after the whole phrase's end)."""
        return Phrase(phrase.audio[a:b], phrase.t_start + a / SAMPLE_RATE,
                      min(phrase.t_end, phrase.t_start + b / SAMPLE_RATE - self.config.voice.margin_s), phrase.background)

    def nearest_end(self, verdict: Verdict) -> Verdict:
        """A phrase heard as the chant may still carry the start of someone's chatter after it: of
        its earlier ends (drops in level), the one nearest the chant, if it is the chant and clearly
        nearer (a slow chant's last syllable is weak, and a cut before it can be near too). Of the
        model's likeliest windows over it, one that is the chant and no further from the takes
        than the whole phrase (babble glued to the chant's end is no part of it: on the dev panel
        a window ended within 10 ms of the chant where the whole phrase ran 0.33 s on). Only a
        phrase already heard as the chant is looked at again, so this moves cues, never adds them."""
        ends = earlier_ends(verdict.phrase, self.shortest_s, self.longest_s, self.config.voice)
        heard = [v for v in map(self.judge, ends) if v.is_chant and v.distance < CLEARLY_NEARER * verdict.distance]
        if self.model is not None and self.config.model_windows:
            heard += [v for v in map(self.judge, self.windows(verdict.phrase))
                      if v.is_chant and v.distance <= verdict.distance]
        return min(heard + [verdict], key=lambda v: v.distance)

    def _judge_all(self, phrases: Iterable[Phrase]) -> list[Cue]:
        cues = []
        for heard in phrases:
            verdict = self.judge_run_on(heard)
            if self.when_phrase is not None:
                self.when_phrase(verdict)
            if verdict.is_chant:
                t_end = self.endings.end(verdict)
                cues.append(Cue(SOURCE, t_end, verdict.player, verdict.distance))
        for cue in cues:
            if self.when_cue is not None:
                self.when_cue(cue)
        return cues



def _surer(score: float, low: float, high: float) -> float:
    """How far ``score`` lies from ``low`` to ``high`` by log-odds, 0 to 1: the one grading of the
    model's certainty that both its relief past the threshold and the eased margin use."""
    share = (_log_odds(score) - _log_odds(low)) / max(_log_odds(high) - _log_odds(low), 1e-9)
    return float(np.clip(share, 0.0, 1.0))


def _log_odds(p: float) -> float:
    p = min(max(p, 1e-9), 1.0 - 1e-9)
    return float(np.log(p / (1.0 - p)))


END_DB = -40.0  # a syllable has ended 40 dB under the take's loudest 10 ms (or at its noise floor)
QUIET_RUN = 5  # ... and stayed there for 50 ms: a lone 10 ms of the room's hiss over it is not the syllable
FLOOR_SPREAD_DB = 6.0  # a player's tail is read from the takes whose floor is within this of the quietest take's
DB_PER_NAT = 4.343
# A slower chant's last syllable fades for longer, but the loud frames' ratio is a noisy measure of
# how much slower: the tail is scaled by that ratio to this power, within two-thirds to one and a
# half times. 0.75 on the dev panel (timing p95 at 10 dB and up, 466 chants: 0.5 83.8 ms, 0.75
# 72.1, 1.0 80.0), once the takes' tails were no longer stretched by the room's hiss.
TEMPO_POWER = 0.75
TEMPO_RANGE = (0.67, 1.5)


def levels_db(audio: np.ndarray) -> np.ndarray:
    """(n,) audio -> (n // 160,) level of each 10 ms in dB under the loudest."""
    n = len(audio) // 160
    power = np.mean(as_float(audio)[: n * 160].astype(np.float64).reshape(n, 160) ** 2, axis=1)
    level = 10.0 * np.log10(power + 1e-12)
    return level - level.max()


def sound_floor(levels: np.ndarray) -> float:
    """40 dB under the loudest 10 ms, or the take's own room noise (its quietest frames) 6 dB up."""
    return max(END_DB, float(np.percentile(levels, 5)) + 6.0)


def last_sound(levels: np.ndarray, strong_db: float) -> int:
    """The index after the last syllable's last 10 ms: from its last loud 10 ms on, the level
    falls to 40 dB under the loudest (or to the take's own room noise, its quietest frames 6 dB
    up) and stays there for ``QUIET_RUN`` steps. A take enrolled from a phone's recording has
    the room's hiss after the chant, and 10 ms of hiss now and then rise over that floor: counted,
    they made the tail as long as the take's margin (on the dev panel a quarter of a second for a
    voice whose syllable stops dead, the cue 80 ms late on every chant of that voice)."""
    floor = sound_floor(levels)
    start = last_loud(levels, strong_db)
    quiet = levels[start:] < floor
    for k in range(len(quiet)):
        if quiet[k : k + QUIET_RUN].all():
            return start + k
    return len(levels)


def last_loud(levels: np.ndarray, strong_db: float) -> int:
    """The index after the last 10 ms within ``-strong_db`` dB of the loudest (0 if none)."""
    loud = np.flatnonzero(levels > strong_db)
    return int(loud[-1]) + 1 if len(loud) else 0


class Endings:
    """When the last syllable ended. The quiet end of a syllable lies under the table's noise, but
    where it was last loud (within ``end_nats`` of the phrase's peak) stands out of it; how long the
    player's takes go on after their own last loud 10 ms, brought to the phrase's tempo, is added
    (the median over the takes: one take's breath or click does not move the cue)."""

    def __init__(self, config: CueConfig, book: ChantBook) -> None:
        self.strong_db = -DB_PER_NAT * config.voice.end_nats
        self.takes: dict[str, list[Template]] = {}
        for take in book.templates:
            self.takes.setdefault(take.player, []).append(take)
        self._tails: dict[tuple[str, str], float] = {}

    def end(self, verdict: Verdict) -> float:
        """Host time when the chant of ``verdict`` ended (where the cutter ended it, without a take).
        The phrase's loud frames over each take's say how much slower it was said. Only the takes
        recorded in the quietest rooms count: a weak last syllable under one take's hiss is cut
        short there (on the dev panel en-gb-x-rp+f2 ends on 140 ms 33-39 dB under its peak; two
        of its four takes had hiss that loud, and their tails were 10-20 ms)."""
        phrase, take = verdict.phrase, verdict.take
        if take is None:
            return phrase.t_end
        takes = self.takes.get(take.player, [take])
        quietest = min(self.floor(t) for t in takes)
        tails = [self.tail(t) * float(np.clip(verdict.loud_frames / len(t.features), *TEMPO_RANGE)) ** TEMPO_POWER
                 for t in takes if self.floor(t) <= quietest + FLOOR_SPREAD_DB]
        return self.last_loud_at(phrase) + float(np.median(tails))

    def floor(self, take: Template) -> float:
        """Where a take's last syllable is taken to have ended, in dB under its loudest 10 ms."""
        return sound_floor(levels_db(take.audio))

    def last_loud_at(self, phrase: Phrase) -> float:
        """Host time after the phrase's last loud 10 ms, not past where the cutter ended it."""
        levels = levels_db(phrase.audio)
        cut = min(len(levels), round((phrase.t_end - phrase.t_start) * 100))
        return phrase.t_start + (last_loud(levels[:cut], self.strong_db) or cut) / 100.0

    def tail(self, take: Template) -> float:
        """Seconds from the take's last loud 10 ms to the end of its last syllable (-40 dB)."""
        key = (take.player, take.file)
        if key not in self._tails:
            levels = levels_db(take.audio)
            self._tails[key] = (last_sound(levels, self.strong_db) - last_loud(levels, self.strong_db)) / 100.0
        return self._tails[key]

"""Cutting a stream of sound into phrases: where someone started speaking and where they stopped.

Fed 16 kHz audio in blocks of any size with the host monotonic time of each block's first sample;
works in 10 ms steps. The background level is a low percentile of the last few seconds, so steady
chatter becomes background and a called chant stands out of it.
"""
from __future__ import annotations

import bisect
from collections import deque
from dataclasses import dataclass

import numpy as np

from companion.cue.config import VoiceActivityConfig
from companion.cue.features import SAMPLE_RATE, as_float

STEP = 160  # 10 ms
RISE = 0.2  # nats: a step louder than this over the one before is new sound, not a fading syllable
WARM_UP = 30  # steps heard before the background is known well enough to open a phrase
# A lone syllable (shorter than ``min_phrase_s``) this close before the next stretch of speech is
# its first syllable, not a phrase of its own: a slow "In ... can-to!" closes for longer than
# ``max_gap_s`` after "In" (festival's ked at 106 words a minute, on the dev panel), and the
# phrase without it was "can-to" alone.
SYLLABLE_GAP_S = 0.3


@dataclass(frozen=True)
class Phrase:
    """A stretch of speech: (n,) float32 audio with ``margin_s`` either side, the host time of its
    first sample, and when its last syllable ended (30 dB under its peak, or into the background)."""

    audio: np.ndarray
    t_start: float
    t_end: float
    background: float  # natural log of the background power


class PhraseCutter:
    def __init__(self, config: VoiceActivityConfig = VoiceActivityConfig()) -> None:
        self.config = config
        self._pending = np.zeros(0, dtype=np.float32)
        self._pending_t = 0.0
        self._history: deque[float] = deque(maxlen=max(1, round(config.background_s * 100)))
        self._sorted: list[float] = []  # the same levels, in order
        self._margin: deque[tuple[np.ndarray, float]] = deque(maxlen=max(1, round(config.margin_s * 100)))
        self._phrase: deque[tuple[np.ndarray, float, float]] = deque(maxlen=round(config.max_phrase_s * 100))
        self._recent: deque[tuple[np.ndarray, float, float]] = deque(maxlen=max(1, config.click_median_steps))
        self._quiet_steps = 0
        self._opened_over = -23.0
        self._peak = -23.0  # the loudest step of the open phrase

    def feed(self, block: np.ndarray, t_first: float) -> list[Phrase]:
        """Take a block of (n,) int16 or float samples whose first sample was heard at ``t_first``;
        return the phrases that ended in it."""
        samples = as_float(block)
        # Re-anchoring on every block keeps the sound card's clock and the host's from drifting apart.
        self._pending = np.concatenate([self._pending, samples])
        self._pending_t = t_first - (len(self._pending) - len(samples)) / SAMPLE_RATE
        whole = len(self._pending) // STEP
        steps = self._pending[: whole * STEP].reshape(whole, STEP)
        self._pending = self._pending[whole * STEP :]
        ended = []
        for step, level in zip(steps, self.levels(steps)):
            t_step = self._pending_t
            self._pending_t += STEP / SAMPLE_RATE
            ended += self._unclicked(step, t_step, float(level))
        return ended

    def _unclicked(self, step: np.ndarray, t: float, level: float) -> list[Phrase]:
        """Each step's level as the median of the ``click_median_steps`` around it (one step
        late): a die's click or a cup's clink, louder than the chant for a few milliseconds, then
        neither opens a phrase early nor is taken for the chant's last loud moment, while a
        syllable (tens of milliseconds) keeps its level."""
        width = self.config.click_median_steps
        if width <= 1:
            return self._step(step, t, level)
        self._recent.append((step, t, level))
        if len(self._recent) < width // 2 + 1:
            return []
        middle = len(self._recent) - 1 - width // 2
        held, t_held, _ = self._recent[middle]
        return self._step(held, t_held, float(np.median([lvl for _, _, lvl in self._recent])))

    def levels(self, steps: np.ndarray) -> np.ndarray:
        """(k, STEP) -> (k,) natural log of each step's power; with ``band_hz``, only the power in
        that band (where a voice's formants are): the rumble of a fan, a fridge or traffic, and the
        hiss above the voice, no longer hide a chant from the cutter."""
        if self.config.band_hz is None:
            power = np.mean(steps.astype(np.float64) ** 2, axis=1)
        else:
            spectrum = np.abs(np.fft.rfft(steps.astype(np.float64), axis=1)) ** 2
            low, high = (round(f * STEP / SAMPLE_RATE) for f in self.config.band_hz)
            # Parseval: twice the band's bins over STEP squared is the band's share of the mean power.
            power = 2.0 * spectrum[:, low : high + 1].sum(axis=1) / STEP**2
        return np.log(power + 1e-10)

    def flush(self) -> list[Phrase]:
        """The stream ended: close any phrase still open."""
        ended = []
        width = self.config.click_median_steps
        if width > 1:  # the steps still held back for their medians
            recent = list(self._recent)
            for k in range(max(0, len(recent) - width // 2), len(recent)):
                near = recent[max(0, k - width // 2) :]
                ended += self._step(recent[k][0], recent[k][1], float(np.median([lvl for _, _, lvl in near])))
            self._recent.clear()
        return ended + (self._close() if self._phrase else [])

    @property
    def background(self) -> float:
        """The ``background_percentile`` of the recent levels (numpy's linear rule), from a list
        kept sorted as levels come and go: one step costs microseconds, not a sort."""
        if not self._sorted:
            return -23.0
        at = self.config.background_percentile / 100.0 * (len(self._sorted) - 1)
        low = int(at)
        high = min(low + 1, len(self._sorted) - 1)
        return self._sorted[low] + (at - low) * (self._sorted[high] - self._sorted[low])

    def _remember(self, level: float) -> None:
        if len(self._history) == self._history.maxlen:
            del self._sorted[bisect.bisect_left(self._sorted, self._history[0])]
        self._history.append(level)
        bisect.insort(self._sorted, level)

    def _step(self, step: np.ndarray, t: float, level: float) -> list[Phrase]:
        background = self.background
        self._remember(level)
        if not self._phrase:
            if len(self._history) > WARM_UP and level > background + self.config.start_nats:
                self._opened_over = background  # the phrase itself must not raise its own bar
                self._phrase.append((step, t, level))
                self._peak = level
                self._quiet_steps = 0
            else:
                self._margin.append((step, t))
            return []
        full = len(self._phrase) == self._phrase.maxlen  # the oldest step (maybe the peak) is about to go
        self._phrase.append((step, t, level))
        self._peak = max(lvl for _, _, lvl in self._phrase) if full else max(self._peak, level)
        peak = self._peak
        loud = level > max(background + self.config.stop_nats, peak - self.config.drop_nats)
        self._quiet_steps = 0 if loud else self._quiet_steps + 1
        if self._quiet_steps * STEP / SAMPLE_RATE >= self.config.hangover_s:
            return self._close()
        return []

    def _close(self) -> list[Phrase]:
        steps = list(self._phrase)
        self._phrase.clear()
        self._quiet_steps = 0
        levels = np.array([lvl for _, _, lvl in steps])
        found = self._phrases_of(steps, levels, self._opened_over)
        self._margin.clear()
        return found

    def _phrases_of(self, steps: list[tuple[np.ndarray, float, float]], levels: np.ndarray, background: float) -> list[Phrase]:
        """Every stretch of loud steps set apart by a breath is a phrase of its own: chatter before
        a called chant, and chatter after it, are judged apart from it rather than dropping it."""
        cfg = self.config
        loud = np.flatnonzero(levels > max(background + cfg.start_nats, levels.max() - cfg.drop_nats))
        runs = _glued(_runs(loud, round(cfg.max_gap_s * 100)), round(cfg.min_phrase_s * 100), round(SYLLABLE_GAP_S * 100))
        stops = [int(run[0]) for run in runs[1:]] + [len(levels)]
        found = [self._phrase_of(steps, levels[:stop], int(run[0]), background) for run, stop in zip(runs, stops)]
        return [phrase for phrase in found if phrase is not None]

    def _phrase_of(self, steps: list[tuple[np.ndarray, float, float]], levels: np.ndarray, first: int,
                   background: float) -> Phrase | None:
        """The phrase whose speech starts at step ``first`` and ends by the end of ``levels``."""
        cfg = self.config
        peak = levels[first:].max()
        last_strong = first + int(np.flatnonzero(levels[first:] > peak - cfg.end_nats)[-1])
        fading = max(background + cfg.stop_nats, peak - cfg.tail_nats)
        last = _tail_end(levels, last_strong, fading, round(cfg.max_tail_s * 100))
        if (last - first + 1) * STEP / SAMPLE_RATE < cfg.min_phrase_s:
            return None
        keep = round(cfg.margin_s * 100)
        missing = keep - first  # margin steps that came before the phrase opened
        before = list(self._margin)[-missing:] if missing > 0 else []
        chunks = before + [(s, t) for s, t, _ in steps[max(0, first - keep) : last + 1 + keep]]
        audio = np.concatenate([s for s, _ in chunks])
        t_end = steps[last][1] + STEP / SAMPLE_RATE
        return Phrase(audio, chunks[0][1], t_end, background)


def _tail_end(levels: np.ndarray, last_strong: int, fading: float, longest: int) -> int:
    """The last step of the decay after the last strong one: above ``fading``, still falling, and
    at most ``longest`` steps on. Chatter after the chant stops the fall, so it is not taken for
    the tail."""
    run = last_strong
    while (run + 1 < len(levels) and run < last_strong + longest and levels[run + 1] > fading
           and levels[run + 1] < levels[run] + RISE):
        run += 1
    return run


def _runs(loud: np.ndarray, max_gap: int) -> list[np.ndarray]:
    """The loud steps split at every silence longer than ``max_gap`` steps: the gaps inside a
    chant are short closures, while chatter before or after a called chant is set apart by a breath."""
    breaks = np.flatnonzero(np.diff(loud) > max_gap + 1)
    return [run for run in np.split(loud, breaks + 1) if len(run)]


def _glued(runs: list[np.ndarray], shortest: int, max_gap: int) -> list[np.ndarray]:
    """Each run too short to be a phrase (a lone syllable) joined to the run after it when that
    follows within ``max_gap`` steps; longer runs stay apart (a breath still splits phrases)."""
    joined: list[np.ndarray] = []
    for run in runs:
        if joined and joined[-1][-1] - joined[-1][0] + 1 < shortest and run[0] - joined[-1][-1] - 1 <= max_gap:
            joined[-1] = np.concatenate([joined[-1], run])
        else:
            joined.append(run)
    return joined

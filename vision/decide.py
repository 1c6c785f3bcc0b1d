"""Deciding a casting over a short window after the cue.

A wand is read only once it has been still for ``settle_ms`` (so a wand still moving is never read);
the casting is decided no earlier than ``window_ms`` after the cue and only when every wand in play is
still or has been unseen for ``missing_ms`` (so a late re-aim inside the window is noticed). Each
still wand is then scored on its pose averaged over the still frames, and gets a target only when the
best token is likely (``min_confidence``) and clearly ahead of the runner-up (``margin``); otherwise
it is "unsure". A wand never seen, or hidden when the casting is decided, is "missing"; one seen coming in
this casting and then lost under a fist (nothing of it in view, ``vision.lost_tip``) is asked as hidden,
with the tokens it can be on.

A casting someone watches (``watch``: the table side lights each wand's LED from it) is told every
wand's reading as it stands after each frame and which wands it has taken as read (a target held
for ``settle_ms`` after the window), and waits for the others until ``give_up_ms``: their players see
the LED blink and touch down or move the fist. Whatever is not taken as read by then is asked, so the
tablet asks only for what is still unsure when time runs out. A wand read on every frame gets many
tries at a wrong token: one still wand read as lifted after the window (its switch open while its line
names another token) and at a token later, without moving in between, wavers, and is not taken until
its player moves it: a wand held high and aimed from afar flickers so between a question and the
token under its tip.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from collections.abc import Callable, Mapping

import numpy as np

from vision.axis import WandAxis
from vision.config import DecideConfig
from vision.scoring import TokenScores

TARGET, UNSURE, MISSING, NONE = "target", "unsure", "missing", "none"
# Why a wand got no target, for the tablet's question (``companion.web.questions`` says it in words):
# the tip near two tokens; partly hidden; lifted (switch open) with the wand leaning to another token;
# run into a patch of its colour; aimed from afar without a clear margin; still moving; not seen; at
# no token.
WHY = ("between", "hidden", "lifted", "merged", "aim", "moving", "unseen", "nothing")
RICHER = ("lost", "tip", "shaft", "hand", "flag", "band")  # axis kinds, least to most informative
LOST = "lost"  # nothing of the wand in view; its tip where it was last seen (``vision.lost_tip``)
NONE_OVER = 0.5  # "no candidate" holding more than half the evidence: pointing at no token


@dataclass(frozen=True)
class WandReading:
    """The verdict for one wand: the engine-facing dict is ``as_dict()``."""

    wand: int
    status: str
    target: str | None
    confidence: float
    runner_up: str | None
    scores: dict[str, float]
    axis_source: str | None = None
    best: str | None = None  # the leading token even when not sure: the tablet offers it first
    why: str = ""  # one of WHY when there is no target

    def as_dict(self) -> dict:
        return {"wand": self.wand, "status": self.status, "target": self.target, "confidence": round(self.confidence, 4),
                "runner_up": self.runner_up, "best": self.best, "axis": self.axis_source,
                "scores": {k: round(v, 4) for k, v in self.scores.items()}, "why": self.why}


@dataclass
class WandTrack:
    """The recent sightings of one wand: (t, axis) pairs, newest last; ``last_seen`` in seconds."""

    strength: int
    history: deque = field(default_factory=lambda: deque(maxlen=64))
    last_seen: float | None = None
    lost: deque = field(default_factory=lambda: deque(maxlen=64))  # (t, axis) of frames showing nothing of it

    def add(self, t: float, axis: WandAxis | None) -> None:
        if axis is None:
            return
        if axis.source == LOST:
            # Nothing of the wand is seen: it is not in view, and does not look still; kept for a wand the
            # casting would otherwise call missing.
            self.lost.append((t, axis))
            return
        self.history.append((t, axis))
        self.last_seen = t

    def lost_since(self, now: float, cfg: DecideConfig) -> list[WandAxis] | None:
        """What stood for a wand lost under a fist over the last ``settle_ms`` since it was last seen (one
        per frame, the newest from ``now``), or None."""
        start = max(now - cfg.settle_ms / 1000, self.last_seen if self.last_seen is not None else -np.inf)
        recent = [a for t, a in self.lost if t >= start - 1e-6]
        return recent if recent and self.lost[-1][0] >= now - 1e-6 else None

    def still_since(self, now: float, cfg: DecideConfig) -> list[WandAxis] | None:
        """The sightings covering the last ``settle_ms`` if the wand is in view now and its tip stayed
        put through them, else None."""
        if self.last_seen is None or self.last_seen < now - 1e-6:
            return None
        window = self._window(now - cfg.settle_ms / 1000)
        return [a for _, a in window] if window and _still([a.tip_px for _, a in window], cfg) else None

    def _window(self, start: float) -> list[tuple[float, WandAxis]]:
        """Sightings from the last one at or before ``start`` on, so they span the whole window; empty
        if the wand was not yet seen then."""
        frames = list(self.history)
        first = max((i for i, (t, _) in enumerate(frames) if t <= start + 1e-6), default=None)
        return [] if first is None else frames[first:]


def _still(tips_px: list[np.ndarray], cfg: DecideConfig) -> bool:
    """Tips (2,) each: within ``settle_px`` of their mean, and no more than ``drift_px`` from first to
    last (tremor goes back and forth; a wand still gliding in drifts one way)."""
    tips = np.array(tips_px)
    spread = float(np.max(np.linalg.norm(tips - tips.mean(axis=0), axis=1)))
    return spread <= cfg.settle_px and float(np.linalg.norm(tips[-1] - tips[0])) <= cfg.drift_px


def averaged(axes: list[WandAxis]) -> WandAxis:
    """One axis from a still wand's frames: mean tip, mean back point of the commonest kind, mean bead
    radius; where a tip partly hidden in some frames may be."""
    # A tie goes to the plainer kind (a line seen in only half the frames is as likely a passing shadow),
    # never to the set's order, which changes with Python's hash seed.
    kind = max({a.source for a in axes}, key=lambda s: (sum(a.source == s for a in axes), -RICHER.index(s)))
    same = [a for a in axes if a.source == kind]
    backs = [a.back_px for a in same if a.back_px is not None]
    back = None if same[0].back_px is None else np.mean(backs, axis=0)
    radius = float(np.mean([a.tip_radius_px for a in axes]))
    # A tip partly hidden in some frames: every place any frame puts its centre (a frame that saw the
    # bead whole, its tip), so a reading must hold for all of them.
    spread = None if all(a.spread_px is None for a in axes) else \
        np.concatenate([a.tip_px[None] if a.spread_px is None else a.spread_px for a in axes])
    return WandAxis(same[0].strength, np.mean([a.tip_px for a in axes], axis=0), back, same[0].back_from_tip_mm, kind,
                    radius, spread)


def verdict(strength: int, scores: TokenScores, cfg: DecideConfig, source: str) -> WandReading:
    """Target, or unsure when the evidence is not clear; none when no candidate fits at all."""
    ranked = scores.ranked
    if not ranked:
        return WandReading(strength, NONE, None, 0.0, None, {}, source, why="nothing")
    best, s1 = ranked[0]
    runner, s2 = ranked[1] if len(ranked) > 1 else (None, 0.0)
    confidence = scores.posterior[best]
    none_share = 1.0 - sum(scores.posterior.values())
    if none_share > NONE_OVER:
        return WandReading(strength, NONE, None, none_share, runner, scores.scores, source, best, "nothing")
    if confidence >= cfg.min_confidence and s1 >= cfg.margin * s2:
        return WandReading(strength, TARGET, best, confidence, runner, scores.scores, source, best)
    return WandReading(strength, UNSURE, None, confidence, runner, scores.scores, source, best, "aim")


@dataclass(frozen=True)
class CastingResult:
    """Every wand's verdict; ``decided_at`` in the frames' clock; ``waited_for`` names wands that kept
    moving until ``give_up_ms``."""

    wands: dict[int, WandReading]
    decided_at: float
    cue_at: float

    def as_dicts(self) -> list[dict]:
        return [self.wands[k].as_dict() for k in sorted(self.wands)]


@dataclass(frozen=True)
class CastingSoFar:
    """A watched casting after one frame (time ``t``): each wand's reading as it stands, and which of
    them the casting has taken as read (kept whatever the wand does next)."""

    t: float
    readings: Mapping[int, WandReading]
    read: frozenset[int]


CastingWatch = Callable[[CastingSoFar], None]  # told after every frame of a watched casting


class Casting:
    """One "In-can-to!": feed it every frame's wand axes with ``observe``; it returns the result once.
    ``watch``: told each wand's reading after every frame; unsure wands are then waited for."""

    def __init__(self, cue_at: float, wands: list[int], cfg: DecideConfig,
                 read: Callable[[WandAxis], WandReading], watch: CastingWatch | None = None,
                 hear: Callable[[float, dict[int, WandAxis]], None] | None = None,
                 rests: Callable[[int], bool] | None = None) -> None:
        self.cue_at = cue_at
        self.cfg = cfg
        self.read = read
        self.hear = hear  # called with each frame's time and axes before anything is read (the tip switches)
        # Whether a wand's tip is known to rest now (its switch closed, or seen pivoting on its tip).
        self.rests = rests
        self.watch = watch
        self.tracks = {k: WandTrack(k) for k in wands}
        self.result: CastingResult | None = None
        # A watched casting's wands taken as read; when each began to read at its token; what a still,
        # unsure wand last looked like.
        self._kept: dict[int, WandReading] = {}
        self._since: dict[int, tuple[float, str | None]] = {}
        self._doubt: dict[int, WandReading] = {}
        self._wavered: set[int] = set()  # still wands read as lifted since they last moved
        self._now = cue_at  # the newest frame's time
        self._window_opens = cue_at + cfg.window_ms / 1000  # from here on, a wand may be taken as read

    def observe(self, t: float, axes: dict[int, WandAxis], timed_out: bool = False) -> CastingResult | None:
        """Add one frame (time ``t``); the result when the casting is decided, else None. ``timed_out``
        decides now as ``give_up_ms`` after the cue would (a recording that ends, a bench scene whose
        last frame stands for the seconds after it)."""
        if self.result is not None:
            return self.result
        self._now = t
        if self.hear is not None:
            # A lost wand's tip is not seen: where it was last seen is no flight for its switch to be heard in.
            self.hear(t, {k: a for k, a in axes.items() if a.source != LOST})
        for k, track in self.tracks.items():
            track.add(t, axes.get(k))
        if self.watch is not None:
            return self._watched(t, timed_out)
        if t < self._window_opens:
            return None
        still = {k: tr.still_since(t, self.cfg) for k, tr in self.tracks.items()}
        gone = {k for k, tr in self.tracks.items() if self._unseen(tr, t)}
        timed_out = timed_out or t >= self.cue_at + self.cfg.give_up_ms / 1000
        if not timed_out and any(still[k] is None and k not in gone for k in self.tracks):
            return None
        self.result = CastingResult({k: self._read(k, still[k], k in gone) for k in self.tracks}, t, self.cue_at)
        return self.result

    def _watched(self, t: float, timed_out: bool) -> CastingResult | None:
        """Every wand read on every frame and told to the watcher. From ``window_ms`` on, a wand read at
        the same token for ``settle_ms`` more is taken as read and kept (its LED stays lit even if its
        player then lifts it); the casting closes once every wand is, or at ``give_up_ms``, when every
        wand not taken is asked (``_asked``)."""
        after_window = t >= self._window_opens
        readings: dict[int, WandReading] = {}
        for k, track in self.tracks.items():
            reading = self._kept.get(k) or self._read(k, track.still_since(t, self.cfg), self._unseen(track, t))
            if k not in self._kept:
                self._consider(k, t, reading, after_window)
            readings[k] = reading
        assert self.watch is not None
        self.watch(CastingSoFar(t, readings, frozenset(self._kept)))
        timed_out = timed_out or t >= self.cue_at + self.cfg.give_up_ms / 1000
        if after_window and (timed_out or len(self._kept) == len(self.tracks)):
            self.result = CastingResult({k: self._asked(k, r) for k, r in readings.items()}, t, self.cue_at)
        return self.result

    def _consider(self, k: int, t: float, reading: WandReading, after_window: bool) -> None:
        """Keep a wand once it has been read at the same token for ``settle_ms`` (a wand at rest, or
        one gliding slowly over a token, is not taken); note what a still but unsure wand looked like."""
        if reading.why == "moving" or (reading.status == TARGET and self.rests is not None and self.rests(k)):
            # A new pose: what the wand looked like before no longer counts. Nor does it once its tip is
            # known to rest: a wand aimed from afar flickers between "lifted" and the token under its tip
            # with its switch open; a player who presses until it clicks, or leans the wand anew
            # without lifting the tip, has answered the doubt.
            self._wavered.discard(k)
        if reading.status != TARGET:
            self._since.pop(k, None)
            if reading.status == UNSURE and reading.why != "moving":
                self._doubt[k] = reading
                if after_window and reading.why == "lifted":
                    self._wavered.add(k)
            return
        since = self._since.get(k)
        if since is None or since[1] != reading.target:
            self._since[k] = (t, reading.target)
        # Held at the token for ``settle_ms`` within the window: a wand resting on a token since before
        # the cue is often the one about to move to its target (players hold their wands over the
        # table while the caller chants), and the first frames of that move barely shift its tip.
        elif after_window and t - max(since[0], self._window_opens) >= self.cfg.settle_ms / 1000 \
                and k not in self._wavered:
            self._kept[k] = reading

    def _asked(self, k: int, reading: WandReading) -> WandReading:
        """At the close of a watched casting, a wand not taken as read is asked, with what the casting
        made of it while it was still (its player may have lifted it since; "at no token" then would be a
        guess); one read at a token right then (too late to be kept) is read so, as unwatched, unless it
        wavered (then it is asked with its doubt)."""
        if k in self._kept or (reading.status == TARGET and k not in self._wavered):
            return reading
        doubt = self._doubt.get(k)
        if doubt is not None:
            return doubt
        return replace(reading, status=UNSURE, target=None) if reading.status == NONE else reading

    def _unseen(self, track: WandTrack, t: float) -> bool:
        since = track.last_seen if track.last_seen is not None and track.last_seen >= self.cue_at else self.cue_at
        return t - since >= self.cfg.missing_ms / 1000

    def _read(self, k: int, still: list[WandAxis] | None, gone: bool) -> WandReading:
        if gone:
            # Unseen, yet seen on its way in this casting and lost under a fist: asked as hidden, with the
            # tokens it can be on (``vision.lost_tip``), rather than as never come to the table.
            lost = self.tracks[k].lost_since(self._now, self.cfg)
            return self.read(averaged(lost)) if lost else WandReading(k, MISSING, None, 0.0, None, {}, why="unseen")
        if still is None:  # still moving when time ran out
            return WandReading(k, UNSURE, None, 0.0, None, {}, why="moving")
        reading = self.read(axis := averaged(still))
        if reading.status == TARGET and axis.source == "tip" and self.tracks[k].lost:
            # Lost under a hand this casting and seen again only as a lone patch of its paint (no band,
            # shaft or fist behind it): that may be a token of its colour beside the hidden tip.
            return replace(reading, status=UNSURE, target=None, why="hidden")
        return reading

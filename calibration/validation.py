"""Validation: "point at the highlighted token". Each round reads a casting with the real pipeline
and the profile just made; the tally says how often each wand hit, and in words what went wrong."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.words.said import Said, words_of
from vision.decide import MISSING, TARGET, UNSURE, CastingResult
from vision.frames import Frame


@dataclass(frozen=True)
class Round:
    target: str
    read: dict[int, str | None]  # each wand's reading: the place, or None when there was none
    words: list[str]  # what went wrong, one line per wand that missed

    @property
    def hits(self) -> int:
        return sum(1 for p in self.read.values() if p == self.target)


@dataclass
class Validation:
    """The rounds of one validation, over the places of one game, in a shuffled order."""

    places: Mapping[str, str]  # place -> words that describe it
    wands: Sequence[int] = (1, 2, 3, 4)
    seed: int = 0
    say: Mapping[str, Any] = field(default_factory=dict)  # place -> its words in the catalogues ({key, values})
    rounds: list[Round] = field(default_factory=list)
    order: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.order = sorted(self.places)
        random.Random(self.seed).shuffle(self.order)

    @property
    def target(self) -> str:
        """The place to point at next."""
        return self.order[len(self.rounds) % len(self.order)]

    def record(self, result: CastingResult | None) -> Round:
        wanted = self.target
        if result is None:
            done = Round(wanted, {k: None for k in self.wands},
                         [Said("calibration.check.never_still",
                               "the wands never held still long enough to be read: touch the token, then keep still a moment")])
        else:
            read = {k: (r.target if r.status == TARGET else None) for k, r in result.wands.items()}
            done = Round(wanted, read, [w for k, r in sorted(result.wands.items()) if (w := self._words(k, r, wanted))])
        self.rounds.append(done)
        return done

    def _words(self, wand: int, reading: Any, wanted: str) -> str:
        if reading.status == TARGET and reading.target == wanted:
            return ""
        if reading.status == TARGET:
            return Said("calibration.check.read_elsewhere", "wand {wand} was read at {read}, not {wanted}: touch the token "
                        "with the wand's tip bead and keep it there a moment", wand=wand, read=reading.target, wanted=wanted)
        if reading.status == UNSURE:
            return Said("calibration.check.between", "wand {wand} was between {best} and {runner_up}: touch the token "
                        "itself with the tip bead, not the space beside it", wand=wand, best=reading.best,
                        runner_up=reading.runner_up)
        if reading.status == MISSING:
            return Said("calibration.check.not_seen", "wand {wand} was not seen: is its tip in view and uncovered?", wand=wand)
        return Said("calibration.check.nothing", "wand {wand} pointed at nothing the camera knows: touch the token at {wanted}",
                    wand=wand, wanted=wanted)

    def summary(self) -> dict[str, Any]:
        tries = len(self.rounds) * len(self.wands)
        hits = sum(r.hits for r in self.rounds)
        return {"target": self.target, "target_words": self.places[self.target], "target_say": self.say.get(self.target),
                "rounds": len(self.rounds),
                "hits": hits, "tries": tries, "rate": round(hits / tries, 3) if tries else None,
                "last": self.rounds[-1].__dict__ | {"hits": self.rounds[-1].hits} if self.rounds else None,
                "problems": [w for r in self.rounds for w in r.words],
                "problems_words": [words_of(w) for r in self.rounds for w in r.words]}


class ListSource:
    """Frames gathered from the live feed, replayed to the pipeline as a FrameSource."""

    def __init__(self, frames: Sequence[Frame]) -> None:
        self.frames, self._next = list(frames), 0

    def read(self) -> Frame | None:
        if self._next >= len(self.frames):
            return None
        self._next += 1
        return self.frames[self._next - 1]

    def close(self) -> None:
        self._next = len(self.frames)

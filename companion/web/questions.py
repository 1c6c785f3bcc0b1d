"""Asking the table instead of guessing: the camera's ``CastQuestion`` waits for one tap per wand.

Every tablet sees the same open question: per asked wand its holder, the camera's picture, the
candidate places (the tap targets) and, in words, why the camera could not tell. A tap marks that
wand's answer at once on every tablet (the push stream hears each change); a player may change their
mind until every wand is answered, and only then does the engine hear of the casting. One question
at a time per casting: a second cue while one is open joins it, so the first never vanishes
mid-answer.
"""
from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.errors import MalformedAction
from companion.question import CastQuestion
from companion.web.errors import UnknownQuestion


# The camera's reasons (``vision.decide.WHY``), as the tablet says them to the wand's player.
WHY_WORDS = {
    "between": "the tip is between two tokens",
    "hidden": "the tip is hidden under a hand or another wand",
    "lifted": "the tip did not click on its token, and the wand leans to another",
    "merged": "the tip touches something of its own colour",
    "aim": "the wand points between tokens",
    "moving": "the wand was still moving",
    "unseen": "the camera did not see the tip",
    "nothing": "the wand points at no token",
    "no_pictures": "the camera sent no pictures",  # the table side's own: the camera was lost
}


@dataclass(frozen=True)
class OpenQuestion:
    """A question the tablets see: its ``id``, the camera's question, and the answers tapped so far
    (player -> place, None: at nothing)."""

    id: str
    question: CastQuestion
    marks: Mapping[str, str | None] = field(default_factory=dict)

    @property
    def base(self) -> int:
        return self.question.base

    @property
    def unsure(self) -> dict[str, list[str | None]]:
        """Player -> the places offered, best guess first."""
        return {w.player: [c.place for c in w.choices if c.place is not None] for w in self.question.wands}

    @property
    def complete(self) -> bool:
        return all(w.player in self.marks for w in self.question.wands)

    def as_dict(self) -> dict[str, Any]:
        # An unknown reason is left unsaid rather than refused: the question matters more than its why.
        # ``why_words``: the same reason as a catalogue key (companion.words), said in each tablet's language.
        wands = [{"player": w.player, "wand": w.wand, "why": WHY_WORDS.get(w.why, ""),
                  "why_words": {"key": f"question.why.{w.why}", "values": {}} if w.why in WHY_WORDS else None,
                  "picture": f"/api/questions/{self.id}/wand/{w.wand}.png" if w.picture else None,
                  "choices": [c.as_dict() for c in w.choices], "marked": w.player in self.marks,
                  "mark": self.marks.get(w.player)} for w in self.question.wands]
        return {"id": self.id, "base": self.base, "source": self.question.source, "wands": wands,
                "unsure": self.unsure, "marks": dict(self.marks),
                "why": {w.player: WHY_WORDS[w.why] for w in self.question.wands if w.why in WHY_WORDS}}


class Questions:
    """Thread-safe; the listener hears the open questions after every change."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[str, OpenQuestion] = {}
        self._ids = itertools.count(1)
        self._listeners: list[Callable[[list[dict[str, Any]]], None]] = []
        self._telling = threading.Lock()  # listeners hear the states in order: the last told is the latest

    def ask(self, question: CastQuestion) -> OpenQuestion:
        """Open ``question``, or return the one already open for the same casting (a second cue)."""
        with self._lock:
            if (joined := self._for(question.base)) is not None:
                return joined
            asked = OpenQuestion(f"q{next(self._ids)}", question)
            self._open[asked.id] = asked
        self._tell()
        return asked

    def asking(self, version: int) -> OpenQuestion | None:
        """The question open for the casting at game version ``version``, if any."""
        with self._lock:
            return self._for(version)

    def _for(self, version: int) -> OpenQuestion | None:
        return next((q for q in self._open.values() if q.base == version), None)

    def get(self, question_id: str) -> OpenQuestion:
        with self._lock:
            if question_id not in self._open:
                raise UnknownQuestion(f"no open question {question_id!r}: it was answered or withdrawn")
            return self._open[question_id]

    def mark(self, question_id: str, targets: Mapping[str, str | None]) -> OpenQuestion:
        """Mark the tapped answers (a later tap for the same wand replaces its mark); refused whole,
        naming the player, when a tap is for a wand the question does not ask about."""
        with self._lock:
            if question_id not in self._open:
                raise UnknownQuestion(f"no open question {question_id!r}: it was answered or withdrawn")
            asked = self._open[question_id]
            players = [w.player for w in asked.question.wands]
            if unknown := sorted(set(targets) - set(players)):
                raise MalformedAction(f"the camera was sure about {unknown!r}; only {players!r} are asked")
            if not targets:
                raise MalformedAction(f"a tap answers at least one wand of {players!r}")
            marked = replace(asked, marks={**asked.marks, **targets})
            self._open[question_id] = marked
        self._tell()
        return marked

    def close(self, question_id: str) -> None:
        with self._lock:
            found = self._open.pop(question_id, None)
        if found:
            self._tell()

    def withdraw_older_than(self, version: int) -> None:
        """A reading made before the game moved on no longer describes the table."""
        with self._lock:
            stale = [q for q in self._open.values() if q.base < version]
            for q in stale:
                del self._open[q.id]
        if stale:
            self._tell()

    def withdraw_all(self) -> None:
        self.withdraw_older_than(2**63)

    def open(self) -> list[dict[str, Any]]:
        with self._lock:
            return [q.as_dict() for q in self._open.values()]

    def subscribe(self, listener: Callable[[list[dict[str, Any]]], None]) -> None:
        self._listeners.append(listener)

    def _tell(self) -> None:
        with self._telling:
            questions = self.open()
            for listener in list(self._listeners):
                listener(questions)

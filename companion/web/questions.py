"""Asking the table instead of guessing: a camera reading with "unsure" wands waits for a tap.

The camera proposes a casting keyed by wand strength (``{"type": "cast", "targets": {"4": "r2", ...},
"unsure": [2], "why": {"2": "between"}}``). The table sees it with the camera's best guess, the
candidates for each unsure wand and, in words, why the camera could not tell; one tap confirms the
guess or picks another target, and only then does the engine hear of it.
"""
from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

from companion.errors import MalformedAction
from companion.web.errors import UnknownQuestion


# The camera's reasons (``vision.decide.WHY``), as the tablet says them to the wand's player.
WHY_WORDS = {
    "between": "the tip is between two tokens",
    "hidden": "the tip is partly hidden",
    "lifted": "the tip did not click on its token, and the wand leans to another",
    "merged": "the tip touches something of its own colour",
    "aim": "the wand points between tokens",
    "moving": "the wand was still moving",
    "unseen": "the camera did not see the tip",
    "nothing": "the wand points at no token",
    "no_pictures": "the camera sent no pictures",  # the table side's own: the camera was lost
}


@dataclass(frozen=True)
class Question:
    id: str
    action: dict[str, Any]  # the proposed action, keyed by player, holding the best guesses
    unsure: dict[str, list[str | None]]  # player -> candidate targets, best guess first
    base: int  # the game version the reading was made at
    source: str = "camera"
    why: dict[str, str] = field(default_factory=dict)  # player -> why the camera asks, in words

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "action": self.action, "unsure": self.unsure, "base": self.base,
                "source": self.source, "why": self.why}

    def resolve(self, targets: dict[str, str | None]) -> dict[str, Any]:
        """The action with the table's answers for the unsure wands; other wands stay as seen."""
        if unknown := sorted(set(targets) - set(self.unsure)):
            raise MalformedAction(f"the camera was sure about {unknown!r}; only {sorted(self.unsure)!r} are asked")
        if missing := sorted(set(self.unsure) - set(targets)):
            raise MalformedAction(f"answer every unsure wand: {missing!r} not answered")
        return {**self.action, "targets": {**self.action["targets"], **targets}}


class Questions:
    """Thread-safe; the listener hears the open questions after every change."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[str, Question] = {}
        self._ids = itertools.count(1)
        self._listeners: list[Callable[[list[dict[str, Any]]], None]] = []

    def ask_cast(self, reading: dict[str, Any], wands: dict[str, int], base: int,
                 candidates: dict[int, list[str | None]] | None = None) -> Question:
        """Turn a camera reading keyed by wand strength into a question keyed by player."""
        holder = {strength: player for player, strength in wands.items()}
        targets = {_player(holder, s): t for s, t in _strength_keys(reading.get("targets")).items()}
        unsure = {_player(holder, s): list((candidates or {}).get(s) or [targets[_player(holder, s)]])
                  for s in _strengths(reading.get("unsure", []))}
        action = {"type": reading.get("type", "cast"), "targets": targets}
        why = reading.get("why") or {}
        # An unknown reason is left unsaid rather than refused: the question matters more than its why.
        words = {player: WHY_WORDS[code] for s, code in (_strength_keys(why).items() if isinstance(why, dict) else ())
                 if (player := holder.get(s)) in unsure and isinstance(code, str) and code in WHY_WORDS}
        question = Question(f"q{next(self._ids)}", action, unsure, base, str(reading.get("source", "camera")), words)
        with self._lock:
            self._open[question.id] = question
        self._tell()
        return question

    def get(self, question_id: str) -> Question:
        with self._lock:
            if question_id not in self._open:
                raise UnknownQuestion(f"no open question {question_id!r}: it was answered or withdrawn")
            return self._open[question_id]

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
        questions = self.open()
        for listener in list(self._listeners):
            listener(questions)


def _strength_keys(targets: Any) -> dict[int, str | None]:
    if not isinstance(targets, dict):
        raise MalformedAction(f"a camera reading needs 'targets' by wand strength, not {targets!r}")
    return {s: t for s, t in zip(_strengths(list(targets)), targets.values())}


def _strengths(values: Any) -> list[int]:
    try:
        return [int(v) for v in values]
    except (TypeError, ValueError):
        raise MalformedAction(f"wand strengths must be whole numbers, not {values!r}") from None


def _player(holder: dict[int, str], strength: int) -> str:
    if strength not in holder:
        raise MalformedAction(f"no player holds wand {strength!r}; wands in play: {sorted(holder)!r}")
    return holder[strength]

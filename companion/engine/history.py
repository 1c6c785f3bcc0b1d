"""Which actions of a log are in effect, given its undo and redo entries.

Undo and redo are entries of the log themselves: nothing is ever removed. Folding the log gives the
stack of actions in effect (``applied``) and the stack that redo would bring back (``undone``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from companion.engine.events import ACTION, REDO, SETUP, UNDO, Event
from companion.errors import NothingToUndo


@dataclass
class Timeline:
    applied: list[int] = field(default_factory=list)  # seqs of the actions in effect, oldest first
    undone: list[int] = field(default_factory=list)  # seqs redo brings back, next one last

    def add(self, event: Event) -> None:
        if event.kind == ACTION:
            self.applied.append(event.seq)
            self.undone.clear()  # a new action ends the redo branch, as in every editor
        elif event.kind == UNDO:
            self._undo_to(event.undo_to)
        elif event.kind == REDO:
            self.applied.append(self.undone.pop())
        elif event.kind != SETUP:
            raise ValueError(f"unknown event kind {event.kind!r} at seq {event.seq}")

    def _undo_to(self, seq: int) -> None:
        while self.applied and self.applied[-1] != seq:
            self.undone.append(self.applied.pop())

    def check_undo_to(self, seq: int) -> None:
        """Raise unless undoing to ``seq`` (0 is the setup) would undo at least one action."""
        if not self.applied or self.applied[-1] == seq:
            raise NothingToUndo(f"nothing to undo after entry {seq!r}")
        if seq != 0 and seq not in self.applied:
            raise NothingToUndo(f"entry {seq!r} is not an action in effect; cannot undo to it")

    def check_redo(self) -> None:
        if not self.undone:
            raise NothingToUndo("nothing to redo")

"""Immutable log entries."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

EventKind = Literal["setup", "action", "undo", "redo"]
# The entries of a log: the setup, an accepted action of the game, and the engine's undo and redo.
SETUP: Final = "setup"
ACTION: Final = "action"
UNDO: Final = "undo"
REDO: Final = "redo"


@dataclass(frozen=True)
class Event:
    """One accepted entry of a game's log.

    seq: position in the log, from 0 (the setup).
    kind: ``setup``, ``action``, ``undo`` (payload ``{"to": seq}``: back to the state right after
      entry ``seq``) or ``redo``.
    payload: JSON object; for ``action`` the action exactly as proposed.
    action_id: the id the proposer gave it, so a retried tap applies once.
    at: wall-clock seconds when it was accepted (for the history, never for the rules).
    """

    seq: int
    kind: EventKind
    payload: dict[str, Any] = field(default_factory=dict)
    action_id: str | None = None
    at: float = 0.0

    @property
    def undo_to(self) -> int:
        """For an ``undo`` entry: the seq whose state it goes back to."""
        to: int = self.payload["to"]
        return to

"""Where a game's entries are kept: in memory, or durably in the SQLite store (``companion.store``)."""
from __future__ import annotations

from typing import Protocol

from companion.engine.events import Event


class EventLog(Protocol):
    def events(self) -> list[Event]:
        """Every entry, in order."""

    def append(self, event: Event) -> None:
        """Keep ``event`` for good before returning (the store commits it to disk)."""

    def find(self, action_id: str) -> Event | None:
        """The entry proposed with ``action_id``, if any."""


class MemoryLog:
    """A log that lives as long as the process: for bots, benchmarks and property tests."""

    def __init__(self) -> None:
        self._events: list[Event] = []
        self._by_id: dict[str, Event] = {}

    def events(self) -> list[Event]:
        return list(self._events)

    def append(self, event: Event) -> None:
        if event.seq != len(self._events):
            raise ValueError(f"entry {event.seq!r} does not follow entry {len(self._events) - 1}")
        self._events.append(event)
        if event.action_id:
            self._by_id[event.action_id] = event

    def find(self, action_id: str) -> Event | None:
        return self._by_id.get(action_id)

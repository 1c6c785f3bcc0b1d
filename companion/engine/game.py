"""A live game: its log, its state, and the one door every input comes through (``propose``)."""
from __future__ import annotations

import threading
import time
from random import Random
from typing import Any
from collections.abc import Callable, Mapping, Sequence

from companion.engine.actions import check_bounds
from companion.engine.events import ACTION, REDO, SETUP, UNDO, Event
from companion.engine.history import Timeline
from companion.engine.log import EventLog, MemoryLog
from companion.engine.rules import Action, Rules, State
from companion.errors import IllegalAction, MalformedAction, StaleAction

ENGINE_TYPES = {SETUP, UNDO, REDO, "undo_to"}
CHECKPOINT_EVERY = 16  # states kept for undo: one per 16 actions, plus the current one

Listener = Callable[["Game", Event], None]


def rng_for(seed: int, seq: int) -> Random:
    """The generator for entry ``seq``: derived from the game's recorded seed and the entry alone, so
    replaying the log, or redoing an entry, draws exactly the same."""
    return Random(f"{seed}/{seq}")


class Game:
    """One game being played: validated actions in, events out, state always the fold of the log."""

    def __init__(self, rules: Rules, log: EventLog) -> None:
        self.rules = rules
        self.log = log
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        events = log.events()
        if not events or events[0].kind != SETUP:
            raise MalformedAction("a game's log must start with its setup entry")
        self.setup_event = events[0]
        self.seed: int = self.setup_event.payload["seed"]
        self._initial = rules.setup(self.players, self.options, rng_for(self.seed, 0))
        self._events: list[Event] = events[1:]
        self._timeline = Timeline()
        self._checkpoints: dict[int, State] = {0: self._initial}  # number of applied actions -> state
        self._state = self._fold_log()

    @classmethod
    def start(cls, rules: Rules, players: Sequence[str], options: Mapping[str, Any] | None = None,
              seed: int | None = None, log: EventLog | None = None) -> Game:
        """A new game; its setup (players, options, seed) is the first entry of the log."""
        if len(players) not in rules.player_counts:
            raise MalformedAction(f"{rules.title} is for {list(rules.player_counts)} players, not {len(players)!r}")
        if len(set(players)) != len(players):
            raise MalformedAction(f"player names must differ: {list(players)!r}")
        seed = Random().randrange(2**31) if seed is None else seed
        options = dict(options or {})
        rules.setup(players, options, rng_for(seed, 0))  # refuse bad options before anything is written
        payload = {"game": rules.name, "players": list(players), "options": options, "seed": seed}
        log = log if log is not None else MemoryLog()
        log.append(Event(0, SETUP, payload, at=time.time()))
        return cls(rules, log)

    # -- what the table sees -------------------------------------------------------------

    @property
    def players(self) -> list[str]:
        return list(self.setup_event.payload["players"])

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.setup_event.payload["options"])

    @property
    def state(self) -> State:
        return self._state

    @property
    def version(self) -> int:
        """The seq of the newest log entry: a page that saw version N may act only at version N."""
        return self._events[-1].seq if self._events else 0

    def view(self) -> dict[str, Any]:
        with self._lock:
            view = self.rules.public_view(self._state)
            return {**view, "game": self.rules.name, "version": self.version,
                    "scores": self.rules.score(self._state), "legal": self.rules.legal_actions(self._state),
                    "over": self.rules.is_over(self._state), "can_undo": bool(self._timeline.applied),
                    "can_redo": bool(self._timeline.undone)}

    def history(self) -> list[dict[str, Any]]:
        """Every entry from the setup on, newest last, each action marked whether it is in effect now
        (undone entries stay listed, as they stay in the log)."""
        in_effect = set(self._timeline.applied)
        return [{"seq": e.seq, "kind": e.kind, "payload": e.payload, "at": e.at,
                 "in_effect": e.seq in in_effect if e.kind == ACTION else None}
                for e in [self.setup_event, *self._events]]

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(game, event)`` after each accepted entry; returns the unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    # -- the one door in ------------------------------------------------------------------

    def propose(self, action: Action, action_id: str | None = None, base: int | None = None) -> Event:
        """Validate ``action`` against the current state; if legal, log it durably and apply it.

        A retried proposal with an ``action_id`` already in the log returns the original entry.
        ``base`` is the version the proposer saw; an older one is refused as stale.
        Raises IllegalAction (every problem at once), MalformedAction or StaleAction; on any error
        nothing changed.
        """
        check_bounds(action)
        if not isinstance(action.get("type"), str):
            raise MalformedAction("an action needs a string 'type'")
        kind = action["type"]
        if kind == "undo":
            return self.undo(action_id, base)
        if kind == "redo":
            return self.redo(action_id, base)
        if kind == "undo_to":
            return self.undo_to(_seq_field(action), action_id, base)
        with self._lock:
            if (done := self._already(action_id)) is not None:
                return done
            self._check_base(base)
            action = self.rules.parse_action(action)  # only the validated action goes further
            problems = self.rules.check(self._state, action)
            if problems:
                raise IllegalAction(problems)
            return self._commit(ACTION, action, action_id)

    def undo(self, action_id: str | None = None, base: int | None = None) -> Event:
        with self._lock:
            applied = self._timeline.applied
            to = applied[-2] if len(applied) >= 2 else 0
            return self._undo(to, action_id, base)

    def undo_to(self, seq: int, action_id: str | None = None, base: int | None = None) -> Event:
        """Back to the state right after entry ``seq`` (0: the start of the game)."""
        with self._lock:
            return self._undo(seq, action_id, base)

    def redo(self, action_id: str | None = None, base: int | None = None) -> Event:
        with self._lock:
            if (done := self._already(action_id)) is not None:
                return done
            self._check_base(base)
            self._timeline.check_redo()
            return self._commit(REDO, {}, action_id)

    # -- inside ---------------------------------------------------------------------------

    def _undo(self, to: int, action_id: str | None, base: int | None) -> Event:
        if (done := self._already(action_id)) is not None:
            return done
        self._check_base(base)
        self._timeline.check_undo_to(to)
        return self._commit(UNDO, {"to": to}, action_id)

    def _already(self, action_id: str | None) -> Event | None:
        return self.log.find(action_id) if action_id else None

    def _check_base(self, base: int | None) -> None:
        if base is not None and base != self.version:
            raise StaleAction(base, self.version)

    def _commit(self, kind: str, payload: dict[str, Any], action_id: str | None) -> Event:
        event = Event(self.version + 1, kind, payload, action_id, time.time())
        # Apply first on a scratch copy of the timeline: if the rules fail, nothing is written.
        state = self._next_state(event)
        self.log.append(event)  # durable before anyone hears of it
        self._accept(event, state)
        for listener in list(self._listeners):
            listener(self, event)
        return event

    def _fold_log(self) -> State:
        """The state of a log read back (a restart, a replay). The timeline is settled first, so only
        the actions in effect are applied: an undone branch costs nothing to read back."""
        for event in self._events:
            self._timeline.add(event)
        state = self._initial
        for n, seq in enumerate(self._timeline.applied, start=1):
            state = self.rules.apply(state, self._event(seq).payload, rng_for(self.seed, seq))
            if n % CHECKPOINT_EVERY == 0:
                self._checkpoints[n] = state
        return state

    def _next_state(self, event: Event) -> State:
        if event.kind == ACTION:
            return self.rules.apply(self._state, event.payload, rng_for(self.seed, event.seq))
        if event.kind == REDO:
            seq = self._timeline.undone[-1]
            return self.rules.apply(self._state, self._event(seq).payload, rng_for(self.seed, seq))
        timeline = Timeline(list(self._timeline.applied), list(self._timeline.undone))
        timeline.add(event)
        return self._state_at(timeline.applied)

    def _accept(self, event: Event, state: State) -> None:
        self._events.append(event)
        self._timeline.add(event)
        self._state = state
        n = len(self._timeline.applied)
        if n % CHECKPOINT_EVERY == 0:
            self._checkpoints[n] = state
        # Checkpoints beyond the actions in effect belong to an undone branch.
        for stale in [k for k in self._checkpoints if k > n]:
            del self._checkpoints[stale]

    def _state_at(self, applied: list[int]) -> State:
        """The fold of ``applied`` (a prefix of the actions in effect) from the nearest checkpoint.
        A checkpoint exists at every multiple of CHECKPOINT_EVERY up to the actions in effect."""
        start = len(applied) // CHECKPOINT_EVERY * CHECKPOINT_EVERY
        state = self._checkpoints[start]
        for seq in applied[start:]:
            state = self.rules.apply(state, self._event(seq).payload, rng_for(self.seed, seq))
        return state

    def _event(self, seq: int) -> Event:
        return self._events[seq - 1]  # entry 0 is the setup, kept apart


def _seq_field(action: Action) -> int:
    seq = action.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise MalformedAction(f"undo_to needs a non-negative integer 'seq', not {seq!r}")
    return seq

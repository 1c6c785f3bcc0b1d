"""A live game: its log, its state, and the one door every input comes through (``propose``)."""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from random import Random
from typing import Any, Generic, TypeVar

from companion.engine.actions import ActionModel, Proposal, check_bounds
from companion.engine.events import ACTION, REDO, SETUP, UNDO, Event, EventKind
from companion.engine.history import Timeline
from companion.engine.log import EventLog, MemoryLog
from companion.engine.rules import Rules
from companion.engine.setup import Setup
from companion.errors import IllegalAction, MalformedAction, StaleAction, short_repr

CHECKPOINT_EVERY = 16  # states kept for undo: one per 16 actions, plus the current one

S = TypeVar("S")  # the game's state
A = TypeVar("A", bound=ActionModel)  # the game's actions
Listener = Callable[["Game[Any, Any]", Event], None]
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Moment(Generic[S]):
    """The game right after one entry: what a listener of that entry is shown."""

    event: Event
    state: S
    applied: tuple[int, ...]
    can_redo: bool

    @property
    def version(self) -> int:
        return self.event.seq


def rng_for(seed: int, seq: int) -> Random:
    """The generator for entry ``seq``: derived from the game's recorded seed and the entry alone, so
    replaying the log, or redoing an entry, draws exactly the same."""
    return Random(f"{seed}/{seq}")


class Game(Generic[S, A]):
    """One game being played: validated actions in, events out, state always the fold of the log.

    The log keeps each action's payload (plain JSON); the rules are handed the game's own model of it,
    parsed once per entry, whether it was just proposed or read back from the store."""

    def __init__(self, rules: Rules[S, A], log: EventLog, initial: S | None = None) -> None:
        """The game whose log is ``log`` (read back: a restart, a replay). ``initial``: the state its
        setup entry makes, when the caller has just built it (``start``)."""
        self.rules = rules
        self.log = log
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._outbox: deque[Moment[S]] = deque()  # committed entries not yet told to the listeners, oldest first
        self._telling = threading.Lock()  # held by the one thread telling the listeners
        self._local = threading.local()  # the moment being told, in the thread telling it
        events = log.events()
        if not events or events[0].kind != SETUP:
            raise MalformedAction("a game's log must start with its setup entry")
        self.setup_event = events[0]
        self.setup = Setup.stored(self.setup_event.payload)
        self.seed: int = self.setup.seed
        self._initial = initial if initial is not None else initial_state(rules, self.setup)
        self._events: list[Event] = events[1:]
        self._timeline = Timeline()
        self._actions: dict[int, A] = {}  # seq -> the model of that entry's action, parsed once
        self._checkpoints: dict[int, S] = {0: self._initial}  # number of applied actions -> state
        self._state = self._fold_log()

    @classmethod
    def start(cls, rules: Rules[S, A], players: Sequence[str], options: Mapping[str, Any] | None = None,
              seed: int | None = None, log: EventLog | None = None,
              position: Mapping[str, Any] | None = None) -> Game[S, A]:
        """A new game; its setup (players, options, seed, and the position it starts from, if any) is
        the first entry of the log. Every check is made before anything is written."""
        setup, initial = prepare(rules, players, options, seed, position)
        log = log if log is not None else MemoryLog()
        log.append(setup)
        return cls(rules, log, initial)

    # -- what the table sees -------------------------------------------------------------

    @property
    def players(self) -> list[str]:
        return list(self.setup.players)

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.setup.options)

    @property
    def state(self) -> S:
        told = self._told()
        return told.state if told else self._state

    @property
    def version(self) -> int:
        """The seq of the newest log entry: a page that saw version N may act only at version N."""
        told = self._told()
        return told.event.seq if told else self._head()

    def view(self) -> dict[str, Any]:
        with self._lock:
            moment = self._told() or self._moment()
            state = moment.state
            view = self.rules.public_view(state)
            return {**view, "game": self.rules.name, "version": moment.version,
                    "scores": self.rules.score(state), "legal": self.rules.legal_actions(state),
                    "over": self.rules.is_over(state), "can_undo": bool(moment.applied),
                    "can_redo": moment.can_redo}

    def history(self) -> list[dict[str, Any]]:
        """Every entry from the setup on, newest last, each action marked whether it is in effect now
        (undone entries stay listed, as they stay in the log)."""
        with self._lock:
            moment = self._told() or self._moment()
            in_effect = set(moment.applied)
            return [{"seq": e.seq, "kind": e.kind, "payload": e.payload, "at": e.at,
                     "in_effect": e.seq in in_effect if e.kind == ACTION else None}
                    for e in [self.setup_event, *self._events[:moment.version]]]

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(game, event)`` after each accepted entry; returns the unsubscribe function.

        Listeners hear every entry once, in seq order, after it is on disk and outside the game's lock:
        a slow listener never holds up another thread's proposal (only the call that is telling it).
        Inside the call, ``state``, ``version``, ``view()`` and ``history()`` show the game as it stood
        right after that entry, even if other threads have moved it on since."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    # -- the one door in ------------------------------------------------------------------

    def propose(self, action: Mapping[str, Any], action_id: str | None = None, base: int | None = None) -> Event:
        """Validate ``action`` against the current state; if legal, log it durably and apply it.

        A retried proposal with an ``action_id`` already in the log returns the original entry.
        ``base`` is the version the proposer saw; an older one is refused as stale.
        Raises IllegalAction (every problem at once), MalformedAction or StaleAction; on any error
        nothing changed.
        """
        kind = _engine_type(action)
        if kind == "undo":
            return self.undo(action_id, base)
        if kind == "redo":
            return self.redo(action_id, base)
        if kind == "undo_to":
            return self.undo_to(_seq_field(action), action_id, base)
        with self._turn():
            if (done := self._already(action_id)) is not None:
                return done
            self._check_base(base)
            model = self.rules.parse_action(action)  # only the validated action goes further
            problems = self.rules.check(self._state, model)
            if problems:
                raise IllegalAction(problems)
            return self._commit(ACTION, model.payload(), action_id, model)

    def undo(self, action_id: str | None = None, base: int | None = None) -> Event:
        with self._turn():
            applied = self._timeline.applied
            to = applied[-2] if len(applied) >= 2 else 0
            return self._undo(to, action_id, base)

    def undo_to(self, seq: int, action_id: str | None = None, base: int | None = None) -> Event:
        """Back to the state right after entry ``seq`` (0: the start of the game)."""
        with self._turn():
            return self._undo(seq, action_id, base)

    def redo(self, action_id: str | None = None, base: int | None = None) -> Event:
        with self._turn():
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
        if base is not None and base != self._head():
            raise StaleAction(base, self._head())

    def _commit(self, kind: EventKind, payload: Proposal, action_id: str | None, model: A | None = None) -> Event:
        event = Event(self._head() + 1, kind, payload, action_id, time.time())
        if model is not None:
            self._actions[event.seq] = model
        # Apply first on a scratch copy of the timeline: if the rules fail, nothing is written.
        try:
            state = self._next_state(event)
        except BaseException:
            self._actions.pop(event.seq, None)
            raise
        self.log.append(event)  # durable before anyone hears of it
        self._accept(event, state)
        if self._listeners:  # told once the lock is released (``_turn``)
            self._outbox.append(self._moment())
        return event

    def _head(self) -> int:
        return self._events[-1].seq if self._events else 0

    def _moment(self) -> Moment[S]:
        return Moment(self._events[-1] if self._events else self.setup_event, self._state,
                      tuple(self._timeline.applied), bool(self._timeline.undone))

    def _told(self) -> Moment[S] | None:
        moment: Moment[S] | None = getattr(self._local, "moment", None)
        return moment

    @contextmanager
    def _turn(self) -> Iterator[None]:
        """The game's lock for one proposal; the listeners hear of what it committed after it is released."""
        try:
            with self._lock:
                yield
        finally:
            self._tell()

    def _tell(self) -> None:
        """Tell the listeners every committed entry, in order. One thread tells at a time; a thread that
        finds another telling leaves its entries to it (they are queued behind the ones being told), so
        a proposal never waits for a listener of another thread's entry."""
        while self._outbox and self._telling.acquire(blocking=False):
            try:
                while self._outbox:
                    self._local.moment = moment = self._outbox.popleft()
                    for listener in list(self._listeners):
                        self._call(listener, moment.event)
            finally:
                self._local.moment = None
                self._telling.release()
            # An entry queued after the inner loop emptied the outbox, by a thread that found us still
            # telling, is picked up by the outer loop's next turn.

    def _call(self, listener: Listener, event: Event) -> None:
        try:
            listener(self, event)
        except Exception:  # the entry is committed: a failing listener must not hide it from the others
            logger.exception("listener %r failed on entry %d", listener, event.seq)

    def _fold_log(self) -> S:
        """The state of a log read back (a restart, a replay). The timeline is settled first, so only
        the actions in effect are applied: an undone branch costs nothing to read back."""
        for event in self._events:
            self._timeline.add(event)
        state = self._initial
        for n, seq in enumerate(self._timeline.applied, start=1):
            state = self._apply(state, seq)
            if n % CHECKPOINT_EVERY == 0:
                self._checkpoints[n] = state
        return state

    def _next_state(self, event: Event) -> S:
        if event.kind == ACTION:
            return self._apply(self._state, event.seq)
        if event.kind == REDO:
            return self._apply(self._state, self._timeline.undone[-1])
        timeline = Timeline(list(self._timeline.applied), list(self._timeline.undone))
        timeline.add(event)
        return self._state_at(timeline.applied)

    def _accept(self, event: Event, state: S) -> None:
        self._events.append(event)
        self._timeline.add(event)
        self._state = state
        n = len(self._timeline.applied)
        if n % CHECKPOINT_EVERY == 0:
            self._checkpoints[n] = state
        # Checkpoints beyond the actions in effect belong to an undone branch.
        for stale in [k for k in self._checkpoints if k > n]:
            del self._checkpoints[stale]

    def _state_at(self, applied: list[int]) -> S:
        """The fold of ``applied`` (a prefix of the actions in effect) from the nearest checkpoint.
        A checkpoint exists at every multiple of CHECKPOINT_EVERY up to the actions in effect."""
        start = len(applied) // CHECKPOINT_EVERY * CHECKPOINT_EVERY
        state = self._checkpoints[start]
        for seq in applied[start:]:
            state = self._apply(state, seq)
        return state

    def _apply(self, state: S, seq: int) -> S:
        """``state`` after the action of entry ``seq``, drawing what that entry draws."""
        return self.rules.apply(state, self._action(seq), rng_for(self.seed, seq))

    def _action(self, seq: int) -> A:
        """The model of entry ``seq``'s action: the one proposed, or its stored payload parsed again."""
        if seq not in self._actions:
            self._actions[seq] = self.rules.parse_action(self._event(seq).payload)
        return self._actions[seq]

    def _event(self, seq: int) -> Event:
        return self._events[seq - 1]  # entry 0 is the setup, kept apart


def prepare(rules: Rules[S, A], players: Sequence[str], options: Mapping[str, Any] | None = None,
            seed: int | None = None, position: Mapping[str, Any] | None = None) -> tuple[Event, S]:
    """The setup entry of a new game and the state it makes, every check done and nothing written:
    the setup's shape and the players' names (MalformedAction), the player count, the options and
    the position (the rules' ``setup`` or ``from_position``)."""
    raw = {"game": rules.name, "players": list(players) if isinstance(players, tuple) else players,
           "options": dict(options) if isinstance(options, Mapping) else {} if options is None else options,
           "seed": Random().randrange(2**31) if seed is None else seed}
    if position is not None:
        raw["position"] = dict(position) if isinstance(position, Mapping) else position
    setup = Setup.parse(raw)
    if len(setup.players) not in rules.player_counts:
        raise MalformedAction(f"{rules.title} is for {list(rules.player_counts)} players, not {len(setup.players)!r}")
    return Event(0, SETUP, setup.payload(), at=time.time()), initial_state(rules, setup)


def initial_state(rules: Rules[S, A], setup: Setup) -> S:
    """The state before the first action: the game's own setup, or the position it was started from."""
    rng = rng_for(setup.seed, 0)
    if setup.position is None:
        return rules.setup(setup.players, setup.options, rng)
    if not callable(getattr(rules, "from_position", None)):  # a game written before positions existed
        raise MalformedAction(f"{rules.title} cannot start from a position; leave 'position' out")
    return rules.from_position(setup.players, setup.options, setup.position, rng)


ENGINE_KEYS = {"undo": {"type"}, "redo": {"type"}, "undo_to": {"type", "seq"}}


def _engine_type(action: object) -> str | None:
    """The engine's own command an action is (``undo``, ``redo``, ``undo_to``), its keys checked; None
    for a game's action, which the game's declared models check (``Rules.parse_action``)."""
    if not isinstance(action, Mapping):
        check_bounds(action)  # refuses it, naming what it is
        return None
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ENGINE_KEYS:
        return None
    unknown = sorted(str(key) for key in action if key not in ENGINE_KEYS[kind])
    if unknown:
        raise MalformedAction(f"{kind} takes only {sorted(ENGINE_KEYS[kind])}; action key {short_repr(unknown[0])} is unknown")
    return kind


def _seq_field(action: Mapping[str, Any]) -> int:
    seq = action.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise MalformedAction(f"undo_to needs a non-negative integer 'seq', not {seq!r}")
    return seq

"""The part of a game's ``Rules`` that every game writes the same way: actions parsed against the
game's declared models, then checked and applied through two tables keyed by action type, the
apply on a copy so the state given is never changed (the engine keeps old states for undo).

A game subclasses ``DispatchRules`` with its own ``State``, fills in ``called``, ``actions``,
``checks`` and ``applies``, and overrides at most two hooks: ``precondition`` (what every action of
the game must meet before its own check, e.g. being the player whose turn it is) and ``settle`` (what
runs by itself after any action, e.g. a phase that needs no one's choice). The rest of ``Rules``
(``setup``, ``legal_actions``, ``score``, ...) hands work to the game's own modules, one line each.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from random import Random
from typing import Any, Generic, Protocol, Self, TypeVar

from pydantic import TypeAdapter

from companion.engine.actions import parse_action
from companion.engine.rules import Action
from companion.errors import Problem


class Copyable(Protocol):
    """A game's state as the engine's tables need it: a copy an action can change freely."""

    def copy(self) -> Self: ...


S = TypeVar("S", bound=Copyable)
Check = Callable[[S, Action], list[Problem]]
Apply = Callable[[S, Action, Random], None]


class DispatchRules(Generic[S]):
    """``parse_action``, ``check`` and ``apply`` of a game's ``Rules``, looked up by action type."""

    called: str  # how a message names the game: "Incantibus", "the Grimoire"
    actions: TypeAdapter[Any]  # the game's declared actions (``engine.actions.actions_of``)
    checks: Mapping[str, Check[S]]
    applies: Mapping[str, Apply[S]]

    def parse_action(self, raw: Mapping[str, Any]) -> Action:
        return parse_action(self.actions, raw)

    def check(self, state: S, action: Action) -> list[Problem]:
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in self.checks:
            return [unknown_type(self.called, kind, self.checks)]
        return self.precondition(state, action) or self.checks[kind](state, action)

    def apply(self, state: S, action: Action, rng: Random) -> S:
        new = state.copy()
        self.applies[action["type"]](new, action, rng)
        self.settle(new, action, rng)
        return new

    def precondition(self, state: S, action: Action) -> list[Problem]:
        """Why no action of a known type can be taken now, before its own check: none by default."""
        return []

    def settle(self, state: S, action: Action, rng: Random) -> None:
        """Whatever runs by itself after ``action`` has changed ``state``: nothing by default."""


def unknown_type(called: str, kind: object, known: Mapping[str, object]) -> Problem:
    # parse_action refuses unknown types first; this still names them for a check made without it.
    return Problem("action-type", f"{called} has no action {kind!r}; it knows {', '.join(known)}")


def without_rng(apply: Callable[[S, Action], None]) -> Apply[S]:
    """An apply for an action that draws nothing: what the table drew arrives in the action itself."""
    return lambda state, action, rng: apply(state, action)

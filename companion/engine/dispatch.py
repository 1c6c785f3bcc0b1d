"""The part of a game's ``Rules`` that every game writes the same way: actions parsed into the game's
own models, then checked and applied by the handler of each model, the apply on a copy so the state
given is never changed (the engine keeps old states for undo).

A game subclasses ``DispatchRules`` with its own ``State`` and union of actions, fills in ``called``,
``actions`` and ``handlers`` (one ``on(Model, check, apply)`` per action: the checker sees that the
check and the apply take that model), and overrides at most two hooks: ``precondition`` (what every
action of the game must meet before its own check, e.g. being the player whose turn it is) and
``settle`` (what runs by itself after any action, e.g. a phase that needs no one's choice). The rest of
``Rules`` (``setup``, ``legal_actions``, ``score``, ...) is the game's own modules, named once in its
``hooks``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from random import Random
from typing import Any, Generic, Protocol, Self, TypeVar, get_args

from pydantic import TypeAdapter

from companion.engine.actions import ActionModel, Proposal, parse_action
from companion.engine.views import JsonObject
from companion.errors import MalformedAction, Problem


class Copyable(Protocol):
    """A game's state as the engine's handlers need it: a copy an action can change freely."""

    def copy(self) -> Self: ...


S = TypeVar("S", bound=Copyable)
A = TypeVar("A", bound=ActionModel)
M = TypeVar("M", bound=ActionModel)
Check = Callable[[S, M], list[Problem]]
Apply = Callable[[S, M, Random], None]


@dataclass(frozen=True)
class Handler(Generic[S]):
    """How a game checks and applies one of its action models (made by ``on``, which types them)."""

    model: type[ActionModel]
    check: Check[S, Any]
    apply: Apply[S, Any]


def on(model: type[M], check: Check[S, M], apply: Apply[S, M]) -> Handler[S]:
    """The handler of ``model``: ``check`` and ``apply`` both take that model, as the checker verifies."""
    return Handler(model, check, apply)


@dataclass(frozen=True)
class Hooks(Generic[S]):
    """The hooks of ``Rules`` that are one function each of the game's own modules (``setup.setup``,
    ``view.public_view``, ``bots.random_action``, ...), as ``Rules`` documents them."""

    setup: Callable[[Sequence[str], Mapping[str, Any], Random], S]
    from_position: Callable[[Sequence[str], Mapping[str, Any], Mapping[str, Any], Random], S]
    legal_actions: Callable[[S], JsonObject]
    random_action: Callable[[S, Random], Proposal | None]
    score: Callable[[S], dict[str, int]]
    ranking: Callable[[S], list[str]]
    public_view: Callable[[S], JsonObject]
    is_over: Callable[[S], bool]


class DispatchRules(Generic[S, A]):
    """A game's ``Rules``: ``parse_action``, ``check`` and ``apply`` by the handler of each model, the
    other hooks handed to the game's own modules."""

    called: str  # how a message names the game: "Incantibus", "the Grimoire"
    actions: TypeAdapter[A]  # the game's declared actions (``engine.actions.actions_of``)
    handlers: Sequence[Handler[S]]
    hooks: Hooks[S]

    def setup(self, players: Sequence[str], options: Mapping[str, Any], rng: Random) -> S:
        return self.hooks.setup(players, options, rng)

    def from_position(self, players: Sequence[str], options: Mapping[str, Any], position: Mapping[str, Any],
                      rng: Random) -> S:
        return self.hooks.from_position(players, options, position, rng)

    def legal_actions(self, state: S) -> JsonObject:
        return self.hooks.legal_actions(state)

    def random_action(self, state: S, rng: Random) -> Proposal | None:
        return self.hooks.random_action(state, rng)

    def is_over(self, state: S) -> bool:
        return self.hooks.is_over(state)

    def score(self, state: S) -> dict[str, int]:
        return self.hooks.score(state)

    def ranking(self, state: S) -> list[str]:
        return self.hooks.ranking(state)

    def public_view(self, state: S) -> JsonObject:
        return self.hooks.public_view(state)

    def parse_action(self, raw: Mapping[str, Any]) -> A:
        return parse_action(self.actions, raw)

    def check(self, state: S, action: A | Mapping[str, Any]) -> list[Problem]:
        """Every reason ``action`` is illegal. Given as JSON (a test, a tool), it is parsed first, and
        what its models refuse is one problem too: a type the game does not know (``action-type``,
        naming the ones it knows) or a shape they refuse (``<type>-shape``, naming the key)."""
        if not isinstance(action, ActionModel):
            kind = action.get("type")
            if not self._knows(kind):
                return [unknown_type(self.called, action, self.handlers)]
            try:
                action = self.parse_action(action)
            except MalformedAction as refused:
                return [Problem(f"{kind}-shape", str(refused))]
        model = self._model(action)
        handler = self._handler(model)
        if handler is None:
            return [unknown_type(self.called, model, self.handlers)]
        return self.precondition(state, model) or handler.check(state, model)

    def apply(self, state: S, action: A | Mapping[str, Any], rng: Random) -> S:
        model = self._model(action)
        handler = self._handler(model)
        if handler is None:
            raise TypeError(f"{self.called} has no handler for {model!r}")
        new = state.copy()
        handler.apply(new, model, rng)
        self.settle(new, model, rng)
        return new

    def precondition(self, state: S, action: A) -> list[Problem]:
        """Why no action of a known type can be taken now, before its own check: none by default."""
        return []

    def settle(self, state: S, action: A, rng: Random) -> None:
        """Whatever runs by itself after ``action`` has changed ``state``: nothing by default."""

    def _model(self, action: A | Mapping[str, Any]) -> A:
        return action if isinstance(action, ActionModel) else self.parse_action(action)

    def _knows(self, kind: object) -> bool:
        return any(type_of(h.model) == kind for h in self.handlers)

    @cached_property
    def _by_model(self) -> dict[type[ActionModel], Handler[S]]:
        return {h.model: h for h in self.handlers}

    def _handler(self, action: object) -> Handler[S] | None:
        return self._by_model.get(type(action))  # type: ignore[arg-type]  # any other type finds none


def unknown_type(called: str, action: object, handlers: Sequence[Handler[Any]]) -> Problem:
    # parse_action refuses unknown types first; this still names them for a check made without it
    # (a caller handing in raw JSON, or a model of another game).
    kind = action.get("type") if isinstance(action, Mapping) else getattr(action, "type", action)
    known = ", ".join(type_of(h.model) for h in handlers)
    return Problem("action-type", f"{called} has no action {kind!r}; it knows {known}")


def type_of(model: type[ActionModel]) -> str:
    """The ``type`` a model declares: the one value of its literal."""
    return str(get_args(model.model_fields["type"].annotation)[0])


def without_rng(apply: Callable[[S, M], None]) -> Apply[S, M]:
    """An apply for an action that draws nothing: what the table drew arrives in the action itself."""
    return lambda state, action, rng: apply(state, action)

"""The one small interface every game plugs in through.

A game's rules are a module-level object with these hooks, typed by the game's own state ``S`` and
its own union of action models ``A``. The engine never looks inside a state: it only hands states back
to the rules that made them. States must be treated as immutable values: ``apply`` returns a new state
and never changes the one it was given (the engine keeps old states for undo).

Actions arrive as JSON objects with a ``"type"`` key (``Proposal``), so the same action can come from a
camera, a button, a tablet or a replay script. Each game declares its actions as models
(``companion.engine.actions``); ``parse_action`` validates a proposal against them and only the model
it returns is checked and applied; the log keeps the model's ``payload``. The types ``setup``,
``undo``, ``redo`` and ``undo_to`` belong to the engine and may not be used by a game.
``companion.engine.dispatch`` gives a game ``parse_action``, ``check`` and ``apply`` from one handler
per action model.
"""
from __future__ import annotations

from random import Random
from typing import Any, Protocol, TypeVar
from collections.abc import Mapping, Sequence

from companion.engine.actions import ActionModel, Proposal
from companion.engine.views import JsonObject
from companion.errors import Problem

S = TypeVar("S")  # a game's state
A = TypeVar("A", bound=ActionModel)  # a game's actions: the union of its models


class Rules(Protocol[S, A]):
    name: str  # short id used in stores and on the command line, e.g. "incantibus"
    title: str  # shown to people, e.g. "Incantibus"
    player_counts: Sequence[int]

    def setup(self, players: Sequence[str], options: Mapping[str, Any], rng: Random) -> S:
        """The state before the first action. Options are the game's documented house rules and
        modes (e.g. ``{"expert": true}``); unknown options are an error."""

    def parse_action(self, raw: Mapping[str, Any]) -> A:
        """``raw`` validated against the game's declared actions (``engine.actions.parse_action``):
        unknown keys, wrong types, oversized or over-deep input raise ``MalformedAction`` naming the
        key. The returned model is what the engine checks and applies; its ``payload`` is stored."""

    def from_position(self, players: Sequence[str], options: Mapping[str, Any], position: Mapping[str, Any],
                      rng: Random) -> S:
        """A state described by the table instead of reached from the setup (a game started halfway, a
        golden test that begins at the final battle, a game restored by hand). The position is
        validated like an action: counts, limits and conservation of tokens; every problem is raised at
        once as ``IllegalAction``, a wrong shape as ``MalformedAction``."""

    def legal_actions(self, state: S) -> JsonObject:
        """What the table must do next and the legal choices, as JSON: at least ``{"kind": ...}``.
        The display builds its controls from it, bots choose from it and the camera takes its
        candidate targets from it."""

    def check(self, state: S, action: A) -> list[Problem]:
        """Every reason ``action`` is illegal in ``state``; empty when it is legal."""

    def apply(self, state: S, action: A, rng: Random) -> S:
        """The state after a legal action. ``rng`` is seeded from the log, so a replay draws the
        same tokens; anything drawn at the physical table arrives in the action as an observed fact."""

    def random_action(self, state: S, rng: Random) -> Proposal | None:
        """A legal action chosen at random (bots, the demo, property tests), proposed as any input
        proposes one; None when the game is over."""

    def is_over(self, state: S) -> bool: ...

    def score(self, state: S) -> dict[str, int]:
        """Points per player, as the rulebook counts them at that moment."""

    def ranking(self, state: S) -> list[str]:
        """Players from first to last, ties broken as the rulebook says."""

    def public_view(self, state: S) -> JsonObject:
        """Everything the table may see, as JSON (no secret token's identity before it is known)."""

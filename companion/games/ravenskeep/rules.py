"""Ravenskeep behind the engine's ``Rules`` hooks: parse and check every action, then apply it to a copy.
Actions (docs/ravenskeep.md): ``roll``, ``reroll``, ``play``, ``forgo``, ``spell``, ``end_turn``."""
from __future__ import annotations

from dataclasses import replace
from random import Random
from typing import Any
from collections.abc import Mapping, Sequence

from companion.engine.dispatch import Apply, Check, DispatchRules
from companion.errors import Problem
from companion.games.ravenskeep import bots, position, scoring, setup, turn, view
from companion.games.ravenskeep.catalogue import load
from companion.games.ravenskeep.moves import ACTIONS
from companion.games.ravenskeep.state import State

Action = dict[str, Any]

CHECKS: dict[str, Check[State]] = {
    "roll": turn.check_roll, "reroll": turn.check_reroll, "play": turn.check_play, "forgo": turn.check_forgo,
    "spell": turn.check_spell, "end_turn": turn.check_end}
APPLIES: dict[str, Apply[State]] = {
    "roll": turn.apply_roll, "reroll": turn.apply_reroll, "play": turn.apply_play, "forgo": turn.apply_forgo,
    "spell": turn.apply_spell, "end_turn": turn.apply_end}


def whose_turn(state: State, action: Action) -> list[Problem]:
    player = action.get("player")
    who = None if player is None else str(player)
    if state.over:
        return [Problem("game-over", "the game is over: nothing more can be done", who)]
    if state.seat(player) is None:
        return [Problem("player", f"{player!r} is not playing ({', '.join(p.name for p in state.players)})", who)]
    if player != state.current.name:
        return [Problem("turn", f"it is {state.current.name}'s turn, not {player}'s", who)]
    return []


class RavenskeepRules(DispatchRules[State]):
    name: str = "ravenskeep"
    title: str = "Ravenskeep"
    player_counts: Sequence[int] = load().player_counts
    called = "Ravenskeep"
    actions = ACTIONS
    checks = CHECKS
    applies = APPLIES

    def precondition(self, state: State, action: Action) -> list[Problem]:
        return whose_turn(state, action)

    def apply(self, state: State, action: Action, rng: Random) -> State:
        if turn.fresh(state):  # a turn's first action: the notes of the turn before are shown no more
            state = replace(state, notes=())  # a new value; the base applies to a copy of it
        return super().apply(state, action, rng)

    def setup(self, players: Sequence[str], options: Mapping[str, Any], rng: Random) -> State:
        return setup.setup(players, options, rng)

    def from_position(self, players: Sequence[str], options: Mapping[str, Any], position_: Mapping[str, Any],
                      rng: Random) -> State:
        return position.from_position(players, options, position_, rng)

    def legal_actions(self, state: State) -> dict[str, Any]:
        return view.legal_actions(state)

    def random_action(self, state: State, rng: Random) -> Action | None:
        return bots.random_action(state, rng)

    def is_over(self, state: State) -> bool:
        return state.over

    def score(self, state: State) -> dict[str, int]:
        return scoring.scores(state)

    def ranking(self, state: State) -> list[str]:
        return scoring.ranking(state)

    def places(self, state: State) -> list[list[str]]:
        return scoring.places(state)

    def public_view(self, state: State) -> dict[str, Any]:
        return view.public_view(state)


RULES = RavenskeepRules()

"""Ravenskeep behind the engine's ``Rules`` hooks: parse and check every action, then apply it to a copy.
Actions (docs/ravenskeep.md): ``roll``, ``reroll``, ``play``, ``forgo``, ``spell``, ``end_turn``."""
from __future__ import annotations

from dataclasses import replace
from random import Random
from typing import Any
from collections.abc import Sequence

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

    # The other hooks of Rules are the game's own modules, named where they live.
    setup = staticmethod(setup.setup)
    from_position = staticmethod(position.from_position)
    legal_actions = staticmethod(view.legal_actions)
    random_action = staticmethod(bots.random_action)
    score = staticmethod(scoring.scores)
    ranking = staticmethod(scoring.ranking)
    places = staticmethod(scoring.places)
    public_view = staticmethod(view.public_view)

    def precondition(self, state: State, action: Action) -> list[Problem]:
        return whose_turn(state, action)

    def apply(self, state: State, action: Action, rng: Random) -> State:
        if turn.fresh(state):  # a turn's first action: the notes of the turn before are shown no more
            state = replace(state, notes=())  # a new value; the base applies to a copy of it
        return super().apply(state, action, rng)

    def is_over(self, state: State) -> bool:
        return state.over


RULES = RavenskeepRules()

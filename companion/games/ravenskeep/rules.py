"""Ravenskeep behind the engine's ``Rules`` hooks: parse and check every action, then apply it to a copy.
Actions (docs/ravenskeep.md): ``roll``, ``reroll``, ``play``, ``forgo``, ``spell``, ``end_turn``."""
from __future__ import annotations

from dataclasses import replace
from random import Random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine.dispatch import DispatchRules, Handler, Hooks, on
from companion.errors import Problem
from companion.games.ravenskeep import bots, position, scoring, setup, turn, view
from companion.games.ravenskeep.catalogue import load
from companion.games.ravenskeep.moves import ACTIONS, EndTurn, Forgo, Play, RavenskeepAction, Reroll, Roll, Spell
from companion.games.ravenskeep.state import State

HANDLERS: tuple[Handler[State], ...] = (
    on(Roll, turn.check_roll, turn.apply_roll), on(Reroll, turn.check_reroll, turn.apply_reroll),
    on(Play, turn.check_play, turn.apply_play), on(Forgo, turn.check_forgo, turn.apply_forgo),
    on(Spell, turn.check_spell, turn.apply_spell), on(EndTurn, turn.check_end, turn.apply_end))


def whose_turn(state: State, action: RavenskeepAction) -> list[Problem]:
    player = who = action.player
    if state.over:
        return [Problem("game-over", "the game is over: nothing more can be done", who)]
    if state.seat(player) is None:
        return [Problem("player", f"{player!r} is not playing ({', '.join(p.name for p in state.players)})", who)]
    if player != state.current.name:
        return [Problem("turn", f"it is {state.current.name}'s turn, not {player}'s", who)]
    return []


class RavenskeepRules(DispatchRules[State, RavenskeepAction]):
    name, title, called = "ravenskeep", "Ravenskeep", "Ravenskeep"  # called: how a message names it
    player_counts: Sequence[int] = load().player_counts
    actions, handlers = ACTIONS, HANDLERS
    hooks = Hooks(setup=setup.setup, from_position=position.from_position, legal_actions=view.legal_actions,
                  random_action=bots.random_action, score=scoring.scores, ranking=scoring.ranking,
                  public_view=view.public_view, is_over=lambda state: state.over)
    places = staticmethod(scoring.places)  # tied places, as its rulebook allows (``night.places``)

    def precondition(self, state: State, action: RavenskeepAction) -> list[Problem]:
        return whose_turn(state, action)

    def apply(self, state: State, action: RavenskeepAction | Mapping[str, Any], rng: Random) -> State:
        if turn.fresh(state):  # a turn's first action: the notes of the turn before are shown no more
            state = replace(state, notes=())  # a new value; the base applies to a copy of it
        return super().apply(state, action, rng)


RULES = RavenskeepRules()

"""Bots: a random legal action for the active player (demo, property tests, bench). They banish a
curse more often than not and end their turn half the time, so every game walks through the whole grimoire to its end."""
from __future__ import annotations

from random import Random
from typing import Literal

from companion.engine.actions import Proposal
from companion.games.grimoire import curses, spells, view
from companion.games.grimoire.catalogue import load
from companion.games.grimoire.moves import Banish, Buy, Cast, Cure, CursesDrawn, EndTurn, GrimoireAction, Learn
from companion.games.grimoire.state import State


def random_action(state: State, rng: Random) -> Proposal | None:
    if state.outcome:
        return None
    if state.awaiting:  # as if the table drew them: a face from each pile, one card each
        return CursesDrawn(type="curses_drawn", curses=_drawn(state, rng)).payload()
    return _choose(state, rng).payload()


def _choose(state: State, rng: Random) -> GrimoireAction:
    me, rewards, owned = state.current.name, curses.rewards_left(state), list(state.current.spells)
    choices: list[GrimoireAction] = []
    reward = rng.choice(rewards) if rewards else None
    banish = [Banish(type="banish", player=me, curse=c, reward=reward) for c in state.curses_out]
    choices += banish
    choices += [Cast(type="cast", player=me, spell=s, times=rng.randint(1, 2)) for s in view.castable(state)]
    drop = rng.choice(owned) if len(owned) >= load().max_spells else None
    choices += [Learn(type="learn", player=me, spell=s, drop=drop) for s in spells.learnable(state)]
    buyable = view.buyable(state)
    choices += [Buy(type="buy", player=me, element=e, value=_value(v)) for e, v in rng.sample(buyable, min(2, len(buyable)))]
    choices += [Cure(type="cure", player=me, owner=owner, zone=zone) for owner, zone in view.cures(state)]
    if banish and rng.random() < 0.6:  # a table that plays to win banishes first
        return rng.choice(banish)
    if not choices or rng.random() < 0.5:
        return EndTurn(type="end_turn", player=me)
    return rng.choice(choices)


def _value(value: int) -> Literal[2, 3]:
    return 2 if value == 2 else 3  # the supply holds cards of value 2 and 3 only


def _drawn(state: State, rng: Random) -> list[list[str]]:
    left = {pile: list(state.piles[pile]) for pile in state.awaiting}
    out = []
    for pile in state.awaiting:
        curse = left[pile].pop(rng.randrange(len(left[pile])))
        out.append(list(load().curses[curse]))
    return out

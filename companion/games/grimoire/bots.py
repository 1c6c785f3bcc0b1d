"""Bots: a random legal action for the active player (demo, property tests, bench). They banish a
curse more often than not and end their turn half the time, so every game walks through the whole grimoire to its end."""
from __future__ import annotations

from random import Random

from companion.engine.actions import Proposal
from companion.games.grimoire import curses, spells, view
from companion.games.grimoire.catalogue import load
from companion.games.grimoire.state import State


def random_action(state: State, rng: Random) -> Proposal | None:
    if state.outcome:
        return None
    if state.awaiting:  # as if the table drew them: a face from each pile, one card each
        return {"type": "curses_drawn", "curses": _drawn(state, rng)}
    me, rewards, owned = state.current.name, curses.rewards_left(state), list(state.current.spells)
    reward = rng.choice(rewards) if rewards else None
    banish: list[Proposal] = [{"type": "banish", "player": me, "curse": c, "reward": reward} for c in state.curses_out]
    choices = list(banish)
    choices += [{"type": "cast", "player": me, "spell": s, "times": rng.randint(1, 2)} for s in view.castable(state)]
    drop = rng.choice(owned) if len(owned) >= load().max_spells else None
    choices += [{"type": "learn", "player": me, "spell": s, "drop": drop} for s in spells.learnable(state)]
    buyable = view.buyable(state)
    choices += [{"type": "buy", "player": me, "element": e, "value": v} for e, v in rng.sample(buyable, min(2, len(buyable)))]
    choices += [{"type": "cure", "player": me, "owner": owner, "zone": zone} for owner, zone in view.cures(state)]
    if banish and rng.random() < 0.6:  # a table that plays to win banishes first
        return rng.choice(banish)
    if not choices or rng.random() < 0.5:
        return {"type": "end_turn", "player": me}
    return rng.choice(choices)


def _drawn(state: State, rng: Random) -> list[list[str]]:
    left = {pile: list(state.piles[pile]) for pile in state.awaiting}
    out = []
    for pile in state.awaiting:
        curse = left[pile].pop(rng.randrange(len(left[pile])))
        out.append(list(load().curses[curse]))
    return out

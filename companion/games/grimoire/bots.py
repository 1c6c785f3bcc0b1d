"""Bots: a random legal action for the active player (demo, property tests, bench). They banish a
curse more often than not and end their turn half the time, so every game walks through the whole grimoire to its end."""
from __future__ import annotations

from random import Random
from typing import Any

from companion.games.grimoire import view
from companion.games.grimoire.catalogue import load
from companion.games.grimoire.state import State


def random_action(state: State, rng: Random) -> dict[str, Any] | None:
    if state.outcome:
        return None
    legal = view.legal_actions(state)
    if legal["kind"] == "curses":  # as if the table drew them: a face from each pile, one card each
        return {"type": "curses_drawn", "curses": _drawn(state, rng)}
    me = legal["player"]
    choices: list[dict[str, Any]] = []
    reward = rng.choice(legal["rewards"]) if legal["rewards"] else None
    choices += [{"type": "banish", "player": me, "curse": c, "reward": reward} for c in legal["banish"]]
    choices += [{"type": "cast", "player": me, "spell": s, "times": rng.randint(1, 2)} for s in legal["cast"]]
    drop = rng.choice(legal["spells"]) if legal["must_drop"] else None
    choices += [{"type": "learn", "player": me, "spell": s, "drop": drop} for s in legal["learn"]]
    choices += [{"type": "buy", "player": me, **b} for b in rng.sample(legal["buy"], min(2, len(legal["buy"])))]
    choices += [{"type": "cure", "player": me, **c} for c in legal["cure"]]
    banish = [c for c in choices if c["type"] == "banish"]
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

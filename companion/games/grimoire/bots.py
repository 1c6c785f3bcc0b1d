"""Bots: a random legal action for the active player (demo, property tests, bench). They banish a
curse more often than not and end their turn half the time, so every game walks through the whole grimoire to its end."""
from __future__ import annotations

from random import Random

from companion.engine.actions import Proposal
from companion.games.grimoire import curses, hands, table, view
from companion.games.grimoire.catalogue import load
from companion.games.grimoire.state import State


def random_action(state: State, rng: Random) -> Proposal | None:
    if state.outcome:
        return None
    if state.page_wanted:  # as if the table turned a page: one of those left
        return {"type": "page_opened", "page": rng.choice(table.pages_left(state))}
    if state.awaiting:  # as if the table drew them: a face from each pile, one card each
        return {"type": "curses_drawn", "curses": _drawn(state, rng)}
    if state.drawing:  # as if the player drew from their own deck
        return {"type": "cards_drawn", "player": state.drawing[0][0], "cards": _cards(state, rng)}
    me, rewards, owned = state.current.name, curses.rewards_left(state), list(state.current.spells)
    reward = rng.choice(rewards) if rewards else None
    banish: list[Proposal] = [{"type": "banish", "player": me, "curse": c, "reward": reward}
                              for c in view.affordable_curses(state)]
    choices = list(banish)
    choices += [{"type": "cast", "player": me, "spell": s, "times": _times(state, s, rng)} for s in view.castable(state)]
    drop = rng.choice(owned) if len(owned) >= load().max_spells else None
    choices += [{"type": "learn", "player": me, "spell": s, "drop": drop} for s in view.learnable(state)]
    buyable = view.buyable(state)
    choices += [{"type": "buy", "player": me, "element": e, "value": v} for e, v in rng.sample(buyable, min(2, len(buyable)))]
    choices += [{"type": "cure", "player": me, "owner": owner, "zone": zone} for owner, zone in view.cures(state)]
    if banish and rng.random() < 0.6:  # a table that plays to win banishes first
        return rng.choice(banish)
    if not choices or rng.random() < 0.5:
        return _end_turn(state, rng)
    return rng.choice(choices)


def _times(state: State, spell: str, rng: Random) -> int:
    """Amplified now and then, when the hand can pay twice."""
    times = rng.randint(1, 2)
    cards = state.current.cards
    if cards is None:
        return times
    twice = {e: 2 * n for e, n in load().spells[spell].cost.items()}
    return times if hands.cheapest(cards.hand, twice) is not None else 1


def _end_turn(state: State, rng: Random) -> Proposal:
    me = state.current
    if me.cards is None:
        return {"type": "end_turn", "player": me.name}
    return {"type": "end_turn", "player": me.name, "discard": rng.sample(list(me.cards.hand), hands.to_reduce(me))}


def _cards(state: State, rng: Random) -> list[str]:
    """A draw the table could make: the whole deck first, then from the discard pile shuffled in."""
    player, n = state.drawing[0]
    cards = state.player(player).cards
    assert cards is not None
    deck, discard = list(cards.deck), list(cards.discard)
    if n <= len(deck):
        return rng.sample(deck, n)
    return deck + rng.sample(discard, n - len(deck))


def _drawn(state: State, rng: Random) -> list[list[str]]:
    left = {pile: list(state.piles[pile]) for pile in state.awaiting}
    out = []
    for pile in state.awaiting:
        curse = left[pile].pop(rng.randrange(len(left[pile])))
        out.append(list(load().curses[curse]))
    return out

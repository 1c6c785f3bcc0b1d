"""Banishing a curse: its four elements from hand or support zones; the active player then takes a
2-element card of their choice from the supply (if that pile is empty, any other; if all are, none)."""
from __future__ import annotations


from companion.errors import Problem
from collections import Counter

from companion.games.grimoire import hands, moves
from companion.games.grimoire.catalogue import load
from companion.games.grimoire.state import State


def field_of(state: State, curse: str) -> int | None:
    return next((f for f, cs in state.fields.items() if curse in cs), None)


def rewards_left(state: State) -> list[str]:
    return [e for e, piles in state.supply.items() if piles.get(2, 0) > 0]


def check(state: State, action: moves.Banish) -> list[Problem]:
    player, curse, reward = action.player, action.curse, action.reward
    found = []
    if field_of(state, curse) is None:
        found.append(Problem("banish-curse", f"{player} cannot banish {curse!r}: no such curse lies on the ritual circle "
                             f"(lying: {', '.join(state.curses_out) or 'none'})", player, curse))
    left = rewards_left(state)
    if reward is None and left:
        found.append(Problem("banish-reward", f"{player} takes a 2-element card for banishing {curse!r}: say which "
                             f"element ({', '.join(left)})", player, curse))
    elif reward is not None and reward not in left:
        found.append(Problem("banish-reward", f"{player} cannot take a 2-element {reward!r} card: the piles with cards "
                             f"left are {', '.join(left) or 'none'}", player, reward))
    for helper in action.helpers:
        seat = state.seat(helper)
        if seat is None or state.players[seat].out:
            found.append(Problem("banish-support", f"{player} pays from {helper!r}'s support zone, but {helper!r} is not "
                                 "in the game", player, helper))
    if field_of(state, curse) is not None:
        cost = Counter(load().curses[curse])
        found += hands.check_pay(state, player, action.pay, cost, "banish", helped=bool(action.helpers))
    return found


def apply(state: State, action: moves.Banish) -> None:
    curse, reward = action.curse, action.reward
    where = field_of(state, curse)
    assert where is not None
    state.fields[where] = tuple(c for c in state.fields[where] if c != curse)
    state.curses_banished += 1
    paid = hands.spend(state, action.player, action.pay, Counter(load().curses[curse]))
    if reward is not None:
        state.supply[reward][2] -= 1
        hands.gain(state, action.player, hands.card(reward, 2))
    state.note(event="banished_curse", player=action.player, curse=curse, field=where,
               elements=list(load().curses[curse]), reward=reward, helpers=action.helpers,
               **({"cards": paid} if state.tracked else {}))

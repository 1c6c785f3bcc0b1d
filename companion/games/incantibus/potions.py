"""Brewing: an open potion needs its recipe's ingredients; the Philosopher's Stone counts as any one."""
from __future__ import annotations

from collections import Counter
from functools import cache

from companion.games.incantibus.satchel import by_kind
from companion.games.incantibus.state import State
from companion.games.incantibus.tokens import load

STONE = "philosophers_stone"
INGREDIENTS = frozenset(k.name for k in load().kinds.values() if k.category == "ingredient") | {STONE}
SHORTEST_RECIPE = min(len(k.recipe) for k in load().kinds.values() if k.category == "potion")


def payment(state: State, player: str, potion: str) -> tuple[str, ...] | None:
    """The ingredient tokens ``player`` discards to brew ``potion``, or None if they lack some.
    Real ingredients are used first, so the Stone is spent only for an ingredient they do not have."""
    have = by_kind(state, player)
    stones = have.get(STONE, [])
    paid: list[str] = []
    for ingredient in load().kinds[potion].recipe:
        pile = have.get(ingredient) or stones
        if not pile:
            return None
        paid.append(pile.pop())
    return tuple(paid)


def can_brew(have: Counter[str], potion: str) -> bool:
    """Whether a satchel holding ``have`` (kind -> count) has the ingredients for ``potion``: the
    cheap test behind the legal targets of every casting."""
    short = sum(max(0, n - have[k]) for k, n in _recipe(potion).items())
    return short <= have[STONE]


@cache
def _recipe(potion: str) -> Counter[str]:
    return Counter(load().kinds[potion].recipe)


def missing(state: State, player: str, potion: str) -> list[str]:
    """The ingredients ``player`` lacks for ``potion`` (for the message that says why not)."""
    have = by_kind(state, player)
    stones = len(have.get(STONE, []))
    lacking: list[str] = []
    for ingredient in load().kinds[potion].recipe:
        if have.get(ingredient):
            have[ingredient].pop()
        elif stones:
            stones -= 1
        else:
            lacking.append(ingredient)
    return lacking

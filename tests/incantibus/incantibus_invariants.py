"""The table's invariants, checked after every action by the property tests and the position tests.

Beside the tests rather than in one of them: every game's test folder has a ``test_properties``, so
importing one test module from another would find whichever folder pytest put first on the path.
"""
from __future__ import annotations

import json
from collections import Counter

from companion.games.incantibus.state import State
from companion.games.incantibus.tokens import DATA
from incantibus_helpers import RULES

RAW = json.loads(DATA.read_text())


def printed_points() -> dict[str, int]:
    """Points per kind read straight from the data file (independently of the catalogue loader)."""
    points = {k: v["points"] for section in ("kinds", "specials", "potions", "sorcerers") for k, v in RAW[section].items()}
    return points | {"book_" + k: v["points"] for k, v in RAW["books"].items()}


POINTS = printed_points()


def catalogue_counts(pool: str, expert: bool) -> Counter[str]:
    if pool in "JI":
        side = "visible" if pool == "J" else "secret"
        return Counter({k: v[side] for k, v in RAW["kinds"].items()})
    if pool == "C":
        return Counter({k: 1 for k in RAW["potions"]})
    if pool == "G":
        return Counter({"book_" + k: 1 for k in RAW["books"]} if expert else {})
    return Counter({k: v["count"] for k, v in RAW["sorcerers"].items()})


def places(state: State) -> list[str]:
    everything = [t for t in (*state.slots, *state.potions, *state.books, *state.sorcerers) if t is not None]
    for satchel in state.satchels.values():
        everything += satchel
    return everything + list(state.moat) + list(state.specials) + list(state.aside) + list(state.held)


def check_invariants(state: State) -> None:
    # Every physical token out of the box is in exactly one place.
    where = places(state)
    assert len(where) == len(set(where)), Counter(where).most_common(3)
    assert set(where) == set(state.kinds)
    # ...and every token still in the box is one its pool has not shown yet.
    for pool in "JICGO":
        known = Counter(k for t, k in state.kinds.items() if t[0] == pool and k is not None)
        unseen = sum(1 for t, k in state.kinds.items() if t[0] == pool and k is None)
        assert Counter(state.pools[pool]) + known == catalogue_counts(pool, state.expert), pool
        assert unseen <= len(state.pools[pool])
    cards = Counter(state.pools["B"]) + Counter(c for c in state.cards if c) + Counter(state.cards_used)
    assert cards == Counter({k: v["count"] for k, v in RAW["spell_cards"].items()})
    # The wands in play are a permutation of the strengths for this many players.
    assert sorted(state.wands.values()) == RAW["wands"][str(len(state.players))]
    # Each score is the sum of the points printed on the tokens in the satchel (+ the wand, expert).
    for player, satchel in state.satchels.items():
        expected = sum(POINTS.get(state.kinds[t] or "", 0) for t in satchel) + (state.wands[player] if state.expert else 0)
        assert RULES.score(state)[player] == expected

"""Magic books (expert mode): each asks for tokens from the satchel, which go to the moat.

When several sets of tokens would do, the companion spends the cheapest (fewest points, then
ingredients before weapons before anything else) and keeps one of each weapon kind as long as it can;
a ``pay`` entry in the cast action (``{player: [token ids]}``) overrides that choice.
"""
from __future__ import annotations

from itertools import combinations

from companion.games.incantibus.satchel import by_kind
from companion.games.incantibus.state import State
from companion.games.incantibus.tokens import Kind, load

_RANK = {"ingredient": 0, "weapon": 1, "gold": 2, "special": 3, "spell": 4, "monster": 5, "potion": 6, "book": 7,
         "sorcerer": 8}


def payment(state: State, player: str, book: str) -> tuple[str, ...] | None:
    ((need, n),) = load().kinds[book].condition
    return pay(state, player, need, n)


def pay(state: State, player: str, need: str, n: int) -> tuple[str, ...] | None:
    """Tokens meeting one condition (``any``, ``spell``, ``special``, ``coins``, ``weapons``,
    ``weapons_identical``, ...), or None when the satchel cannot meet it."""
    if need == "coins":
        return _coins(state, player, n)
    if need in ("any", "special"):
        pool = [t for t in cheapest(state, player) if need == "any" or _kind(state, t).category == "special"]
        return tuple(pool[:n]) if len(pool) >= n else None
    category, _, how = need.partition("_")
    category = category.rstrip("s")
    piles = sorted(((k, ids) for k, ids in by_kind(state, player).items() if load().kinds[k].category == category),
                   key=lambda kv: -len(kv[1]))
    if how == "identical":
        return tuple(piles[0][1][:n]) if piles and len(piles[0][1]) >= n else None
    if how == "different":
        return tuple(ids[0] for _, ids in piles[:n]) if len(piles) >= n else None
    # Any tokens of the category: take from the biggest piles first, so one of each kind stays longest.
    flat = _spread(piles)
    return tuple(flat[:n]) if len(flat) >= n else None


def cheapest(state: State, player: str) -> list[str]:
    """The satchel's tokens from least to most precious; LOCUS cells are the satchel itself, not tokens in it."""
    tokens = [t for t in state.satchels[player] if _kind(state, t).cell != "extra_purse"]
    return sorted(tokens, key=lambda t: (_kind(state, t).points, _RANK[_kind(state, t).category]))


def _coins(state: State, player: str, n: int) -> tuple[str, ...] | None:
    gold = [t for t in state.satchels[player] if _kind(state, t).cell == "gold"]
    best: tuple[str, ...] | None = None
    for size in range(1, len(gold) + 1):
        for combo in combinations(gold, size):
            value = sum(_kind(state, t).points for t in combo)
            if value >= n and (best is None or value < sum(_kind(state, t).points for t in best)):
                best = combo
    return best


def _spread(piles: list[tuple[str, list[str]]]) -> list[str]:
    counts = {k: list(ids) for k, ids in piles}
    flat: list[str] = []
    while any(counts.values()):
        kind = max(counts, key=lambda k: len(counts[k]))
        flat.append(counts[kind].pop())
    return flat


def _kind(state: State, token: str) -> Kind:
    return load().kinds[state.kinds[token] or ""]

"""The magic satchel: which cells its tokens sit in and whether one more token fits.

The companion keeps every satchel arranged in the best way at all times (that is the rulebook's
"redistribute the tokens in your satchel, if possible", done for the player): a token goes to a free
cell of its own kind, otherwise to a free purse cell. Spells and sorcerers stack. Each LOCUS
"Satchel" token is itself one more purse cell, so it takes no room.
"""
from __future__ import annotations

from collections.abc import Iterable

from companion.games.incantibus.state import State
from companion.games.incantibus.tokens import load

STACKS = ("spell", "sorcerer")
CELLS = ("ingredient", "weapon", "gold", "potion", "monster", "book")


def side(state: State) -> str:
    return "expert" if state.expert else "apprentice"


def fits(state: State, tokens: Iterable[str]) -> bool:
    """Whether ``tokens`` can all be placed in one satchel (of the state's side)."""
    cat = load()
    kinds, capacity = cat.kinds, cat.satchel[side(state)]
    cells: dict[str, int] = {}
    for t in tokens:  # a plain loop: this runs for every token received
        cell = kinds[state.kinds[t] or ""].cell
        cells[cell] = cells.get(cell, 0) + 1
    spill = sum(max(0, n - capacity[c]) for c, n in cells.items() if c in capacity and c != "purse")
    return spill <= capacity["purse"] + cells.get("extra_purse", 0)


def fits_one_more(state: State, player: str, token: str) -> bool:
    return fits(state, state.satchels[player] + (token,))


def arrange(state: State, player: str) -> dict[str, list[str]]:
    """The satchel by cell, as the table would lay it out: each cell's token ids (stacks as lists)."""
    cat = load()
    capacity = cat.satchel[side(state)]
    out: dict[str, list[str]] = {c: [] for c in (*CELLS, *STACKS, "purse", "extra_purse")}
    spill: list[str] = []
    for token in state.satchels[player]:
        cell = cat.kinds[state.kinds[token] or ""].cell
        if cell in CELLS and len(out[cell]) >= capacity[cell]:
            spill.append(token)
        else:
            out[cell].append(token)
    out["purse"] = spill
    return out


def discards_that_make_room(state: State, player: str, new: str) -> list[str]:
    """The satchel tokens whose discard lets ``new`` fit (the rulebook's 'free up a space')."""
    mine = state.satchels[player]
    return [t for i, t in enumerate(mine) if fits(state, mine[:i] + mine[i + 1:] + (new,))]


def put(state: State, player: str, token: str) -> None:
    state.satchels[player] = state.satchels[player] + (token,)


def take_out(state: State, player: str, tokens: Iterable[str]) -> None:
    mine = list(state.satchels[player])
    for t in tokens:
        mine.remove(t)
    state.satchels[player] = tuple(mine)


def by_kind(state: State, player: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for t in state.satchels[player]:
        out.setdefault(state.kinds[t] or "", []).append(t)
    return out

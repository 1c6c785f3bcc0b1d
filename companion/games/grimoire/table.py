"""Table draws (option ``"draws": "table"``): the table draws the curses from its own shuffled piles
and enters each one's four elements, in the order the companion asked for them.

``{"type": "curses_drawn", "curses": [["feuer", "wasser", "erde", "luft"], ["feuer", "feuer", "feuer", "luft"]]}``
The order of the elements on a card does not matter; cards of a pile showing the same four elements
are the same to the game.
"""
from __future__ import annotations

from collections import Counter

from companion.errors import Problem
from companion.games.grimoire import moves, ritual_marker
from companion.games.grimoire.catalogue import load
from companion.games.grimoire.state import State


def faces(state: State, pile: str) -> list[list[str]]:
    """The different cards (by their elements) still in ``pile``."""
    seen = {tuple(sorted(load().curses[c])) for c in state.piles[pile]}
    return [list(f) for f in sorted(seen)]


def match(state: State, pile: str, shown: list[str], taken: set[str]) -> str | None:
    """A curse of ``pile`` showing these four elements and not yet taken in this entry."""
    want = Counter(shown)
    return next((c for c in state.piles[pile] if c not in taken and Counter(load().curses[c]) == want), None)


def check(state: State, action: moves.CursesDrawn) -> list[Problem]:
    if state.outcome:
        return [Problem("game-over", f"the game is over ({state.outcome}): nothing more can be done")]
    if not state.awaiting:
        return [Problem("pending", "no curse is waiting to be entered")]
    drawn = action.curses
    if len(drawn) != len(state.awaiting):
        return [Problem("curses-count", f"{len(state.awaiting)} curses are waiting ({', '.join(state.awaiting)}), "
                        f"not {len(drawn)}", None, str(len(drawn)))]
    found: list[Problem] = []
    taken: set[str] = set()
    for i, (pile, shown) in enumerate(zip(state.awaiting, drawn)):
        curse = match(state, pile, shown, taken)
        if curse is None:
            found.append(Problem("curse-face", f"curse {i + 1} comes from the {pile!r} pile, which holds no card showing "
                                 f"{sorted(shown)} (left: {faces(state, pile)})", None, f"{pile}:{i + 1}"))
        else:
            taken.add(curse)
    return found


def apply(state: State, action: moves.CursesDrawn) -> None:
    taken: set[str] = set()
    for pile, shown in zip(state.awaiting, action.curses):
        curse = match(state, pile, shown, taken)
        assert curse is not None
        taken.add(curse)
        ritual_marker.place(state, curse)
    state.awaiting = ()

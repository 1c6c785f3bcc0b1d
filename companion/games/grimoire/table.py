"""Table draws (option ``"draws": "table"``): the table draws the curses from its own shuffled piles
and enters each one's four elements, in the order the companion asked for them; it turns each page of
the grimoire and enters it (``page_opened``) unless the book was given at setup; with tracked hands
each player enters the element cards they drew (``cards_drawn``).

``{"type": "curses_drawn", "curses": [["feuer", "wasser", "erde", "luft"], ["feuer", "feuer", "feuer", "luft"]]}``
The order of the elements on a card does not matter; cards of a pile showing the same four elements
are the same to the game.
"""
from __future__ import annotations

from collections import Counter

from companion.errors import Problem
from companion.games.grimoire import hands, moves, ritual_marker
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
    if state.outcome and not state.awaiting:  # curses laid as the game ended are still entered, as Incanto lays them
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


# -- element cards a player drew (tracked hands) --------------------------------------------------

def check_cards(state: State, action: moves.CardsDrawn) -> list[Problem]:
    player, drawn = action.player, action.cards
    wanted = dict(state.drawing)
    if state.outcome and player not in wanted:  # cards drawn as the game ended are still entered: the hand is kept
        return [Problem("game-over", f"the game is over ({state.outcome}): nothing more can be done", player)]
    if player not in wanted:
        waiting = ", ".join(f"{p} ({n})" for p, n in state.drawing) or "nobody"
        return [Problem("pending", f"{player} has no cards to draw now (waiting: {waiting})", player)]
    n, me = wanted[player], state.player(player)
    assert me.cards is not None
    if len(drawn) != n:
        return [Problem("cards-count", f"{player} draws {n} cards to bring the hand to six: {hands.RULEBOOK['regenerate']} "
                        f"Entered: {len(drawn)}", player, str(len(drawn)))]
    deck, discard = Counter(me.cards.deck), Counter(me.cards.discard)
    # The deck first; once it runs out the discard pile is shuffled in and the rest comes from it.
    pool = deck if n <= sum(deck.values()) else deck + discard
    extra = Counter(drawn) - pool
    if extra:
        bad = next(iter(extra))
        return [Problem("card-drawn", f"{player}'s deck holds no {bad!r} to draw (still possible: "
                        f"{', '.join(hands.possible(me, n))})", player, bad)]
    if n > sum(deck.values()) and deck - Counter(drawn):
        return [Problem("card-drawn", f"{player} draws the whole deck ({', '.join(me.cards.deck)}) before the discard "
                        "pile is shuffled in", player)]
    return []


def apply_cards(state: State, action: moves.CardsDrawn) -> None:
    me = state.player(action.player)
    cards = me.cards
    assert cards is not None
    if len(action.cards) > len(cards.deck):
        cards.deck, cards.discard = tuple(sorted(cards.deck + cards.discard)), ()
        state.note(event="shuffled", player=me.name)
    cards.deck = tuple(sorted((Counter(cards.deck) - Counter(action.cards)).elements()))
    cards.hand = tuple(sorted(cards.hand + tuple(action.cards)))
    state.drawing = tuple(d for d in state.drawing if d[0] != me.name)
    state.note(event="drew", player=me.name, cards=list(action.cards))


# -- the grimoire's pages (table draws) ----------------------------------------------------------

BOOK_RULE = "Das Zauberbuch besteht aus der letzten Seite, 5 zufällig gewählten Mittelseiten und einem Buchdeckel."


def pages_left(state: State) -> list[str]:
    """The middle pages the table can still turn up: those of the box not yet in its grimoire."""
    return sorted(p for p, page in load().pages.items() if not page.last and p not in state.book)


def check_page(state: State, action: moves.PageOpened) -> list[Problem]:
    if state.outcome:
        return [Problem("game-over", f"the game is over ({state.outcome}): nothing more can be done")]
    if not state.page_wanted:
        return [Problem("pending", "no page of the grimoire is waiting to be entered")]
    if action.page not in pages_left(state):
        return [Problem("page-face", f"page {action.page!r} cannot open now: {BOOK_RULE} Still possible: "
                        f"{', '.join(pages_left(state))}", None, action.page)]
    return []


def apply_page(state: State, action: moves.PageOpened) -> None:
    state.book = state.book[:state.page] + (action.page,) + state.book[state.page + 1:]
    state.page_wanted = False
    ritual_marker.turn_page(state)

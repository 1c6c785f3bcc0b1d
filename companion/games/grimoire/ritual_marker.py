"""The ritual marker going round the circle, and what happens at the start field ↺.

Each monster phase the marker moves one field clockwise and the new field's effect, then the effect
of each curse lying on it (fields 2-5), are applied. Reaching ↺ (or standing there in the first
round) decides the open page's monster: banished if no curse is left on the circle, else it escapes,
every player takes its damage and the curses go back under their piles. Then the marker goes to
field 1 and the next page opens: its arrival effects, the round marker one field on (that many
4-element curses), and the monster's own curses.
"""
from __future__ import annotations

from companion.games.grimoire import madness
from companion.games.grimoire.catalogue import FIELDS, MIXED, START, load
from companion.games.grimoire.state import State


def monster_phase(state: State) -> None:
    if state.page < 0:  # the first round: the marker stands on ↺ from the setup
        at_start(state)
        return
    state.marker = (state.marker + 1) % FIELDS
    state.note(event="marker", field=state.marker)
    if state.marker == START:
        at_start(state)
        return
    cat = load()
    madness.apply_effect(state, cat.field_effects[state.marker], f"field {state.marker}")
    for curse in state.fields.get(state.marker, ()):
        madness.apply_effect(state, cat.curse_effect, f"curse {curse} on field {state.marker}")


def at_start(state: State) -> None:
    if state.page >= 0:
        decide(state)
    if state.outcome is None:
        state.marker = 1
        open_page(state)


def decide(state: State) -> None:
    """The open page's monster is banished (no curse left) or escapes (damage, curses back under)."""
    page = load().pages[state.book[state.page]]
    left = state.curses_out
    if left:
        state.escaped += (page.id,)
        state.note(event="escaped", page=page.id, curses=len(left))
        madness.apply_effect(state, page.damage, f"{page.de} escapes")
        for curse in left:
            pile = load().pile_of(curse)
            state.piles[pile] = state.piles[pile] + (curse,)
        state.fields = {f: () for f in state.fields}
    else:
        state.banished += (page.id,)
        state.note(event="banished", page=page.id)
        madness.apply_effect(state, page.reward, f"{page.de} is banished")
    if page.last:
        if page.id in state.banished:
            _win(state)
        else:
            madness.lose(state, "the final monster was not banished")


def open_page(state: State) -> None:
    state.page += 1
    if not state.book[state.page]:  # table draws: the table turns the page and enters it
        state.page_wanted = True
        return
    turn_page(state)


def turn_page(state: State) -> None:
    """The open page's arrival, the round marker one field on, and the curses it lays."""
    cat = load()
    page = cat.pages[state.book[state.page]]
    state.note(event="page", page=page.id, number=state.page + 1)
    madness.apply_effect(state, page.arrival, f"{page.de} arrives")
    if state.page > 0:
        state.round += 1
    for _ in range(cat.difficulty[state.difficulty][state.round]):
        lay_curse(state, MIXED)
    for pile, n in page.curses.items():
        for _ in range(n):
            lay_curse(state, pile)


def lay_curse(state: State, pile: str) -> None:
    """The top curse of ``pile`` onto the circle; with table draws, the table is asked for it."""
    if len(state.piles[pile]) <= state.awaiting.count(pile):
        state.note(event="pile_empty", pile=pile)
        return
    if state.table_draws:
        state.awaiting += (pile,)
        return
    place(state, state.piles[pile][0])


def place(state: State, curse: str) -> None:
    """``curse`` from its pile onto the field of 2-5 with the fewest curses (placement: a gap)."""
    pile = load().pile_of(curse)
    state.piles[pile] = tuple(c for c in state.piles[pile] if c != curse)
    where = min(load().curse_fields, key=lambda f: (len(state.fields.get(f, ())), f))
    state.fields[where] = state.fields.get(where, ()) + (curse,)
    state.note(event="curse", curse=curse, field=where)


def _win(state: State) -> None:
    state.outcome = "won"
    state.note(event="won")

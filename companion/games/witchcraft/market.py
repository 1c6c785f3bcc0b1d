"""The 3×3 market: which spaces are adjacent, refilling from the deck (a new deck from the discards
and the ingredients of cast spells when it runs out), and the two-player row shift. With the table's cards the empty spaces wait for what it
turns up."""
from __future__ import annotations

from random import Random

from companion.games.witchcraft.state import State

SIDE = 3
SPACES = tuple(range(SIDE * SIDE))  # 0 1 2 / 3 4 5 / 6 7 8, the top row first


def row_col(space: int) -> tuple[int, int]:
    return divmod(space, SIDE)


def in_a_line(spaces: list[int]) -> bool:
    """Adjacent to each other in a row or a column: one straight unbroken line (1 to 3 spaces)."""
    cells = sorted(row_col(s) for s in spaces)
    rows, cols = {r for r, _ in cells}, {c for _, c in cells}
    if len(rows) == 1:
        return [c for _, c in cells] == list(range(cells[0][1], cells[0][1] + len(cells)))
    if len(cols) == 1:
        return [r for r, _ in cells] == list(range(cells[0][0], cells[0][0] + len(cells)))
    return False


def connected(spaces: list[int]) -> bool:
    """Orthogonally connected (the Squirrel's 4 adjacent cards cannot lie in one line of a 3×3 market)."""
    left, seen = set(spaces), {spaces[0]}
    frontier = [spaces[0]]
    while frontier:
        r, c = row_col(frontier.pop())
        for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            s = nb[0] * SIDE + nb[1]
            if 0 <= nb[0] < SIDE and 0 <= nb[1] < SIDE and s in left and s not in seen:
                seen.add(s)
                frontier.append(s)
    return seen == left


def draw_card(state: State, rng: Random) -> str | None:
    if not state.deck and (state.discard or state.aside):
        pile = list(state.discard + state.aside)
        rng.shuffle(pile)
        state.deck, state.discard, state.aside = tuple(pile), (), ()
        state.note(event="reshuffled", cards=len(pile))
    if not state.deck:
        return None
    top, state.deck = state.deck[0], state.deck[1:]
    return top


def needs_turn_up(state: State) -> bool:
    """Table draws: an empty market space and a card to fill it (the deck, or the discards and cast
    ingredients to shuffle into a new one): the table turns it up and enters it."""
    return state.table_draws and None in state.market and bool(state.deck or state.discard or state.aside)


def refill(state: State, rng: Random) -> None:
    if state.table_draws:
        return  # the table turns up its own cards: the spaces wait for them (table.lay_out)
    market = list(state.market)
    for space in SPACES:
        if market[space] is None:
            market[space] = draw_card(state, rng)
    state.market = tuple(market)


def take(state: State, spaces: list[int]) -> tuple[list[str], int]:
    """Empty ``spaces``: their cards and the crystals on them."""
    market, on = list(state.market), list(state.on_market)
    cards = [c for s in spaces if (c := market[s]) is not None]
    crystals = sum(on[s] for s in spaces)
    for s in spaces:
        market[s], on[s] = None, 0
    state.market, state.on_market = tuple(market), tuple(on)
    return cards, crystals


def row_spaces(row: int) -> list[int]:
    return [row * SIDE + c for c in range(SIDE)]


def two_player_shift(state: State, rng: Random) -> None:
    """After both witches' turns: the bottom row is discarded, the others move down, a new top row is
    dealt, and the crystals of the discarded row go onto the new row (column by column)."""
    bottom = row_spaces(SIDE - 1)
    gone = [state.market[s] for s in bottom]
    moved = [state.on_market[s] for s in bottom]
    state.discard = state.discard + tuple(c for c in gone if c is not None)
    market = [None] * SIDE + list(state.market[:-SIDE])
    on = moved + list(state.on_market[:-SIDE])
    state.market, state.on_market = tuple(market), tuple(on)
    refill(state, rng)
    state.note(event="market_shifted")

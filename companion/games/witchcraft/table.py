"""The table's own cards (option ``"draws": "table"``): the group shuffles and turns up its real deck,
and enters each card at the moment the rulebook turns it: the nine cards of the market at the setup
and every card that fills an empty space later, the witch each player draws, the cards turned over
for a starting benefit, and the familiar or basic spell taken from the top of its stack.

Each card entered is checked against what can still come up; one that cannot (on the market, in front
of a witch, in the discard pile while the deck lasts, under the deck after the Raven) is refused with
the rulebook's words and where the card is, and nothing is stored.
"""
from __future__ import annotations

from companion.errors import Problem
from companion.games.witchcraft.cards import INGREDIENT, JOKER, SPELL, card, load
from companion.games.witchcraft.cauldron import gain
from companion.games.witchcraft.market import needs_turn_up
from companion.games.witchcraft.state import State
from companion.games.witchcraft.turn import give_crystals

REFILL = ("The empty spaces in the market are immediately filled from the deck. If the deck is depleted, a new "
          "deck is shuffled from the discarded cards and the ingredients of spells that have already been cast.")
DEAL = "Draw 9 cards from the deck and lay them out randomly in a 3x3 grid."
WITCHES = "Each player randomly draws a witch."
FAMILIAR = "Take the familiar from the top of the stack."
BASIC = "Take the top basic spell from the stack."
WANTED = {"ingredients": (INGREDIENT, JOKER), "spell": (SPELL,)}


def gaps(state: State) -> list[int]:
    return [s for s, c in enumerate(state.market) if c is None]


def possible(state: State) -> tuple[str, ...]:
    """What the next card turned up from the deck can be: any card in it but the Raven's row under it
    (until only that row is left); with the deck depleted, the new deck shuffled from the discards."""
    if not state.deck:
        return state.discard + state.aside
    return state.deck[:len(state.deck) - state.under] or state.deck


def where(state: State, cid: str) -> str:
    """Where a card is, in the words the table sees it."""
    if cid not in load().cards:
        return "no such card in the box"
    if cid in state.market:
        return f"it lies on market space {state.market.index(cid)}"
    for p in state.players:
        mine = state.inventory[p] + state.spells[p] + state.cast[p] + \
            tuple(c for s in state.spells[p] for c in state.assigned.get(s, ()))
        if cid in mine:
            return f"it is in front of {p}"
    if cid in state.discard:
        return "it is in the discard pile"
    if cid in state.aside:
        return "it was set aside with a cast spell"
    if cid in state.deck:
        return "it lies under the deck (the Raven's row)"
    return "it is not a card of the deck"


def _take(state: State, cid: str) -> None:
    """``cid`` leaves the deck (a new deck is shuffled from the discards first when it is depleted)."""
    if not state.deck:
        state.deck, state.discard, state.aside, state.under = state.discard + state.aside, (), (), 0
        state.note(event="reshuffled", cards=len(state.deck))
    i = state.deck.index(cid)
    if i >= len(state.deck) - state.under:
        state.under -= 1
    state.deck = state.deck[:i] + state.deck[i + 1:]


# -- the market ---------------------------------------------------------------------------------

def check_market(state: State, witch: str, cards: list[str]) -> list[Problem]:
    rule = DEAL if state.dealing else REFILL
    trial, empty = state.copy(), gaps(state)
    if len(cards) > len(empty):
        return [Problem("turn-up", f"{len(empty)} market spaces are empty ({', '.join(map(str, empty))}), "
                        f"not {len(cards)}", witch, ",".join(cards))]
    for cid in cards:
        if cid not in possible(trial):
            return [Problem("deck", f"{rule} {cid} cannot be turned up: {where(trial, cid)}", witch, cid)]
        _take(trial, cid)
    return []


def lay_out(state: State, cards: list[str]) -> None:
    """The cards turned up fill the empty spaces from the top left."""
    market = list(state.market)
    for space, cid in zip(gaps(state), cards):
        _take(state, cid)
        market[space] = cid
    state.market = tuple(market)
    state.note(event="turned_up", cards=list(cards))


# -- the setup ----------------------------------------------------------------------------------

def check_witch(state: State, player: str, drawn: str) -> list[Problem]:
    box = load()
    if drawn not in box.witches:
        return [Problem("witch", f"{WITCHES} {drawn!r} is not a witch ({', '.join(box.witches)})", player, drawn)]
    holder = next((p for p, w in state.witches.items() if w == drawn), None)
    if holder is not None:
        return [Problem("witch", f"{WITCHES} {box.witches[drawn].title} was drawn by {holder}", player, drawn)]
    return []


def witches_known(state: State) -> None:
    """Every witch drawn: the starting spells, 4 crystals each, the Honest's crystals, and who still
    draws a starting benefit (the Resilient twice)."""
    box = load()
    for p in state.players:
        give_crystals(state, p, box.each)
        for spell in box.starting[state.witches[p]]:
            gain(state, p, spell)
    benefits: list[str] = []
    for p in state.players:
        witch = box.witches[state.witches[p]]
        if witch.benefit == "crystals":
            give_crystals(state, p, witch.count)
        elif witch.benefit in WANTED:
            benefits += [p] * witch.count if witch.benefit == "ingredients" else [p]
        elif witch.benefit == "familiar":
            benefits.append(p)
    state.benefits = tuple(benefits)


def check_benefit(state: State, witch: str, cards: list[str]) -> list[Problem]:
    player = state.benefits[0]
    what = load().witches[state.witches[player]]
    if what.benefit == "familiar":
        if len(cards) != 1 or cards[0] not in state.familiar_stack:
            return [Problem("familiar", f"{what.text.split('. ')[0]}: one of {', '.join(state.familiar_stack)}, "
                            f"not {', '.join(cards)}", witch, ",".join(cards))]
        return []
    wanted, deck = WANTED[what.benefit], list(state.deck)
    rule = what.text.split(". ")[0] + "."
    for n, cid in enumerate(cards):
        if cid not in deck:
            return [Problem("deck", f"{rule} {cid} cannot be turned over: {where(state, cid)}", witch, cid)]
        deck.remove(cid)
        if card(cid).category in wanted and n < len(cards) - 1:
            return [Problem("benefit", f"{rule} {player} stops at {cid}: {', '.join(cards[n + 1:])} stay in the deck",
                            witch, cards[n + 1])]
    return []


def draw_benefit(state: State, cards: list[str]) -> None:
    """Cards turned over on the way are discarded; the one wanted goes in front of the witch."""
    player = state.benefits[0]
    what = load().witches[state.witches[player]]
    if what.benefit == "familiar":
        state.familiar_stack = tuple(f for f in state.familiar_stack if f != cards[0])
        state.familiars[player] = state.familiars[player] + (cards[0],)
        state.benefits = state.benefits[1:]
        return
    for cid in cards:
        _take(state, cid)
        if card(cid).category in WANTED[what.benefit]:
            gain(state, player, cid)
            state.benefits = state.benefits[1:]
        else:
            state.discard = state.discard + (cid,)
    if not state.deck:
        state.benefits = tuple(p for p in state.benefits if p != player)  # nothing left to draw


def deal_next(state: State) -> bool:
    """What the setup waits for next; False when it is laid out (who starts is then settled)."""
    if needs_turn_up(state):
        state.pending = ("turn_up", state.players[0])
    elif len(state.witches) < len(state.players):
        state.pending = ("witch", next(p for p in state.players if p not in state.witches))
    elif state.benefits:
        state.pending = ("benefit", state.benefits[0])
    else:
        state.dealing = False
        brave = [p for p in state.players if state.witches[p] == "brave"]
        if brave:
            state.turn = state.players.index(brave[0])
        state.notes = ()
        return False
    return True


# -- the stacks ---------------------------------------------------------------------------------

def check_top(state: State, witch: str, kind: str, revealed: str | None) -> list[Problem]:
    """The familiar or basic spell taken: named from the table's stack, never with Incanto's."""
    stack, rule = (state.familiar_stack, FAMILIAR) if kind == "take_familiar" else (state.basic, BASIC)
    if not state.table_draws:
        return [] if revealed is None else [Problem("companion-draws", f"Incanto keeps the stacks in this game: "
                                                    f"nothing is named, not {revealed!r}", witch, revealed)]
    if revealed is None:
        return [Problem("table-draws", f"{rule} Say which one it is ({', '.join(stack)})", witch, kind)]
    if revealed not in stack:
        return [Problem("stack", f"{rule} {revealed!r} is not in the stack ({', '.join(stack)})", witch, revealed)]
    return []

"""The table at one moment: a plain value that ``apply`` copies and never changes.

Every card is in exactly one place: the deck, the discard pile, a market space, a witch's spells,
assigned to one of her spells, her inventory, set aside with a cast spell, or the basic-spell stack.
Crystals are in the supply, with a witch, or on a market card; 28 in all.

With the table's draws (option ``"draws": "table"``) the group's own deck is shuffled and turned up:
``deck``, ``basic`` and ``familiar_stack`` then hold what is still in them in no known order (the
Raven's row, put under the deck, last: ``under`` counts it), and the table enters every card it turns.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.games.notes import Note

Step = tuple[str, ...]  # what the table waits for, then whose it is: ("turn", "Ann"), ("over",)
NOTES_KEPT = 12  # the last events, shown as what just happened at the table


@dataclass(slots=True)
class State:
    players: tuple[str, ...]
    witches: dict[str, str]  # player -> witch
    deck: tuple[str, ...]  # face down, top first
    discard: tuple[str, ...]
    aside: tuple[str, ...]  # ingredients of cast spells (shuffled into the next deck)
    market: tuple[str | None, ...]  # 9 spaces, row by row from the top left
    on_market: tuple[int, ...]  # crystals on each market space
    basic: tuple[str, ...]  # the basic-spell stack, top first
    familiar_stack: tuple[str, ...]  # top first
    familiar_discard: tuple[str, ...]
    supply: int
    crystals: dict[str, int]
    spells: dict[str, tuple[str, ...]]  # spells in front of each witch
    assigned: dict[str, tuple[str, ...]]  # spell -> the cards assigned to it
    inventory: dict[str, tuple[str, ...]]
    familiars: dict[str, tuple[str, ...]]
    cast: dict[str, tuple[str, ...]]  # spells cast (set aside), per witch
    hare_casts: dict[str, int]
    snake: dict[str, str]  # witch -> the ingredient her Snake treats as a joker
    goat_used: frozenset[str]
    turn: int  # the seat whose turn it is
    actions_left: int
    raven: bool  # the Raven's restock is done and its buy awaited
    turns_taken: int
    pending: Step
    winner: str | None
    notes: tuple[Note, ...]
    table_draws: bool = False  # the table shuffles and turns up its own cards and enters them
    under: int = 0  # table draws: the last cards of ``deck`` lie under it (the Raven's row), turned up last
    dealing: bool = False  # table draws: the setup is still being laid out (market, witches, benefits)
    benefits: tuple[str, ...] = ()  # table draws, dealing: the witches still to draw a starting benefit, once per draw

    def copy(self) -> State:
        return State(
            self.players, self.witches, self.deck, self.discard, self.aside, self.market, self.on_market, self.basic,
            self.familiar_stack, self.familiar_discard, self.supply, dict(self.crystals), dict(self.spells),
            dict(self.assigned), dict(self.inventory), dict(self.familiars), dict(self.cast), dict(self.hare_casts),
            dict(self.snake), self.goat_used, self.turn, self.actions_left, self.raven, self.turns_taken,
            self.pending, self.winner, self.notes, self.table_draws, self.under, self.dealing, self.benefits)

    def note(self, **what: object) -> None:
        self.notes = (self.notes + (what,))[-NOTES_KEPT:]

    @property
    def witch(self) -> str:
        """The player whose turn it is."""
        return self.players[self.turn]

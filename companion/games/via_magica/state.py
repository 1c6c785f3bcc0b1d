"""The table at one moment: a plain value that ``apply`` copies and never changes.

Every portal card has a stable id (``P07a``) and is in exactly one place: the draw pile, the central
row, a player's hand of dealt portals (before they keep three), crystallization area, the portal
being opened, achievements, or the discard. Crystals are counted per player: in the stockpile or on
a space of a portal in the crystallization area (``crystals[portal]``: the filled space indices).
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.games.notes import Note
from companion.games.via_magica.steps import Pending, Step


@dataclass(slots=True)
class State:
    players: tuple[str, ...]
    table_draws: bool  # True: the table draws from the real bag and enters the token
    table_portals: bool  # True: the table deals the real portal cards and enters what is turned up
    bag: tuple[str, ...]  # Animus tokens still in the bag
    out: tuple[str, ...]  # tokens drawn since the bag was last refilled (in front of the Catcher)
    catcher: int  # the Catcher's seat
    token: str | None  # this turn's token; None between turns
    deck: tuple[str, ...]  # the face-down draw pile, top first (with the table's cards: those not seen, unordered)
    row: tuple[str, ...]  # the central row
    discard: tuple[str, ...]
    hands: dict[str, tuple[str, ...]]  # dealt portals not yet kept or discarded
    areas: dict[str, tuple[str, ...]]  # crystallization areas
    achieved: dict[str, tuple[str, ...]]  # achievements areas, in the order opened
    opening: dict[str, tuple[str, ...]]  # portals between their first and fourth opening step
    crystals: dict[str, frozenset[int]]  # portal in an area -> its spaces holding a crystal
    stockpiles: dict[str, int]
    gained: dict[str, int]  # crystals taken from the supply by yellow effects (for conservation)
    rewards: dict[str, str]  # reward -> holder
    placed: frozenset[str]  # who placed or moved a crystal for this turn's token
    queue: tuple[Step, ...]  # the openings still to resolve, in order
    pending: Pending  # what the table must do next
    order: tuple[str, ...]  # this turn's INCANTATUM! order
    phase: str  # keep | play | over
    turn: int
    notes: tuple[Note, ...]  # what happened this turn, in order

    def copy(self) -> State:
        return State(
            self.players, self.table_draws, self.table_portals, self.bag, self.out, self.catcher, self.token, self.deck, self.row,
            self.discard, dict(self.hands), dict(self.areas), dict(self.achieved), dict(self.opening),
            dict(self.crystals), dict(self.stockpiles), dict(self.gained), dict(self.rewards), self.placed,
            self.queue, self.pending, self.order, self.phase, self.turn, self.notes)

    def note(self, **what: object) -> None:
        self.notes = self.notes + (what,)

    def seat(self, player: str) -> int:
        return self.players.index(player)

    @property
    def catcher_name(self) -> str:
        return self.players[self.catcher]


def remove_one(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1:]

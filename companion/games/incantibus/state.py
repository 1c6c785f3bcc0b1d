"""The table at one moment: a plain value that ``apply`` copies (cheaply, by hand) and never changes.

Every physical token has a stable id (``J7``: the 7th visible token laid out, ``I3`` a secret one,
``C2`` a potion, ``G1`` a magic book, ``O5`` a sorcerer, ``N4`` a special token) and is in exactly one
place: a room slot, a potion/book/sorcerer space, a satchel, the moat, the special area, set aside,
or ``held`` (received but not yet placed, while its owner decides what to do with a full satchel).
Tokens still in the box are not ids yet: each pool is a multiset of the kinds not yet seen.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from companion.engine.views import JsonObject
from companion.games.incantibus.steps import Pending, Step
from companion.games.notes import Note


@dataclass(frozen=True, slots=True)
class Contest:
    """One target of a casting: who pointed at it (strongest wand first), who won it, and the two wands
    swapped when several claimed it."""

    target: str
    kind: str | None  # the token's face, when the table has seen it
    claimants: tuple[str, ...]
    winner: str
    swap: tuple[str, str] | None

    def as_json(self) -> JsonObject:
        return {"target": self.target, "kind": self.kind, "claimants": list(self.claimants), "winner": self.winner,
                "swap": None if self.swap is None else list(self.swap), "losers": list(self.claimants[1:])}


@dataclass(frozen=True, slots=True)
class Casting:
    """The last casting as the table saw it: every target, the wands before it, and each contest."""

    number: int
    phase: str
    targets: Mapping[str, str | None]
    wands: Mapping[str, int]  # before the swaps
    claims: tuple[Contest, ...]

    def as_json(self) -> JsonObject:
        return {"casting": self.number, "phase": self.phase, "targets": dict(self.targets), "wands": dict(self.wands),
                "claims": [c.as_json() for c in self.claims]}


@dataclass(slots=True)
class State:
    players: tuple[str, ...]
    expert: bool
    table_draws: bool  # True: the table draws and enters what it sees; False: the companion draws
    wands: dict[str, int]
    satchels: dict[str, tuple[str, ...]]
    kinds: dict[str, str | None]  # token id -> kind; None until the table enters it
    secret: frozenset[str]  # ids whose kind the table has not seen (public views hide them)
    pools: dict[str, tuple[str, ...]]  # pool -> kinds still unseen (drawn-but-unknown tokens included)
    room: str | None  # the room tile being examined (None: dungeon, or waiting for the table)
    slots: tuple[str | None, ...]  # the room's tokens by slot
    potions: tuple[str | None, ...]
    books: tuple[str | None, ...]
    sorcerers: tuple[str | None, ...]  # the sorcerer spaces
    face_up: frozenset[int]  # sorcerer spaces turned face up
    cards: tuple[str | None, ...]  # the open spell cards (None: opened at the table, not yet entered)
    cards_used: tuple[str, ...]
    specials: tuple[str, ...]  # the special area
    moat: tuple[str, ...]
    aside: tuple[str, ...]  # set aside unseen (sorcerers by player count)
    held: tuple[str, ...]
    phase: str  # room | dungeon | over
    queue: tuple[Step, ...]  # what the current casting still has to resolve, in order
    pending: Pending  # what the table must do next: a casting, a spell card, a satchel's choice, ...
    spell_takers: tuple[str, ...]  # who received a spell token in this casting (they cast after it)
    wands_down: tuple[str, ...]
    next_id: int
    casting: int
    last_cast: Casting | None  # None before the first casting
    notes: tuple[Note, ...]  # what happened since the last casting, in order

    def copy(self) -> State:
        return State(
            self.players, self.expert, self.table_draws, dict(self.wands), dict(self.satchels),
            dict(self.kinds), self.secret, dict(self.pools), self.room, self.slots, self.potions, self.books,
            self.sorcerers, self.face_up, self.cards, self.cards_used, self.specials, self.moat, self.aside,
            self.held, self.phase, self.queue, self.pending, self.spell_takers,
            self.wands_down, self.next_id, self.casting, self.last_cast, self.notes)

    def note(self, **what: object) -> None:
        self.notes = self.notes + (what,)

    def new_token(self, pool: str, kind: str | None, hidden: bool) -> str:
        """A token taken out of the box: its id, its kind if known (removed from its pool)."""
        token = f"{pool}{self.next_id}"
        self.next_id += 1
        self.kinds[token] = kind
        if kind is not None:
            self.pools[pool] = remove_one(self.pools[pool], kind)
        if hidden or kind is None:
            self.secret = self.secret | {token}
        return token

    def reveal(self, token: str) -> None:
        if token in self.secret:
            self.secret = self.secret - {token}


def remove_one(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1:]

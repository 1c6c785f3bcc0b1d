"""The table at one moment: a plain value that ``apply`` copies and never changes in place.

The companion keeps what the whole table shares and what cardboard lets people forget or miscount:
the ritual circle (marker, curses on fields 2-5), the grimoire (which page is open, which monsters
were banished or escaped), the round marker, the madness pile and every player's madness cards, the
spells each player has laid out and whether they are exhausted, the library and the element supply.
With ``"hands": "confirm"`` (the default) the element cards in hands and decks stay on the table and
each payer confirms on the tablet; with ``"hands": "tracked"`` every player's hand, deck and discard
pile are kept here too (``Cards``), so a payment the hand cannot make is refused.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.games.notes import Note


@dataclass(slots=True)
class Cards:
    """One player's element cards (tracked hands), each named element + value: ``"feuer1"``, ``"luft2"``.
    Their madness cards in hand are ``Player.madness_hand``."""

    hand: tuple[str, ...] = ()  # sorted
    deck: tuple[str, ...] = ()  # face down, top first (table draws: its order is the table's, kept sorted)
    discard: tuple[str, ...] = ()
    sheet: str = ""  # the character sheet


@dataclass(slots=True)
class Player:
    name: str
    madness_hand: int = 0
    madness_support: int = 0  # madness cards lying in this player's support zone
    spells: tuple[str, ...] = ()  # laid out, in order
    exhausted: frozenset[str] = frozenset()
    out: bool = False  # fell to madness and left the game
    cards: Cards | None = None  # tracked hands only

    def copy(self) -> Player:
        # Spelled out rather than dataclasses.replace: a copy is made for every player on every action.
        cards = self.cards
        return Player(self.name, self.madness_hand, self.madness_support, self.spells, self.exhausted, self.out,
                      Cards(cards.hand, cards.deck, cards.discard, cards.sheet) if cards else None)


@dataclass(slots=True)
class State:
    players: tuple[Player, ...]
    difficulty: str
    book: tuple[str, ...]  # page ids in the order they open, the last page last
    page: int  # index into book of the open page; -1 before the first opens
    round: int  # the round marker's field on the difficulty row (0-based); -1 before the first page
    marker: int  # the ritual marker's field: 0 is ↺, then 1-5
    fields: dict[int, tuple[str, ...]]  # field 2-5 -> curse ids lying there, in the order laid
    piles: dict[str, tuple[str, ...]]  # curse pile -> curse ids, top first
    madness_pile: int
    supply: dict[str, dict[int, int]]  # element -> 2 or 3 -> cards left
    library: dict[str, tuple[str, ...]]  # element -> spell ids, the face-up one first
    banished: tuple[str, ...]  # pages whose monster was banished
    escaped: tuple[str, ...]
    curses_banished: int
    spells_gone: tuple[str, ...]  # library spells taken out of the game to make room
    active: int  # seat of the active player
    turn: int  # turns begun, from 1
    outcome: str | None  # None while playing; "won" or "lost"
    why: str | None  # why the game was lost
    notes: tuple[Note, ...] = field(default=())  # what happened since the active player's last action
    table_draws: bool = False  # the table draws the curses from its own piles and enters them
    awaiting: tuple[str, ...] = ()  # table draws: the piles whose top curse the table must enter, in order
    drawing: tuple[tuple[str, int], ...] = ()  # table draws, tracked hands: (player, cards) each must enter
    page_wanted: bool = False  # table draws: the open page is turned at the table and entered

    def copy(self) -> State:
        players = tuple(p.copy() for p in self.players)
        return replace(self, players=players, fields=dict(self.fields),
                       piles=dict(self.piles), supply={e: dict(v) for e, v in self.supply.items()},
                       library=dict(self.library))

    def note(self, **what: object) -> None:
        self.notes = self.notes + (what,)

    def seat(self, name: object) -> int | None:
        return next((i for i, p in enumerate(self.players) if p.name == name), None)

    def player(self, name: str) -> Player:
        seat = self.seat(name)
        if seat is None:
            raise KeyError(name)
        return self.players[seat]

    @property
    def tracked(self) -> bool:
        """Whether the companion keeps every hand (``"hands": "tracked"``)."""
        return self.players[0].cards is not None

    @property
    def pending(self) -> bool:
        """Whether the table still has to enter something it drew or turned before play goes on."""
        return bool(self.awaiting or self.drawing or self.page_wanted)

    @property
    def current(self) -> Player:
        return self.players[self.active]

    @property
    def curses_out(self) -> tuple[str, ...]:
        return tuple(c for f in sorted(self.fields) for c in self.fields[f])

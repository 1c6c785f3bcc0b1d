"""The table at one moment: a plain value that ``apply`` copies and never changes in place.

Each space holds a stack, bottom first: towers (``T1``…``T9``), wizards (``@Lera``) and Ravenskeep
(``R``, always on top of its stack). The wizards above the topmost tower of a space are visible; the
ones under a tower are imprisoned, and whose they are is never shown until they are uncovered.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.games.notes import Note

RAVENSKEEP = "R"
Stack = tuple[str, ...]


def wizard(player: str) -> str:
    return "@" + player


def owner(item: str) -> str | None:
    return item[1:] if item.startswith("@") else None


def is_tower(item: str) -> bool:
    return item.startswith("T")


@dataclass(slots=True)
class Player:
    name: str
    full: int = 0
    empty: int = 5
    spent: int = 0  # returned to the box
    keep: int = 0  # wizards dropped into Ravenskeep


@dataclass(frozen=True, slots=True)
class DieRoll:
    """A die card being rolled: what it moves, its dice, every value rolled (the last counts), and the
    rerolls its extra dice still allow."""

    moves: str
    dice: int
    values: tuple[int, ...]
    rerolls_left: int

    @property
    def last(self) -> int:
        return self.values[-1]

    def as_json(self) -> dict[str, object]:
        return {"moves": self.moves, "dice": self.dice, "values": list(self.values), "rerolls_left": self.rerolls_left}


@dataclass(slots=True)
class State:
    players: tuple[Player, ...]
    spaces: tuple[Stack, ...]
    first: int  # the starting player's seat: a round ends before their turn
    active: int
    turn: int
    cards_played: int
    forwent: bool  # discarded the hand and moved a tower instead of playing cards
    spell_cast: bool
    roll: DieRoll | None
    ending: bool  # someone has every bottle full and every wizard in Ravenskeep: finish the round
    over: bool
    notes: tuple[Note, ...] = field(default=())
    table_dice: bool = False  # True: the table rolls the real die and enters the face it shows

    def copy(self) -> State:
        return replace(self, players=tuple(replace(p) for p in self.players))

    def note(self, **what: object) -> None:
        self.notes = self.notes + (what,)

    def seat(self, name: object) -> int | None:
        return next((i for i, p in enumerate(self.players) if p.name == name), None)

    @property
    def current(self) -> Player:
        return self.players[self.active]

    def where(self, item: str) -> int | None:
        return next((s for s, stack in enumerate(self.spaces) if item in stack), None)

    def put(self, space: int, stack: Stack) -> None:
        self.spaces = self.spaces[:space] + (stack,) + self.spaces[space + 1:]

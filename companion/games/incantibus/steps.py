"""What a casting still has to resolve, step by step (``State.queue``), and what the table must do
next (``State.pending``): each a small value of its own kind, so a step's parts have names and types.

The queue runs in ``tower.run``: a step that needs the table (a secret token's face, a full satchel's
choice, a spell card) puts itself back and leaves a prompt pending, and the queue waits for the answer.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.incantibus.actions import SpellChoice

# -- the casting's queue ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Win:
    """The winner of ``ref`` receives what is there, with the wand they held (``pay``: what they chose to
    pay a potion, book or sorcerer with; None: the cheapest)."""

    player: str
    ref: str
    strength: int
    pay: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class Gain:
    """A token arrives: from the casting (``source`` "cast") or by a spell (its card's name)."""

    player: str
    token: str
    source: str


@dataclass(frozen=True, slots=True)
class Store:
    """Into the satchel, or the satchel's choice asked for when it does not fit."""

    player: str
    token: str


@dataclass(frozen=True, slots=True)
class Spells:
    """The spell takers cast, strongest wand first, once every token is taken."""


@dataclass(frozen=True, slots=True)
class Spell:
    """``player`` casts a spell: the table is asked for the card (first the new cards' faces)."""

    player: str


@dataclass(frozen=True, slots=True)
class Effect:
    """What the card ``player`` chose does."""

    player: str
    card: str
    choice: SpellChoice | None


@dataclass(frozen=True, slots=True)
class End:
    """The casting is done: the next casting, room or the end."""


@dataclass(frozen=True, slots=True)
class WandsDown:
    """Those who can do nothing useful put their wand on the table."""

    players: tuple[str, ...]


Step = Win | Gain | Store | Spells | Spell | Effect | End | WandsDown

# -- what the table must do next (``kind``: its name in the view's ``pending`` and ``legal``) --------------


@dataclass(frozen=True, slots=True)
class AwaitCast:
    kind: ClassVar[str] = "cast"


@dataclass(frozen=True, slots=True)
class AwaitSpell:
    kind: ClassVar[str] = "spell"
    player: str


@dataclass(frozen=True, slots=True)
class AwaitSatchel:
    kind: ClassVar[str] = "satchel"
    player: str
    token: str


@dataclass(frozen=True, slots=True)
class AwaitReveal:
    """Table draws: the faces of these places (``r3``, ``s5``, ``c0``) to be entered."""

    kind: ClassVar[str] = "reveal"
    refs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AwaitRoom:
    """Table draws: the next room tile to be turned over and entered."""

    kind: ClassVar[str] = "room_entered"


@dataclass(frozen=True, slots=True)
class AwaitWandDown:
    kind: ClassVar[str] = "wand_down"
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    kind: ClassVar[str] = "over"


Pending = AwaitCast | AwaitSpell | AwaitSatchel | AwaitReveal | AwaitRoom | AwaitWandDown | GameOver

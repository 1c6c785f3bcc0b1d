"""The openings still to resolve, step by step (``State.queue``), and what the table must do next
(``State.pending``): each a small value of its own kind, so a step's parts have names and types.

An opening is queued as ``OpenPortal``, ``ChooseEffect`` (yellow portals), ``Achieve``,
``SelectPortal`` and ``ClaimReward``; the three that need the player's choice wait as ``pending``
(``opening.run``). ``kind`` is each one's name in the view's ``pending`` and ``legal``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

# -- the steps of an opening --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenPortal:
    """The portal's crystals go back to the stockpile and its opening begins."""

    kind: ClassVar[str] = "open"
    player: str
    portal: str


@dataclass(frozen=True, slots=True)
class ChooseEffect:
    """A yellow portal's instant effect, waiting for its player's choice when it has one."""

    kind: ClassVar[str] = "effect"
    player: str
    portal: str


@dataclass(frozen=True, slots=True)
class Achieve:
    """The portal goes to its player's achievements area."""

    kind: ClassVar[str] = "achieve"
    player: str
    portal: str


@dataclass(frozen=True, slots=True)
class SelectPortal:
    """A new portal from the central row (``picks``: how many are still to take)."""

    kind: ClassVar[str] = "select"
    player: str
    picks: int


@dataclass(frozen=True, slots=True)
class ClaimReward:
    """A number-of-portals reward to be claimed or let pass."""

    kind: ClassVar[str] = "rewards"
    player: str


Step = OpenPortal | ChooseEffect | Achieve | SelectPortal | ClaimReward
Choice = ChooseEffect | SelectPortal | ClaimReward  # the steps that wait for their player
CHOICES = (ChooseEffect, SelectPortal, ClaimReward)

# -- what else the table may be waiting for -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AwaitDeal:
    """The table's own cards: the deal as laid out."""

    kind: ClassVar[str] = "dealt"


@dataclass(frozen=True, slots=True)
class AwaitKeep:
    """These players still keep three of their dealt portals."""

    kind: ClassVar[str] = "keep"
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AwaitDraw:
    kind: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class AwaitCrystals:
    """Crystals for the token drawn (and INCANTATUM! once a portal is full)."""

    kind: ClassVar[str] = "crystallize"


@dataclass(frozen=True, slots=True)
class GameOver:
    kind: ClassVar[str] = "over"


Pending = AwaitDeal | AwaitKeep | AwaitDraw | AwaitCrystals | ChooseEffect | SelectPortal | ClaimReward | GameOver

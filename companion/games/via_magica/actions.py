"""The actions a Via Magica table proposes, as typed models (unknown keys refused, sizes bounded).

Every one is documented in docs/via-magica.md. A space is named by its portal's copy id and its
index across the top of the card, counted from 0 on the left.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from companion.engine.actions import ActionModel, ActionPart, actions_of

Name = Annotated[str, Field(min_length=1, max_length=40)]
PortalId = Annotated[str, Field(min_length=1, max_length=8)]
Index = Annotated[int, Field(ge=0, le=5)]


class Space(ActionPart):
    portal: PortalId
    space: Index


class Swap(ActionPart):
    """The 2-copies rule at the deal: one of two copies given to the central row for one of its portals."""

    give: PortalId
    take: PortalId


class Keep(ActionModel):
    type: Literal["keep"] = "keep"
    player: Name
    portals: list[PortalId] = Field(max_length=6)
    swap: Swap | None = None


class Draw(ActionModel):
    """The Catcher draws: the companion draws, or ``animus`` is the token drawn from the real bag."""

    type: Literal["draw"] = "draw"
    animus: Annotated[str, Field(max_length=10)] | None = None


class Crystal(ActionModel):
    """One crystal for this turn's token: from the stockpile, or ``moved_from`` a placed crystal."""

    type: Literal["crystal"] = "crystal"
    player: Name
    to: Space
    moved_from: Space | None = None


class Incantatum(ActionModel):
    """The race of the button wands: who called first, and who called in the same instant (if any)."""

    type: Literal["incantatum"] = "incantatum"
    first: Name
    tie: list[Name] = Field(default_factory=list, max_length=6)


class Effect(ActionModel):
    """A yellow portal's choice: spaces for its crystals, a new layout of the crystals, or a portal to open."""

    type: Literal["effect"] = "effect"
    player: Name
    spaces: list[Space] = Field(default_factory=list, max_length=6)
    layout: dict[PortalId, list[Index]] | None = Field(default=None, max_length=8)
    open: PortalId | None = None


class Take(ActionModel):
    """A new portal from the central row; with the table's cards, ``revealed`` is the design turned up
    from the draw pile to refill the row (null: the pile is empty)."""

    type: Literal["portal"] = "portal"
    player: Name
    take: PortalId | None
    revealed: PortalId | None = None


class Dealt(ActionModel):
    """With the table's cards: the central row and the three portals each player kept, by design."""

    type: Literal["dealt"] = "dealt"
    row: list[PortalId] = Field(max_length=5)
    kept: dict[Name, list[PortalId]] = Field(max_length=6)


class Claim(ActionModel):
    """Claim (or let pass) the number-of-portals reward at the one instant it can be claimed."""

    type: Literal["reward"] = "reward"
    player: Name
    claim: bool


ViaMagicaAction = Keep | Draw | Crystal | Incantatum | Effect | Take | Claim | Dealt
ACTIONS: TypeAdapter[ViaMagicaAction] = actions_of(Keep, Draw, Crystal, Incantatum, Effect, Take, Claim, Dealt)

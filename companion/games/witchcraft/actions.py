"""The actions a Witchcraft table proposes, as typed models (unknown keys refused, sizes bounded).

Market spaces are numbered 0-8, row by row from the top left. Every action is documented in
docs/witchcraft.md.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from companion.engine.actions import ActionModel, actions_of

Name = Annotated[str, Field(min_length=1, max_length=40)]
Space = Annotated[int, Field(ge=0, le=8)]


class CatBuy(BaseModel):
    """The Cat's extra ingredient: the space bought, and where the crystal goes if one is paid."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    card: Space
    pay: Space | None = None


class Buy(ActionModel):
    """Buy cards: ``pay`` is where each crystal goes (one per card bought with no crystal on it);
    ``familiar``: the Squirrel (4 adjacent) or the Raccoon (exactly 3, 1 crystal less)."""

    type: Literal["buy"] = "buy"
    witch: Name
    cards: list[Space] = Field(max_length=4)
    pay: list[Space] = Field(default_factory=list, max_length=4)
    familiar: Literal["squirrel", "raccoon"] | None = None
    assign: dict[Annotated[str, Field(pattern=r"^[0-8]$")], Annotated[str, Field(max_length=8)]] | None = \
        Field(default=None, max_length=4)  # market space -> the spell its ingredient goes on (default: the companion's choice)


class TakeFamiliar(ActionModel):
    """The top familiar; with the table's cards ``revealed`` is the one on top of its real stack."""

    type: Literal["take_familiar"] = "take_familiar"
    witch: Name
    cat: CatBuy | None = None
    revealed: Annotated[str, Field(min_length=1, max_length=12)] | None = None


class TakeBasicSpell(ActionModel):
    """The top basic spell; with the table's cards ``revealed`` is the one on top of its real stack."""

    type: Literal["take_basic_spell"] = "take_basic_spell"
    witch: Name
    cat: CatBuy | None = None
    revealed: Annotated[str, Field(min_length=1, max_length=8)] | None = None


class TurnUp(ActionModel):
    """The table's cards: what it turned up, in order: onto the market's empty spaces from the top left
    (some or all of them), or for a witch's starting benefit every card turned over until the one she
    keeps, which comes last (the Kind: the familiar on top of the stack)."""

    type: Literal["turn_up"] = "turn_up"
    witch: Name
    cards: list[Annotated[str, Field(min_length=1, max_length=12)]] = Field(min_length=1, max_length=40)


class DrawWitch(ActionModel):
    """The table's cards: the witch the player ``witch`` drew."""

    type: Literal["draw_witch"] = "draw_witch"
    witch: Name
    drawn: Annotated[str, Field(min_length=1, max_length=20)]


class TakeCrystals(ActionModel):
    type: Literal["take_crystals"] = "take_crystals"
    witch: Name
    cat: CatBuy | None = None


class FamiliarAction(ActionModel):
    """The Magpie (6 crystals), the Raven (a market row under the deck, then a buy) or the Goat."""

    type: Literal["familiar_action"] = "familiar_action"
    witch: Name
    familiar: Literal["magpie", "raven", "goat"]
    row: Annotated[int, Field(ge=0, le=2)] | None = None


class Hare(ActionModel):
    type: Literal["hare"] = "hare"
    witch: Name


class Snake(ActionModel):
    type: Literal["snake"] = "snake"
    witch: Name
    ingredient: Annotated[str, Field(max_length=30)]


class Discard(ActionModel):
    """The spell over the limit at the end of the turn, or the familiar over the limit."""

    type: Literal["discard"] = "discard"
    witch: Name
    spell: Annotated[str, Field(max_length=8)] | None = None
    familiar: Annotated[str, Field(max_length=12)] | None = None


Take = TakeFamiliar | TakeBasicSpell | TakeCrystals  # an action taken instead of buying
WitchcraftAction = Buy | TakeFamiliar | TakeBasicSpell | TakeCrystals | FamiliarAction | Hare | Snake | Discard | \
    TurnUp | DrawWitch
ACTIONS: TypeAdapter[WitchcraftAction] = actions_of(Buy, TakeFamiliar, TakeBasicSpell, TakeCrystals, FamiliarAction,
                                                    Hare, Snake, Discard, TurnUp, DrawWitch)

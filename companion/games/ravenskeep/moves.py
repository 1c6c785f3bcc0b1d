"""The actions the table enters, declared as models: unknown keys refused, sizes bounded.

A played card says what it moves and how far: ``{"moves": "tower", "steps": 2}``; a die card is
rolled first (``roll``, then ``reroll`` as often as its extra dice allow) and played without
``card``: the last roll counts. The piece moved is ``{"wizard": space}`` (one of the player's visible
wizards there) or ``{"tower": "T4"}``; neither when the card cannot move anything. A tower that imprisons
wizards lets its mover fill an empty bottle, which they *may* do: ``"fill": false`` declines.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from companion.engine.actions import ActionModel, actions_of

Name = Field(min_length=1, max_length=40)
Moves = Literal["wizard", "tower", "either"]


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    moves: Moves
    steps: int = Field(ge=1, le=12)


class Roll(ActionModel):
    """A die card: Incanto rolls; each die beyond the first allows one reroll."""

    type: Literal["roll"]
    player: str = Name
    moves: Moves
    dice: int = Field(ge=1, le=3)
    value: int | None = Field(default=None, ge=-99, le=99)  # with the table's die: the face it shows


class Reroll(ActionModel):
    type: Literal["reroll"]
    player: str = Name
    value: int | None = Field(default=None, ge=-99, le=99)  # with the table's die: the face it shows


class Play(ActionModel):
    type: Literal["play"]
    player: str = Name
    card: Card | None = None  # a numbered card; none after a roll
    wizard: int | None = Field(default=None, ge=0, le=99)
    tower: str | None = Field(default=None, max_length=4)
    fill: bool = True  # a tower that imprisons: the mover may fill a bottle; false declines it


class Forgo(ActionModel):
    """Both cards forgone: the whole hand discarded and any one tower one space on."""

    type: Literal["forgo"]
    player: str = Name
    tower: str | None = Field(default=None, max_length=4)
    fill: bool = True  # a tower that imprisons: the mover may fill a bottle; false declines it


class Spell(ActionModel):
    type: Literal["spell"]
    player: str = Name
    spell: str = Field(min_length=1, max_length=20)
    steps: int = Field(ge=1, le=12)
    wizard: int | None = Field(default=None, ge=0, le=99)
    tower: str | None = Field(default=None, max_length=4)
    fill: bool = True  # a tower that imprisons: the mover may fill a bottle; false declines it


class EndTurn(ActionModel):
    type: Literal["end_turn"]
    player: str = Name


RavenskeepAction = Roll | Reroll | Play | Forgo | Spell | EndTurn
Moving = Play | Forgo | Spell  # the actions that move a piece: a wizard or a tower, or neither
ACTIONS: TypeAdapter[RavenskeepAction] = actions_of(Roll, Reroll, Play, Forgo, Spell, EndTurn)

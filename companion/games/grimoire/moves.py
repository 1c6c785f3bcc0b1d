"""The actions the table enters, declared as models: unknown keys refused, sizes bounded.

Every action names the active player. Payments are not entered: what is paid is fixed by what is
bought (a curse's four elements, a spell's cost times how often it is amplified, two elements of a
spell's type, a card's value), and the cards are laid on the discard piles at the table.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from companion.engine.actions import ActionModel, actions_of

Name = Field(min_length=1, max_length=40)
Zone = Literal["hand", "support"]  # where a madness card lies: a player's hand or a support zone
Id = Field(min_length=1, max_length=40)


class Banish(ActionModel):
    """A curse banished with its four elements; ``reward``: the element of the 2-element card taken."""

    type: Literal["banish"]
    player: str = Name
    curse: str = Id
    reward: str | None = Field(default=None, max_length=20)
    helpers: list[str] = Field(default_factory=list, max_length=4)  # whose support zones paid a part


class Cast(ActionModel):
    type: Literal["cast"]
    player: str = Name
    spell: str = Id
    times: int = Field(default=1, ge=1, le=9)  # the cost paid this many times: the effect as often


class Learn(ActionModel):
    type: Literal["learn"]
    player: str = Name
    spell: str = Id
    drop: str | None = Field(default=None, max_length=40)  # a spell taken out of the game to make room


class Buy(ActionModel):
    type: Literal["buy"]
    player: str = Name
    element: str = Field(min_length=1, max_length=20)
    value: Literal[2, 3]


class Cure(ActionModel):
    """One madness card cured for two element cards: from the player's hand or anyone's support zone."""

    type: Literal["cure"]
    player: str = Name
    owner: str | None = Field(default=None, max_length=40)  # whose support zone; default the player
    zone: Zone = "hand"


class EndTurn(ActionModel):
    type: Literal["end_turn"]
    player: str = Name


class CursesDrawn(ActionModel):
    """Table draws: the four elements of each curse the table drew, in the order asked for."""

    type: Literal["curses_drawn"]
    curses: list[Annotated[list[Annotated[str, Field(max_length=12)]], Field(min_length=4, max_length=4)]] = Field(max_length=12)


GrimoireAction = Banish | Cast | Learn | Buy | Cure | EndTurn | CursesDrawn
ACTIONS: TypeAdapter[GrimoireAction] = actions_of(Banish, Cast, Learn, Buy, Cure, EndTurn, CursesDrawn)

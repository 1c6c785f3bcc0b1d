"""The actions the table enters, declared as models: unknown keys refused, sizes bounded.

Every action names the active player. What is paid is fixed by what is bought (a curse's four
elements, a spell's cost times how often it is amplified, two elements of a spell's type, a card's
value). With tracked hands a player may name the cards of their hand that pay (``pay``); otherwise
the companion takes the cheapest ones, and with hands kept secret nobody names cards at all.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from companion.engine.actions import ActionModel, actions_of

Name = Field(min_length=1, max_length=40)
Zone = Literal["hand", "support"]  # where a madness card lies: a player's hand or a support zone
Id = Field(min_length=1, max_length=40)
CardName = Annotated[str, Field(min_length=1, max_length=12)]  # an element card: "feuer1", "luft2"; "wahnsinn"

# ``pay``: the cards of the hand that pay (tracked hands only; default: the cheapest that cover the cost).
PAY = 12


class Banish(ActionModel):
    """A curse banished with its four elements; ``reward``: the element of the 2-element card taken."""

    type: Literal["banish"]
    player: str = Name
    curse: str = Id
    reward: str | None = Field(default=None, max_length=20)
    helpers: list[str] = Field(default_factory=list, max_length=4)  # whose support zones paid a part
    pay: list[CardName] | None = Field(default=None, max_length=PAY)


class Cast(ActionModel):
    type: Literal["cast"]
    player: str = Name
    spell: str = Id
    times: int = Field(default=1, ge=1, le=9)  # the cost paid this many times: the effect as often
    pay: list[CardName] | None = Field(default=None, max_length=PAY)


class Learn(ActionModel):
    type: Literal["learn"]
    player: str = Name
    spell: str = Id
    drop: str | None = Field(default=None, max_length=40)  # a spell taken out of the game to make room
    pay: list[CardName] | None = Field(default=None, max_length=PAY)


class Buy(ActionModel):
    type: Literal["buy"]
    player: str = Name
    element: str = Field(min_length=1, max_length=20)
    value: Literal[2, 3]
    pay: list[CardName] | None = Field(default=None, max_length=PAY)


class Cure(ActionModel):
    """One madness card cured for two element cards: from the player's hand or anyone's support zone."""

    type: Literal["cure"]
    player: str = Name
    owner: str | None = Field(default=None, max_length=40)  # whose support zone; default the player
    zone: Zone = "hand"
    pay: list[CardName] | None = Field(default=None, max_length=PAY)


class EndTurn(ActionModel):
    """The end of the turn; tracked hands: ``discard``, the element cards laid down to bring the hand to six."""

    type: Literal["end_turn"]
    player: str = Name
    discard: list[CardName] | None = Field(default=None, max_length=30)


class CursesDrawn(ActionModel):
    """Table draws: the four elements of each curse the table drew, in the order asked for."""

    type: Literal["curses_drawn"]
    curses: list[Annotated[list[Annotated[str, Field(max_length=12)]], Field(min_length=4, max_length=4)]] = Field(max_length=12)


class CardsDrawn(ActionModel):
    """Table draws, tracked hands: the element cards a player drew from their own deck."""

    type: Literal["cards_drawn"]
    player: str = Name
    cards: list[CardName] = Field(min_length=1, max_length=12)


class PageOpened(ActionModel):
    """Table draws: the middle page the table turned up when the grimoire's next page opened."""

    type: Literal["page_opened"]
    page: str = Id


GrimoireAction = Banish | Cast | Learn | Buy | Cure | EndTurn | CursesDrawn | CardsDrawn | PageOpened
ACTIONS: TypeAdapter[GrimoireAction] = actions_of(Banish, Cast, Learn, Buy, Cure, EndTurn, CursesDrawn, CardsDrawn,
                                                  PageOpened)

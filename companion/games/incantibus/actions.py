"""Every action Incantibus accepts, declared as a model: the shape the engine checks before the rules
look at an action (docs/incantibus.md lists them with examples).

Only shapes live here: unknown keys, wrong types and oversized values are refused with
``MalformedAction`` naming the key. Whether an action is legal now (a target that holds a token, a
player whose turn it is) is the rules' ``check``, which reports every problem at once.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from companion.engine.actions import ActionModel, ActionPart, Word, actions_of

MAX_NAMES = 8  # twice the most players: a name too many is the rules' to name ("cast-player"), more is junk
MAX_ROOM_TOKENS = 16  # the largest room tile holds 8 tokens; twice that is junk
MAX_PAY = 8  # the dearest payment (a Dark Knight's 4 weapons) is 4 tokens
MAX_FACES = 32  # faces awaited at once: at most a room, the potions, the books, a sorcerer and the cards


class Cast(ActionModel):
    """Every player's target at once (``null``: no target) and, optionally, what a player pays with."""

    type: Literal["cast"] = "cast"
    targets: Annotated[dict[Word, Word | None], Field(max_length=MAX_NAMES)]
    pay: Annotated[dict[Word, Annotated[list[Word], Field(max_length=MAX_PAY)]], Field(max_length=MAX_NAMES)] = {}


class SpellChoice(ActionPart):
    """What a card acts on: ALKIMIA ``{"from": player, "token": id}``, the others ``{"token": ...}``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, serialize_by_alias=True)

    from_: Word | None = Field(default=None, alias="from")  # ``from`` is a Python keyword
    token: Word


class Spell(ActionModel):
    type: Literal["spell"] = "spell"
    player: Word
    card: Word
    choice: SpellChoice | None = None


class Discard(ActionPart):
    discard: Word


class Satchel(ActionModel):
    """A full satchel's choice: throw away the new token, or a satchel token that makes room for it."""

    type: Literal["satchel"] = "satchel"
    player: Word
    choice: Literal["discard_new"] | Discard


class WandDown(ActionModel):
    type: Literal["wand_down"] = "wand_down"
    player: Word


class RoomEntered(ActionModel):
    """Table draws: the room the table laid out (``room`` left out: the first remaining tile that fits)."""

    type: Literal["room_entered"] = "room_entered"
    room: Word | None = None
    visible: Annotated[list[Word], Field(max_length=MAX_ROOM_TOKENS)]
    secret: Annotated[int, Field(ge=0, le=MAX_ROOM_TOKENS)]


class Reveal(ActionModel):
    """Table draws: faces the companion waits for, ``kinds`` by place, or one ``token_id`` and ``kind``."""

    type: Literal["reveal"] = "reveal"
    kinds: Annotated[dict[Word, Word], Field(max_length=MAX_FACES)] | None = None
    token_id: Word | None = None
    kind: Word | None = None


IncantibusAction = Cast | Spell | Satchel | WandDown | RoomEntered | Reveal
ACTIONS: TypeAdapter[IncantibusAction] = actions_of(Cast, Spell, Satchel, WandDown, RoomEntered, Reveal)

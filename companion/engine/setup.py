"""The setup: the first entry of every game's log, validated like an action before anything is written.

Stored as JSON exactly as before (``{"game", "players", "options", "seed"}``, and ``"position"`` only for
a game started from a described position), so every store written earlier reads back unchanged.
"""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from companion.engine.actions import MAX_ACTION_BYTES, Word, check_bounds, describe
from companion.engine.players import Players
from companion.errors import MalformedAction

MAX_SEED = 2**63 - 1  # SQLite's largest integer: a seed must survive the store
MAX_POSITION_BYTES = 4 * MAX_ACTION_BYTES  # a whole table described: every token of the box, by id
MAX_POSITION_DEPTH = 5


class Setup(BaseModel):
    """What was set up: the game, the players in seat order, the options, the seed of every draw, and
    optionally the position the game starts from instead of the game's own setup."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    game: Word
    players: Players
    options: dict[Word, JsonValue] = Field(default_factory=dict)
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)]
    position: dict[Word, JsonValue] | None = None

    @classmethod
    def parse(cls, raw: dict[str, Any]) -> Setup:
        """``raw`` validated; MalformedAction naming every key that is wrong."""
        if raw.get("position") is not None:
            check_bounds(raw["position"], MAX_POSITION_DEPTH, MAX_POSITION_BYTES, what="position")
        check_bounds({k: v for k, v in raw.items() if k != "position"}, what="setup")
        try:
            return cls.model_validate(raw)
        except ValidationError as exc:
            raise MalformedAction(describe(exc, what="setup", tagged=False)) from None

    @classmethod
    def stored(cls, payload: dict[str, Any]) -> Setup:
        """A setup entry read back from a log: it was validated when it was written, so it is taken as it
        is (a store written by an earlier Incanto, with names it would refuse today, still opens)."""
        return cls.model_construct(**payload)

    def payload(self) -> dict[str, Any]:
        """The JSON stored as the setup entry."""
        payload: dict[str, Any] = {"game": self.game, "players": list(self.players), "options": dict(self.options),
                                   "seed": self.seed}
        if self.position is not None:
            payload["position"] = self.position
        return payload

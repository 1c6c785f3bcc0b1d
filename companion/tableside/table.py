"""What the table side needs of the table it plays at, declared here so the table side knows no
display: the root hands it the display's table, tests a table of their own. Every change is a
proposal the engine validates; a reading the camera is unsure of becomes a question for the tablets."""
from __future__ import annotations

from typing import Any, Protocol

from companion.engine.game import Game
from companion.question import CastQuestion


class Asked(Protocol):
    """A question put to the tablets; its ``id`` is how the table later refers to it."""

    @property
    def id(self) -> str: ...


class Table(Protocol):
    @property
    def game(self) -> Game:
        """The game being played; an ``IncantoError`` when there is none."""

    def view(self) -> dict[str, Any]:
        """The current game's public view (``wands``, ``legal``, ``version``, ``last_cast``...)."""

    def propose(self, action: dict[str, Any], action_id: str | None, base: int | None) -> object:
        """Hand an action to the engine, which validates it; refusals are ``IncantoError``s."""

    def ask(self, question: CastQuestion) -> Asked:
        """Put the camera's question to the tablets; one already open for this casting is returned
        instead (a second cue joins it)."""

    def asking(self) -> Asked | None:
        """The camera's question open for the current casting, if any."""

"""The camera's question to the table, as one type from the table side to the tablets.

The table side reads a casting; the wands it is sure of go straight into the game's cast, and the
ones it is not sure of become a ``CastQuestion``: per wand, who holds it, the places it may have
pointed at (named as the board names them), why the camera could not tell, and the camera's picture
of that wand at the deciding moment. The display shows it, marks each tap, and makes the game's cast
from the answers once every wand is answered. Neither side knows the other (they meet here), and
the casting is named once, in ``cast_action``.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# The display's palette for outlining candidates in a picture and on their buttons, so a player
# matches the two at a glance; the players' seat colours are left out, so no outline reads as a seat.
OUTLINES = ("#ffffff", "#ffd23f", "#3ddcff", "#ff4fd8", "#8aff4f", "#ff8c2f")
NOTHING = "no token"  # how the tablets offer "pointed at nothing"


def cast_action(targets: Mapping[str, str | None]) -> dict[str, Any]:
    """The game's own cast: each player's place (None: at nothing). The engine validates it."""
    return {"type": "cast", "targets": dict(targets)}


@dataclass(frozen=True)
class Choice:
    """One place a wand may have pointed at: ``place`` as the game knows it (None: at nothing),
    ``name`` as the board page says it, its ``icon`` if the board has one, and the ``outline`` colour
    it has in the wand's picture."""

    place: str | None
    name: str
    icon: str | None = None
    outline: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"place": self.place, "name": self.name, "icon": self.icon, "outline": self.outline}


@dataclass(frozen=True)
class AskedWand:
    """One wand the camera could not read: its holder, its strength, the choices (best guess first,
    "nothing" last), why it asks (``vision.decide.WHY``, or "no_pictures"), and its picture (PNG)."""

    player: str
    wand: int
    choices: tuple[Choice, ...]
    why: str = ""
    picture: bytes | None = field(default=None, repr=False)

    def offers(self, place: str | None) -> bool:
        return any(c.place == place for c in self.choices)


@dataclass(frozen=True)
class CastQuestion:
    """``seen``: the players whose wands the camera read, with their places. ``wands``: the wands it
    asks about, in wand order. ``base``: the game version the reading was made at, so a casting
    entered on a tablet meanwhile withdraws the question."""

    seen: Mapping[str, str | None]
    wands: tuple[AskedWand, ...]
    base: int
    source: str = "camera"

    def __post_init__(self) -> None:
        players = [w.player for w in self.wands]
        if len(set(players)) != len(players) or set(players) & set(self.seen):
            raise ValueError(f"a player is asked twice or both seen and asked: asked {players!r}, seen {sorted(self.seen)!r}")
        if not self.wands:
            raise ValueError("a question needs at least one wand to ask about")

    def wand(self, strength: int) -> AskedWand:
        """The asked wand of that strength; KeyError when this question does not ask about it."""
        for w in self.wands:
            if w.wand == strength:
                return w
        raise KeyError(strength)

    def asked(self, player: str) -> AskedWand:
        for w in self.wands:
            if w.player == player:
                return w
        raise KeyError(player)

    def cast(self, answers: Mapping[str, str | None]) -> dict[str, Any]:
        """The game's cast with the table's answers for the asked wands; the seen wands stay as seen."""
        return cast_action({**self.seen, **{w.player: answers[w.player] for w in self.wands}})

"""Player names: the one place they are validated, for every door in (the tablets, a replay script).

A name is shown on every tablet and keys every action, so two names must never look alike: a name is
normalised to NFC, may not hold control or invisible characters (NUL, zero-width space, a right-to-left
override, a byte-order mark, a lone surrogate) nor a combining mark with no letter to sit on, and two
names of one game may not be the same once case and compatibility forms are folded ("Lera", "LERA").
"""
from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field, StringConstraints

MAX_NAME = 32  # longer than any name a tablet shows on one line

# Unicode categories no name may hold: control, format (zero-width and direction marks, the BOM),
# surrogates, private use, unassigned, and line or paragraph separators.
FORBIDDEN = {"Cc": "a control character", "Cf": "an invisible formatting character", "Cs": "a lone surrogate",
             "Co": "a private-use character", "Cn": "an unassigned character", "Zl": "a line separator",
             "Zp": "a paragraph separator"}


def normal(name: str) -> str:
    """``name`` in NFC with its outer spaces removed; ValueError naming the character that is refused."""
    name = unicodedata.normalize("NFC", name).strip(" ")
    if not name:
        raise ValueError("a player's name cannot be empty")
    for char in name:
        if (why := _why_not(char)) is not None:
            raise ValueError(f"player name {name!r} holds {why} (U+{ord(char):04X})")
    for before, char in zip(" " + name, name):
        if unicodedata.category(char).startswith("M") and before == " ":
            raise ValueError(f"player name {name!r} holds a combining mark with no letter to sit on (U+{ord(char):04X})")
    return name


def _why_not(char: str) -> str | None:
    category = unicodedata.category(char)
    if category in FORBIDDEN:
        return FORBIDDEN[category]
    if category == "Zs" and char != " ":
        return "a space other than the plain space"
    return None


def folded(name: str) -> str:
    """What ``name`` looks like to a person: compatibility forms and case folded away."""
    return unicodedata.normalize("NFKC", name).casefold()


def distinct(names: list[str]) -> list[str]:
    """``names`` unchanged; ValueError naming the first two that a person could not tell apart."""
    seen: dict[str, str] = {}
    for name in names:
        if (other := seen.setdefault(folded(name), name)) != name or names.count(name) > 1:
            raise ValueError(f"player names {other!r} and {name!r} are the same name to the table")
    return names


PlayerName = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME), AfterValidator(normal)]
"""A player's name as stored: NFC, no control or invisible characters (see ``normal``)."""

Players = Annotated[list[PlayerName], Field(min_length=1, max_length=8), AfterValidator(distinct)]
"""The players of one game in seat order, no two alike to the table (the rules say how many may play)."""

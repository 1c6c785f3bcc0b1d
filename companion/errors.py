"""A small family of errors, each also the built-in it resembles, each naming the bad value."""
from __future__ import annotations

from dataclasses import dataclass


SHORT = 60  # characters of a value quoted in a one-line message; a junk value may be megabytes


def short_repr(value: object) -> str:
    """``value`` as ``repr`` writes it (quoted, escapes shown, so always valid text), cut to ``SHORT``
    characters; the open end and ``...`` show it was cut."""
    text = repr(value)
    return text if len(text) <= SHORT else text[:SHORT - 3] + "..."


class IncantoError(Exception):
    """Base of every error Incanto raises on purpose."""


@dataclass(frozen=True)
class Problem:
    """One reason an action is illegal: who, at what, and which rule says no."""

    rule: str
    message: str
    player: str | None = None
    target: str | None = None

    def __str__(self) -> str:
        who = f"{self.player}: " if self.player else ""
        at = f" (target {self.target!r})" if self.target else ""
        return f"{who}{self.message}{at} [rule: {self.rule}]"

    def as_dict(self) -> dict[str, str | None]:
        return {"rule": self.rule, "message": self.message, "player": self.player, "target": self.target}


class IllegalAction(IncantoError, ValueError):
    """The rules refuse an action; every problem is reported at once and nothing changed."""

    def __init__(self, problems: list[Problem] | Problem) -> None:
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


class MalformedAction(IncantoError, ValueError):
    """An action that cannot even be read (wrong shape, unknown type, bad field)."""


class StaleAction(IncantoError, ValueError):
    """An action made against an older state than the one the game is in now."""

    def __init__(self, base: int, head: int) -> None:
        self.base, self.head = base, head
        super().__init__(f"action was made at version {base!r} but the game is at version {head!r}")


class NothingToUndo(IncantoError, ValueError):
    """Undo, redo or undo-to with nothing (or no such entry) to go back or forward to."""


class UnknownGame(IncantoError, KeyError):
    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0])


class StoreError(IncantoError, OSError):
    """The game store cannot be used; it was not modified."""


class SchemaVersionError(StoreError):
    """The store was written by another version of Incanto."""


class DamagedStoreError(StoreError):
    """The store file is not a readable Incanto database."""

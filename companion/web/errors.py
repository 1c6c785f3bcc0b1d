"""Refusals the display adds to the engine's errors: who may change things, how often, what exists."""
from __future__ import annotations

from companion.errors import IncantoError


class NotJoined(IncantoError, PermissionError):
    """A change was asked without a valid session: watching is open, changing needs the join code."""


class WrongJoinCode(IncantoError, PermissionError):
    """The join code typed on a tablet is not the one shown on the display."""


class TooManyRequests(IncantoError, RuntimeError):
    def __init__(self, who: str, per_minute: int) -> None:
        self.who, self.per_minute = who, per_minute
        super().__init__(f"too many requests from {who!r}: at most {per_minute} a minute; wait a moment")


class NoGame(IncantoError, LookupError):
    """Nothing is being played yet, so there is nothing to change."""


class UnknownQuestion(IncantoError, LookupError):
    """A tablet answered a question that was already answered or withdrawn."""

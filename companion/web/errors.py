"""Refusals the display adds to the engine's errors: who may change things, how often, what exists."""
from __future__ import annotations

from companion.errors import IncantoError, StoreError


class NotJoined(IncantoError, PermissionError):
    """A change was asked without a valid session: watching is open, changing needs the join code."""


class NotThePi(IncantoError, PermissionError):
    """Something only the Pi's own screen may do (a new join code) was asked from elsewhere."""


class NotTheHost(IncantoError, PermissionError):
    """A change to the table's calibration from a tablet the host has not made a host."""


class CalibrationBusy(IncantoError, RuntimeError):
    """The calibration's queue is full, or a step ran past its time budget: nothing was saved from it."""

    def __init__(self, message: str, retry_after_s: float = 5.0, over_budget: bool = False) -> None:
        self.retry_after_s, self.over_budget = retry_after_s, over_budget
        super().__init__(message)


class WrongJoinCode(IncantoError, PermissionError):
    """The join code typed on a tablet is not the one shown on the display."""


class TooManyRequests(IncantoError, RuntimeError):
    def __init__(self, who: str, per_minute: int) -> None:
        self.who, self.per_minute = who, per_minute
        self.retry_after_s = 60.0 / per_minute
        super().__init__(f"too many requests from {who!r}: at most {per_minute} a minute; wait a moment")


class JoiningPaused(TooManyRequests):
    """Too many wrong join codes from one address: joining from there waits (other tablets do not)."""

    def __init__(self, wait_s: float, failures: int, who: str) -> None:
        self.who, self.per_minute, self.retry_after_s = who, 0, wait_s
        RuntimeError.__init__(self, f"joining from {who!r} is paused for {max(1.0, wait_s):.0f} s after {failures} wrong "
                                    "join codes from there; try again then (the Pi's status page shows the attempts)")


class NoGame(IncantoError, LookupError):
    """Nothing is being played yet, so there is nothing to change."""


class UnknownQuestion(IncantoError, LookupError):
    """A tablet answered a question that was already answered or withdrawn."""


class DiskFull(StoreError):
    """The store could not be written because the disk is full; nothing was changed."""

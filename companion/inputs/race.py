"""First-to-press races for wands that have no hub (GPIO buttons on the Pi), with the hub's rule.

The rule itself lives once, in firmware/hub.py (`Race`): the earliest timestamp wins; presses in
the same microsecond tie and the seating order breaks the tie; a wand pressed while no race was
armed is locked out for a moment, as quiz buzzers do. This module drives that same code.
"""
from __future__ import annotations

from typing import Any

from companion.inputs.events import EarlyPress, RaceArmed, RaceWon
from companion.inputs.firmware import hub_module


def seating_order(first: int, seats_clockwise: list[int]) -> tuple[int, ...]:
    """Wands in tie-break order, starting with `first` and going clockwise (to each one's left).

    Via Magica: when several call INCANTATUM! at once, the Catcher (if among them) plays first,
    then the player to the Catcher's left, and so on: `seating_order(catcher_wand, seats)`.
    """
    if first not in seats_clockwise:
        raise ValueError(f"wand {first!r} is not seated at the table {seats_clockwise!r}")
    start = seats_clockwise.index(first)
    return tuple(seats_clockwise[start:] + seats_clockwise[:start])


class Referee:
    """Arms races and judges presses stamped in microseconds; one press at a time."""

    def __init__(self, lockout_us: int | None = None) -> None:
        self.firmware = hub_module()
        self.lockout_us: int = self.firmware.LOCKOUT_US if lockout_us is None else lockout_us
        self.locked_until: dict[int, int] = {}
        self.race: Any = None

    def arm(self, race: int, now_us: int, order: tuple[int, ...] = ()) -> RaceArmed:
        self.race = self.firmware.Race(race, now_us, list(order), self.locked_until)
        return RaceArmed(race, now_us)

    def disarm(self) -> None:
        self.race = None

    def press(self, wand: int, stamp_us: int) -> RaceWon | EarlyPress | None:
        """Judge one press: the win, a locked-out press during a race, or nothing to say."""
        if self.race is None or stamp_us < self.race.armed_us:
            self.locked_until[wand] = stamp_us + self.lockout_us
        if self.race is None:
            return None
        if not self.race.offer(wand, stamp_us):
            return EarlyPress(self.race.race_id, wand, stamp_us)
        winner, stamp, tied = self.race.decide()
        won = RaceWon(winner, stamp, tuple(tied) if len(tied) > 1 else (), self.race.race_id)
        self.race = None
        return won

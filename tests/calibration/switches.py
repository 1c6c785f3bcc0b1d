"""Tip switches a test flips by hand: ``states`` by wand (True pressed, False lifted); a wand left
out, or every wand while ``plugged_in`` is false, is not known, as the hub's board answers."""
from __future__ import annotations


class HandSwitches:
    def __init__(self, states: dict[int, bool]) -> None:
        self.states = dict(states)
        self.plugged_in = True

    def touching(self, wand: int) -> bool | None:
        return self.states.get(wand) if self.plugged_in else None

    def press(self, *wands: int) -> None:
        self.states.update(dict.fromkeys(wands, True))

    def lift(self, *wands: int) -> None:
        self.states.update(dict.fromkeys(wands, False))

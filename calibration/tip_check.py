"""The tip-switch check: does each wand's tip switch work, before play?

A switch wired wrong, unplugged or stuck shows in play only as odd readings, so the group checks each
one in two moves, as the tablet asks:

    press   "press each tip on the table": each wand is ticked once its switch is seen pressed
    lift    "now lift every wand": each ticked wand must now read lifted

A wand never seen pressed never clicked (its cable, or the ``tip_switches`` setting); one still
pressed with every wand held up is stuck. When no switch is known at all (the setting is off, no hub,
the hub just plugged back in) there is nothing to check: the step is skipped, not failed, and the
camera alone reads the tips.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from vision.touch import TipSwitches

Phase = Literal["press", "lift"]
PRESSED, LIFTED, NOT_KNOWN = "pressed", "lifted", "not known"

NOTHING_KNOWN = ("no tip switch is known (the `tip_switches` setting is off, or the hub is not plugged in): "
                 "this check is skipped and the camera alone reads the tips")


def state_of(touching: bool | None) -> str:
    return NOT_KNOWN if touching is None else PRESSED if touching else LIFTED


@dataclass
class TipCheck:
    """One check of the given wands' switches; ``read`` is asked each time the tablet looks."""

    wands: Sequence[int]
    phase: Phase = "press"
    clicked: set[int] = field(default_factory=set)  # wands seen pressed since the check started

    def lift(self) -> None:
        self.phase = "lift"

    def read(self, tips: TipSwitches | None) -> dict[str, Any]:
        now = {k: state_of(tips.touching(k) if tips is not None else None) for k in self.wands}
        self.clicked.update(k for k, s in now.items() if s == PRESSED)
        if all(s == NOT_KNOWN for s in now.values()):
            return self._answer(now, {k: NOTHING_KNOWN for k in now}, [], "skipped", NOTHING_KNOWN)
        words = {k: self._words(k, s) for k, s in now.items()}
        # While pressing, a tip not seen yet is only waiting; one the hub does not know is wrong already.
        problems = [w for k, w in words.items() if now[k] == NOT_KNOWN or self.phase == "lift" and not self._ok(k, now[k])]
        return self._answer(now, words, problems, *self._verdict(now, problems))

    def _ok(self, wand: int, state: str) -> bool:
        if self.phase == "press":
            return wand in self.clicked and state != NOT_KNOWN
        return wand in self.clicked and state == LIFTED

    def _verdict(self, now: dict[int, str], problems: list[str]) -> tuple[str, str]:
        if self.phase == "press":
            left = len(now) - len(self.clicked & set(now))
            waiting = f"{left} of {len(now)} tips not seen pressed yet" if left else "every tip clicked: now lift every wand"
            return "pressing", "; ".join([waiting, *problems])
        if problems:
            return "problems", "; ".join(problems)
        return "ok", f"all {len(now)} tip switches work: pressed, then lifted"

    def _words(self, wand: int, state: str) -> str:
        if state == NOT_KNOWN:
            return f"wand {wand}'s tip is not known: the hub has not told it; is its cable in?"
        if self.phase == "press":
            if wand in self.clicked:
                return f"wand {wand}'s tip clicked" + ("" if state == PRESSED else " (and lifted)")
            return f"wand {wand}: press its tip on the table"
        if wand not in self.clicked:
            return f"wand {wand}'s tip never clicked: is its cable in, and is the switch soldered to the cable's fourth core?"
        if state == PRESSED:
            return f"wand {wand}'s tip reads pressed with the wand held up: the switch is stuck"
        return f"wand {wand}'s tip works"

    def _answer(self, now: dict[int, str], words: dict[int, str], problems: list[str], status: str,
                summary: str) -> dict[str, Any]:
        wands = [{"wand": k, "state": s, "clicked": k in self.clicked, "ok": status != "skipped" and self._ok(k, s),
                  "words": words[k]} for k, s in now.items()]
        return {"phase": self.phase, "status": status, "summary": summary, "wands": wands, "problems": problems}

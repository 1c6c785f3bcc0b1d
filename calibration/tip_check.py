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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.words.said import Said, words_of
from vision.touch import TipSwitches

Phase = Literal["press", "lift"]
PRESSED, LIFTED, NOT_KNOWN = "pressed", "lifted", "not known"

NOTHING_KNOWN = Said("calibration.tips.nothing_known", "no tip switch is known (the `tip_switches` setting is off, or the "
                     "hub is not plugged in): this check is skipped and the camera alone reads the tips")


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
            return self._answer(now, {k: NOTHING_KNOWN for k in now}, [], "skipped", [NOTHING_KNOWN])
        words = {k: self._words(k, s) for k, s in now.items()}
        # While pressing, a tip not seen yet is only waiting; one the hub does not know is wrong already.
        problems = [w for k, w in words.items() if now[k] == NOT_KNOWN or self.phase == "lift" and not self._ok(k, now[k])]
        return self._answer(now, words, problems, *self._verdict(now, problems))

    def _ok(self, wand: int, state: str) -> bool:
        if self.phase == "press":
            return wand in self.clicked and state != NOT_KNOWN
        return wand in self.clicked and state == LIFTED

    def _verdict(self, now: dict[int, str], problems: Sequence[str]) -> tuple[str, list[str]]:
        """The check's status and its summary, said in parts (each a sentence of the catalogues)."""
        if self.phase == "press":
            left = len(now) - len(self.clicked & set(now))
            waiting = (Said("calibration.tips.waiting", "{left} of {wands} tips not seen pressed yet", left=left, wands=len(now))
                       if left else Said("calibration.tips.all_clicked", "every tip clicked: now lift every wand"))
            return "pressing", [waiting, *problems]
        if problems:
            return "problems", list(problems)
        return "ok", [Said("calibration.tips.all_work", "all {wands} tip switches work: pressed, then lifted", wands=len(now))]

    def _words(self, wand: int, state: str) -> Said:
        if state == NOT_KNOWN:
            return Said("calibration.tips.not_known", "wand {wand}'s tip is not known: the hub has not told it; is its cable in?",
                        wand=wand)
        if self.phase == "press":
            if wand in self.clicked:
                if state == PRESSED:
                    return Said("calibration.tips.clicked", "wand {wand}'s tip clicked", wand=wand)
                return Said("calibration.tips.clicked_lifted", "wand {wand}'s tip clicked (and lifted)", wand=wand)
            return Said("calibration.tips.press", "wand {wand}: press its tip on the table", wand=wand)
        if wand not in self.clicked:
            return Said("calibration.tips.never_clicked", "wand {wand}'s tip never clicked: is its cable in, and is the "
                        "switch soldered to the cable's fourth core?", wand=wand)
        if state == PRESSED:
            return Said("calibration.tips.stuck", "wand {wand}'s tip reads pressed with the wand held up: the switch is stuck",
                        wand=wand)
        return Said("calibration.tips.works", "wand {wand}'s tip works", wand=wand)

    def _answer(self, now: dict[int, str], words: Mapping[int, str], problems: Sequence[str], status: str,
                summary: Sequence[str]) -> dict[str, Any]:
        """Each wand's state and words; the summary in English, and its parts' catalogue words to say it elsewhere."""
        wands = [{"wand": k, "state": s, "clicked": k in self.clicked, "ok": status != "skipped" and self._ok(k, s),
                  "words": words[k], "say": words_of(words[k])} for k, s in now.items()]
        return {"phase": self.phase, "status": status, "summary": "; ".join(summary),
                "summary_words": [words_of(part) for part in summary], "wands": wands, "problems": problems}

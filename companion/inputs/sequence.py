"""Resynchronising by sequence number: which lines to pass on, which to ask for again, which are gone.

Pure bookkeeping, fed sequence numbers and the time; the link does the asking.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from companion.inputs.protocol import SEQ_MOD

ASK_AGAIN_S = 0.5       # a RESEND not answered in this time is asked again...
GIVE_UP_AFTER = 4       # ...this many times, then the lines count as lost


@dataclass
class Gap:
    """One missing line: when it was last asked for and how often."""

    asked_at: float
    asks: int = 1


@dataclass
class SequenceBook:
    expected: int | None = None
    missing: dict[int, Gap] = field(default_factory=dict)
    duplicates: int = 0
    lost: int = 0
    recovered: int = 0

    def accept(self, seq: int, now: float) -> tuple[str, list[int]]:
        """(verdict, newly missing sequence numbers to ask for). The verdict is "next" for a line
        in order (or after a gap), "recovered" for a missing line that came back, "duplicate"."""
        if self.expected is None:
            self.expected = (seq + 1) % SEQ_MOD
            return "next", []
        ahead = (seq - self.expected) % SEQ_MOD
        if ahead < SEQ_MOD // 2:
            gap = [(self.expected + k) % SEQ_MOD for k in range(ahead)]
            for missing in gap:
                self.missing[missing] = Gap(now)
            self.expected = (seq + 1) % SEQ_MOD
            return "next", gap
        if self.missing.pop(seq, None) is not None:
            self.recovered += 1
            return "recovered", []
        self.duplicates += 1
        return "duplicate", []

    def restart(self, expected: int | None) -> int:
        """The hub rebooted: lines still missing from before can never come; returns how many."""
        gone = len(self.missing)
        self.lost += gone
        self.missing.clear()
        self.expected = expected
        return gone

    def give_up(self, first: int, count: int) -> int:
        """The hub said these lines are gone; returns how many of them were still missing."""
        gone = [(first + k) % SEQ_MOD for k in range(count)]
        hits = sum(1 for seq in gone if self.missing.pop(seq, None) is not None)
        self.lost += hits
        return hits

    def overdue(self, now: float) -> tuple[list[int], list[int]]:
        """(lines to ask for again, lines given up on) among those still missing."""
        again, hopeless = [], []
        for seq, gap in list(self.missing.items()):
            if now - gap.asked_at < ASK_AGAIN_S:
                continue
            if gap.asks >= GIVE_UP_AFTER:
                del self.missing[seq]
                hopeless.append(seq)
                continue
            gap.asked_at, gap.asks = now, gap.asks + 1
            again.append(seq)
        self.lost += len(hopeless)
        return again, hopeless


def runs(seqs: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs as (first, count), modulo SEQ_MOD: [5, 6, 7, 9] -> [(5, 3), (9, 1)]."""
    result: list[tuple[int, int]] = []
    for seq in seqs:
        if result and (result[-1][0] + result[-1][1]) % SEQ_MOD == seq:
            result[-1] = (result[-1][0], result[-1][1] + 1)
        else:
            result.append((seq, 1))
    return result

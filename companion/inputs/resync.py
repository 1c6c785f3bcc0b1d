"""The protocol's state between the host and one hub: the greeting, sequence numbers, resends, restarts.

Fed every checked line (``heard``), it passes each on exactly once (``deliver``), in the hub's order
where it can: lines before the hub's HELLO answer are held until it says who it is; a jump in sequence
numbers is asked for again (RESEND) and chased until it comes or counts as lost; a repeat is dropped; a
new boot id, or a known sequence number with other bytes, is a restarted hub. Writes nothing itself but
through ``send``; says what happens on the status.
"""
from __future__ import annotations

import logging
from collections.abc import Callable

from companion.inputs.protocol import PROTOCOL_VERSION, SEQ_MOD, Hello, HubMessage, Lost
from companion.inputs.sequence import SequenceBook, runs
from companion.inputs.status import InputStatus

MAX_PENDING = 1024                           # lines held while waiting for the HELLO answer
RECENT_LINES = 1024                          # lines remembered to tell a resend from a new boot

Deliver = Callable[[HubMessage, bool], None]  # (message, fresh: it came in order, not as a resend)


class Resync:
    """``send``: a command to the hub. ``deliver``: each line's message, once. ``on_greeting(hello)``:
    the hub said who it is (before the lines held for it are delivered); ``on_greeted(hello)``: after
    them. ``on_restart()``: the hub booted again (its clock starts over)."""

    def __init__(self, send: Callable[[str], object], deliver: Deliver, status: InputStatus,
                 clock: Callable[[], float], *, on_greeting: Callable[[Hello], None],
                 on_greeted: Callable[[Hello], None], on_restart: Callable[[], None]) -> None:
        self.send, self.deliver, self.status, self.clock = send, deliver, status, clock
        self.on_greeting, self.on_greeted, self.on_restart = on_greeting, on_greeted, on_restart
        self.book = SequenceBook()
        self._recent: dict[int, bytes] = {}
        self._boot_id: str | None = None
        self.reset()

    def reset(self) -> None:
        """A new connection: nothing is known until the hub answers HELLO."""
        self.greeted = False
        self.refused = False
        self._pending: list[tuple[int, HubMessage, bytes]] = []

    def hello(self) -> None:
        self.send("HELLO %d" % PROTOCOL_VERSION)

    # Lines from the hub -------------------------------------------------------------------------

    def heard(self, seq: int, message: HubMessage, raw: bytes) -> None:
        if self.refused:
            return
        if isinstance(message, Hello) and (not self.greeted or message.boot_id != self._boot_id):
            self._greet(seq, message, raw)
        elif not self.greeted:
            if len(self._pending) < MAX_PENDING:
                self._pending.append((seq, message, raw))
        elif self._reborn(seq, raw):
            # Same sequence number, different bytes: a hub that restarted without us seeing its
            # HELLO. Hold its lines until it says who it is.
            self.greeted = False
            self._pending.append((seq, message, raw))
            self.hello()
        else:
            self._book(seq, message, raw)

    def _reborn(self, seq: int, raw: bytes) -> bool:
        earlier = self._recent.get(seq)
        return earlier is not None and earlier != raw

    def _greet(self, seq: int, hello: Hello, raw: bytes) -> None:
        self.status.update(protocol_version=hello.protocol, firmware=hello.firmware, boot_id=hello.boot_id)
        if hello.protocol != PROTOCOL_VERSION:
            self.refused = True
            self._pending.clear()
            self.status.problem(
                f"hub on {self.status.port!r} speaks protocol v{hello.protocol} (firmware {hello.firmware!r}) "
                f"but Incanto speaks v{PROTOCOL_VERSION}: reflash it with mpremote (hardware.md, "
                f"'Flashing the hub'); its lines are ignored", logging.ERROR)
            return
        if self._boot_id is not None and hello.boot_id != self._boot_id:
            self._restart(hello)
        self._boot_id = hello.boot_id
        self.greeted = True
        self.on_greeting(hello)   # before the pending lines: they come from this greeting's hub
        for item in self._pending:
            self._book(*item)
        self._pending.clear()
        self._book(seq, hello, raw)
        self.on_greeted(hello)

    def _restart(self, hello: Hello) -> None:
        # A fresh boot counts from 0: ask for everything it sent before we could listen.
        gone = self.book.restart(expected=0)
        self._recent.clear()
        self.on_restart()
        note = f"; {gone} lines from before the restart never arrived and are lost" if gone else ""
        self.status.problem(f"hub restarted (boot {self._boot_id} -> {hello.boot_id}){note}",
                            logging.ERROR if gone else logging.WARNING)
        self._count()

    def _book(self, seq: int, message: HubMessage, raw: bytes) -> None:
        verdict, gap = self.book.accept(seq, self.clock())
        if verdict != "duplicate":
            self._recent[seq] = raw
            self._recent.pop((seq - RECENT_LINES) % SEQ_MOD, None)
        if gap:
            self._ask(gap)
        self._count()
        if verdict == "duplicate":
            return
        self.deliver(message, verdict == "next")

    def lost(self, lost: Lost) -> None:
        """The hub said these lines are gone from its ring (its LOST line, delivered like any other)."""
        hits = self.book.give_up(lost.first, lost.count)
        self._count()
        if hits:
            last = (lost.first + lost.count - 1) % SEQ_MOD
            self.status.problem(f"hub could not resend lines {lost.first}..{last}: "
                                f"any press in them is lost", logging.ERROR)

    # Gaps ---------------------------------------------------------------------------------------

    def _ask(self, seqs: list[int]) -> None:
        for first, count in runs(seqs):
            self.send(f"RESEND {first} {count}")
            self.status.update(resends=self.status.resends + 1)

    def chase(self, now: float) -> None:
        """Ask again for lines still missing; give up on those asked for too often."""
        if not self.book.missing:
            return
        again, hopeless = self.book.overdue(now)
        if again:
            self._ask(again)
        if hopeless:
            spans = ", ".join(f"{first}+{count}" for first, count in runs(hopeless))
            self.status.problem(f"lines {spans} never came back from the hub: any press in them is lost",
                                logging.ERROR)
        self._count()

    def _count(self) -> None:
        self.status.update(lines_lost=self.book.lost, lines_recovered=self.book.recovered,
                           duplicates=self.book.duplicates)

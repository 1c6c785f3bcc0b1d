"""The cue, from wherever it comes: the spoken "In-can-to!" on the microphone, the cue button on the
hub or the GPIO pins, or the button on a tablet. All of them end in one ``on_cue(cue)``; a cue heard
twice (the chant and a button at once) counts once; a second cue while a casting is still being
read is dropped by the reading itself.

Every spoken cue is told to the tablets (a ``cue`` notice with its ``cue_id``), so a false one is one
tap to dismiss (``dismiss``); a missed one is one tap on the tablet's cue button.
"""
from __future__ import annotations

import contextlib
import logging
import itertools
import queue
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Self
from collections.abc import Callable, Iterator

from companion.cue import Cue, CueError
from companion.cue import templates as chant_book
from companion.cue.config import CueConfig, default_templates_dir
from companion.cue.detector import SOURCE as SPOKEN
from companion.cue.detector import ChantDetector
from companion.cue.microphone import Microphone, MicrophoneError
from companion.cue.sources import tablet_button
from companion.errors import IncantoError
from companion.status import ERROR, OFF, OK, WARNING, StatusBoard
from companion.threads import Background

log = logging.getLogger("incanto.tableside")
SAME_CUE_S = 1.0  # cues from two sources closer than this are one call heard twice
RETRY_MIC_S = 5.0
KEPT_CUES = 20  # spoken cues that may still be dismissed
ENROL = "run `python -m companion.cue enrol --player NAME` for each player who calls the cue"
CALLER_WAND = 4  # its holder calls "In-can-to!"
CALLER_CHECK_S = 1.0  # how often the listener looks at who holds it

OnCue = Callable[[Cue], None]


def microphone_fix(error: Exception) -> str:
    if "libportaudio2" in str(error):
        return "no microphone support: install libportaudio2 (apt install libportaudio2), then start again"
    return "plug in the USB microphone, then start again"


class CueInputs(Background):
    """``microphone``: opens the sound source (a ``companion.cue.microphone`` source, with or
    without a ``with`` block); the real sound card unless a test gives another."""

    def __init__(self, status: StatusBoard, on_cue: OnCue, *, mic: bool, templates: Path | None = None,
                 buttons: str = "the tablet", microphone: Callable[[], Any] = Microphone,
                 clock: Callable[[], float] = time.monotonic, notices: Any = None, table: Any = None) -> None:
        # The microphone's block iterator ends only with its stream: the thread is a daemon, not waited for.
        super().__init__("cue-microphone", join_s=0)
        self.status, self.on_cue, self.mic, self.buttons = status, on_cue, mic, buttons
        self.config = CueConfig(templates_dir=Path(templates) if templates else default_templates_dir())
        self.microphone, self.clock = microphone, clock
        self.tablet_button = tablet_button(clock)
        self.tablet_button.when_cue = self.heard
        self._last: Cue | None = None
        self._lock = threading.Lock()
        self.detector: ChantDetector | None = None
        self.notices = notices  # ``companion.tableside.notices.Notices``: where heard cues are told
        self._spoken: OrderedDict[int, Cue] = OrderedDict()
        self._ids = itertools.count(1)
        self.dismissed: list[Cue] = []
        self.table = table  # ``companion.tableside.table.Table``: who holds wand 4 now
        self._unenrolled: str | None = None  # the caller last told to enrol
        self._hearing = threading.Event()  # the microphone is open and heard
        self._overhearing: list[Overheard] = []  # the setup's recording, hearing what the listener hears

    def start(self) -> Self:
        if not self.mic:
            self.status.report("cue", OFF, f"microphone off: the cue comes from {self.buttons}",
                               "start with --mic to listen for the spoken cue", words=("status.cue.off", {}),
                               fix_words=("status.cue.off_fix", {}))
            return self
        self.detector = self._detector()
        return super().start() if self.detector is not None else self

    def tablet(self, t: float | None = None) -> Cue:
        """The cue button on a tablet was pressed (now, unless ``t`` says when)."""
        return self.tablet_button.press(t)

    def heard(self, cue: Cue) -> None:
        with self._lock:
            last = self._last
            if last is not None and last.source != cue.source and abs(cue.t_end - last.t_end) < SAME_CUE_S:
                return
            self._last = cue
        if cue.source == SPOKEN:
            self._tell_spoken(cue)
        self.on_cue(cue)

    def _tell_spoken(self, cue: Cue) -> None:
        with self._lock:
            cue_id = next(self._ids)
            self._spoken[cue_id] = cue
            while len(self._spoken) > KEPT_CUES:
                self._spoken.popitem(last=False)
        if self.notices is not None:
            who = f" ({cue.player})" if cue.player else ""
            self.notices.say("cue", f"heard In-can-to!{who}: not a cue? tap to dismiss", cue_id=cue_id, player=cue.player,
                             words=("notice.cue_from", {"player": cue.player}) if cue.player else ("notice.cue", {}))

    def dismiss(self, cue_id: int) -> Cue:
        """The table says spoken cue ``cue_id`` was not the chant: it is counted, and the status
        page shows how many false cues the night has had (a sign to enrol again)."""
        with self._lock:
            cue = self._spoken.pop(cue_id, None)
        if cue is None:
            raise CueError(f"no spoken cue {cue_id!r} to dismiss: it was dismissed already or is too old")
        self.dismissed.append(cue)
        self.status.report("cue", OK, f"listening for In-can-to!; {len(self.dismissed)} false cue(s) dismissed tonight",
                           "if false cues keep coming, enrol again with the near misses (docs/cue.md)",
                           words=("status.cue.dismissed", {"count": len(self.dismissed)}),
                           fix_words=("status.cue.enrol_again", {}))
        if self.notices is not None:
            self.notices.say("cue_dismissed", "dismissed: that was not the cue", cue_id=cue_id,
                             words=("notice.cue_dismissed", {}))
        return cue

    def check_caller(self) -> str | None:
        """The holder of wand 4 when the chant book does not know their voice: told once on the
        tablets (a ``cue_enrol`` notice) while they hold it, since their chant will rarely be heard."""
        if self.table is None or self.detector is None:
            return None
        try:
            wands = self.table.view().get("wands") or {}
        except IncantoError:  # no game yet
            return None
        holder = next((p for p, k in wands.items() if k == CALLER_WAND), None)
        enrolled = {p.casefold() for p in self.detector.book.players}
        missing = holder if holder is not None and holder.casefold() not in enrolled else None
        if missing != self._unenrolled:
            self._unenrolled = missing
            if missing is not None and self.notices is not None:
                self.notices.say("cue_enrol", f"{missing} holds wand {CALLER_WAND} but has not recorded the chant: "
                                              f"{missing} gives the cue with {self.buttons}, or enrols first",
                                 player=missing, words=("notice.cue_enrol", {"player": missing, "wand": CALLER_WAND}))
        return missing

    def was_last(self, cue: Cue) -> bool:
        """Whether ``cue`` is the last cue heard from any source (so the last reading is its own)."""
        with self._lock:
            return self._last == cue

    # -- the spoken cue ----------------------------------------------------------------------

    def _detector(self) -> ChantDetector | None:
        folder = self.config.templates_dir
        try:
            book = chant_book.load(folder)
        except CueError as e:
            self.status.report("cue", ERROR, f"the chant book cannot be read: {e}", ENROL,
                               words=("status.cue.unreadable", {}), fix_words=("status.cue.enrol", {}))
            return None
        if not book.templates:
            self.status.report("cue", WARNING, f"no chant enrolled in {str(folder)!r}: the spoken cue is off, "
                                               f"the cue comes from {self.buttons}", ENROL,
                               words=("status.cue.none_enrolled", {}), fix_words=("status.cue.enrol", {}))
            return None
        detector = ChantDetector(book, self.config)
        detector.when_cue = self.heard
        return detector

    def _run(self) -> None:
        assert self.detector is not None
        while not self._stop.is_set():
            try:
                self._hear_all(self.detector)
            except (MicrophoneError, OSError) as e:
                self.status.report("cue", ERROR, f"no microphone: {e}; the cue comes from {self.buttons}",
                                   microphone_fix(e), words=("status.cue.no_microphone", {}))
            if self._stop.wait(RETRY_MIC_S):
                return

    # -- the same sound, lent to the setup's chant recording ------------------------------------

    def hearing(self) -> bool:
        """Whether the listener has the microphone open now (then a recording overhears it: a sound
        card opened twice is refused on a Pi without a sound server)."""
        return self._hearing.is_set()

    def overhear(self) -> Overheard:
        """The blocks the listener hears from now on, as a sound source of their own."""
        heard = Overheard(self)
        with self._lock:
            self._overhearing = [*self._overhearing, heard]
        return heard

    def _hear_all(self, detector: ChantDetector) -> None:
        source = self.microphone()
        opened = source if hasattr(source, "__enter__") else contextlib.nullcontext(source)
        with opened as sound:
            players = ", ".join(detector.book.players)
            self.status.report("cue", OK, f"listening for In-can-to! (chant enrolled by {players})",
                               words=("status.cue.listening", {"players": players}))
            looked = -CALLER_CHECK_S
            self._hearing.set()
            try:
                for block, t_first in sound.blocks():
                    if self._stop.is_set():
                        return
                    if self.clock() - looked >= CALLER_CHECK_S:
                        looked = self.clock()
                        self.check_caller()
                    detector.hear(block, t_first)
                    for heard in self._overhearing:  # a list copied on change: no lock on the sound's path
                        heard.put(block, t_first)
                detector.flush()
            finally:
                self._hearing.clear()


class Overheard:
    """A sound source of the blocks the cue's listener hears, from when it was made until it is left
    (used in a ``with`` block, as a sound card is)."""

    def __init__(self, inputs: CueInputs) -> None:
        self.inputs = inputs
        self._blocks: queue.Queue[tuple[Any, float]] = queue.Queue(maxsize=256)
        self._open = True

    def put(self, block: Any, t_first: float) -> None:
        with contextlib.suppress(queue.Full):  # a recording that falls behind drops sound, never the cue's
            self._blocks.put_nowait((block.copy(), t_first))

    def __enter__(self) -> Overheard:
        return self

    def __exit__(self, *_: object) -> None:
        self._open = False
        with self.inputs._lock:
            self.inputs._overhearing = [h for h in self.inputs._overhearing if h is not self]

    def blocks(self) -> Iterator[tuple[Any, float]]:
        while self._open:
            try:
                yield self._blocks.get(timeout=0.5)
            except queue.Empty:
                if not self.inputs.hearing():
                    raise MicrophoneError("the cue's listener lost the microphone") from None

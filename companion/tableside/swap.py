"""After a contest the winner and the weakest claimant swap wands: the camera checks that they did.

When a casting with swaps is in the log, the watch waits for the hands to move, then looks at a few
frames: each swapped wand should rest at its new holder's seat. A wand still at the old seat is on the
status page and on the display ("wand 4 is still at Lera's seat: Lera and Katya should swap") until the
wands are right, the next cue comes, or the watch gives up.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from typing import Any, Self
from collections.abc import Callable

from companion.errors import IncantoError
from companion.status import OFF, OK, WARNING, StatusBoard
from companion.tableside.camera import TableCamera
from companion.tableside.notices import Notices
from companion.tableside.places import TablePlaces
from companion.tableside.table import Table
from companion.threads import Background
from vision.swap import SeatPlace, SwapProblem, check_swap, seat_of

log = logging.getLogger("incanto.tableside")
LOOK_FRAMES = 8  # a few frames, so one hidden by a passing hand does not decide
LOOK_TIMEOUT_S = 1.5
TICK_S = 0.25
SWAP_FIX = "hand the wands over as the last casting says, then carry on"


def swapped_wands(view: dict[str, Any]) -> dict[int, str]:
    """Wand strength -> the player who should hold it now, for every wand the last casting swapped."""
    last = view.get("last_cast") or {}
    pairs = [claim["swap"] for claim in last.get("claims", []) if claim.get("swap")]
    return {view["wands"][player]: player for pair in pairs for player in pair if player in view["wands"]}


def problem_message(problem: SwapProblem) -> str:
    if problem.seen_seat is None:
        return problem.message
    return f"wand {problem.wand} is still at {problem.seen_seat}'s seat: {problem.seen_seat} and " \
           f"{problem.expected_seat} should swap"


def swap_message(problems: list[SwapProblem]) -> str:
    """One sentence per pair of players whose wands are each at the other's seat."""
    said: list[str] = []
    left = list(problems)
    while left:
        a = left.pop(0)
        b = next((p for p in left if p.seen_seat == a.expected_seat and a.seen_seat == p.expected_seat), None)
        if b is None:
            said.append(problem_message(a))
            continue
        left.remove(b)
        said.append(f"wand {a.wand} is still at {a.seen_seat}'s seat and wand {b.wand} at {b.seen_seat}'s: "
                    f"{a.seen_seat} and {b.seen_seat} should swap")
    return "; ".join(said)


class SwapWatch(Background):
    def __init__(self, table: Table, camera: TableCamera, places: TablePlaces, status: StatusBoard,
                 notices: Notices, *, after_s: float = 4.0, recheck_s: float = 3.0, give_up_s: float = 40.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__("swap-watch", join_s=3)
        self.table, self.camera, self.places, self.status, self.notices = table, camera, places, status, notices
        self.after_s, self.recheck_s, self.give_up_s, self.clock = after_s, recheck_s, give_up_s, clock
        self._seen_cast: tuple[int, Any] | None = None
        self._said: str | None = None
        self._due: tuple[float, float] | None = None  # (next check, give up at)
        self._lock = threading.Lock()

    def start(self) -> Self:
        self._seen_cast = self._cast_key()  # a casting from before the start is not ours to check
        return super().start()

    def on_cue(self) -> None:
        """The next casting began: the last one's swap is no longer the question."""
        with self._lock:
            self._due = None

    # -- the watch ---------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.wait(TICK_S):
            try:
                self._tick()
            except Exception:  # the watch must outlive any surprise; the night goes on without it
                log.exception("the swap watch failed a check")

    def _tick(self) -> None:
        key = self._cast_key()
        now = self.clock()
        if key != self._seen_cast:
            self._seen_cast = key
            with self._lock:
                self._due = (now + self.after_s, now + self.after_s + self.give_up_s)
        with self._lock:
            due = self._due
        if due is None or now < due[0]:
            return
        problems = self.check()
        with self._lock:
            if self._due == due:
                self._due = (now + self.recheck_s, due[1]) if problems and now + self.recheck_s < due[1] else None

    def _cast_key(self) -> tuple[int, Any] | None:
        try:
            game = self.table.game
        except IncantoError:
            return None
        last = game.view().get("last_cast")
        return (id(game), last.get("casting") if last else None)

    # -- one check ---------------------------------------------------------------------------

    def check(self) -> list[SwapProblem] | None:
        """Look now; the problems found (empty: every swapped wand is right), None if nothing to check."""
        view = self.table.view()
        expected = swapped_wands(view)
        if not expected:
            return None
        blind = self.camera.why_blind()
        if blind is not None:
            self._said = None
            self.status.report("wands", OFF, f"the swap was not checked: {blind}", "")
            return None
        with self.camera.pipeline_lock:
            seen = self._seen(view, set(expected))
        problems = check_swap(expected, seen)
        self._report(problems)
        return problems

    def _seen(self, view: dict[str, Any], wands: set[int]) -> dict[int, str | None]:
        """Wand -> the seat it was seen held from most often over a few frames (None: not seen, or no
        frame could tell)."""
        pipeline = self.camera.pipeline
        assert pipeline is not None
        seats = [SeatPlace(name, x, y) for name, (x, y) in
                 self.places.seat_points([p["name"] for p in view["players"]]).items()]
        votes: dict[int, Counter[str]] = {k: Counter() for k in wands}
        source = self.camera.frames_since(self.clock(), LOOK_TIMEOUT_S)
        for _ in range(LOOK_FRAMES):
            frame = source.read()
            if frame is None:
                break
            for k, axis in pipeline.look(frame).axes.items():
                seat = seat_of(pipeline.geo, axis, seats) if k in votes else None
                if seat is not None:  # None: this frame cannot tell whose hand it is in
                    votes[k][seat] += 1
        return {k: (v.most_common(1)[0][0] if v else None) for k, v in votes.items()}

    def _report(self, problems: list[SwapProblem]) -> None:
        message = swap_message(problems)
        if message == self._said:
            return  # the same news again would only flicker on the pages
        self._said = message
        if not problems:
            self.status.report("wands", OK, "the wands are where the last casting put them", words=("status.wands.ok", {}))
            return
        self.status.report("wands", WARNING, message, SWAP_FIX, {"wands": [p.wand for p in problems]},
                           words=("notice.swap", {"wands": ", ".join(str(p.wand) for p in problems)}),
                           fix_words=("status.wands.fix", {}))
        self.notices.say("swap", message, wands=[p.wand for p in problems],
                         words=("notice.swap", {"wands": ", ".join(str(p.wand) for p in problems)}))

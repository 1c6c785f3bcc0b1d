"""The calibration's heavy work, kept away from the game: one step at a time on a thread of its own,
a short queue, and a time budget per request.

A camera measurement, a wand read of ten seconds or a chant's enrolment can take seconds of CPU. Run in
the display's shared thread pool, a few dozen of them would leave no thread for a tap or a page, so here
they wait in a queue of their own (``WAITING`` long; beyond it, 503 at once), one runs at a time, and a
request that is not done within its budget is answered 503 and whatever the step gives is dropped (a
step that watches the camera is told to stop, by the route). A request given up (over its budget, or
its tablet went away) while still queued is never started. Other steps cannot be interrupted, so each
is bounded by its input: a board of at most 30x30, ten
seconds of pictures, two minutes of a 8-48 kHz recording.
"""
from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from companion.web.errors import CalibrationBusy

T = TypeVar("T")

@dataclass
class Job:
    call: Callable[..., Any]
    args: tuple[Any, ...]
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[Any]
    given_up: threading.Event = field(default_factory=threading.Event)
    started: threading.Event = field(default_factory=threading.Event)


class Workshop:
    WAITING = 2  # requests that may wait behind the running one; more are refused at once
    BUDGET_S = 30.0  # the longest step (a ten-second wand read and its learning) takes a few seconds

    def __init__(self, waiting: int = WAITING, budget_s: float = BUDGET_S) -> None:
        self.budget_s = budget_s
        self._jobs: queue.Queue[Job] = queue.Queue(maxsize=waiting)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.cpu_s_max = 0.0  # the most CPU one step has cost (the bench reports it)
        self.refused = 0

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` on the workshop's thread; CalibrationBusy when the queue is full or the
        budget runs out (the step is then told to stop, and its result, if any, is dropped)."""
        loop = asyncio.get_running_loop()
        job = Job(call, args, loop, loop.create_future())
        self._start()
        try:
            self._jobs.put_nowait(job)
        except queue.Full:
            self.refused += 1
            raise CalibrationBusy("another calibration step is running and more are waiting: try again in a moment",
                                  retry_after_s=5.0) from None
        try:
            return await asyncio.wait_for(asyncio.shield(job.done), self.budget_s)  # type: ignore[no-any-return]
        except TimeoutError:
            job.given_up.set()
            self.refused += 1
            raise CalibrationBusy(f"the calibration step took longer than its {self.budget_s:g} s budget and was "
                                  "stopped: nothing was saved from it; try again", retry_after_s=5.0,
                                  over_budget=job.started.is_set()) from None  # only then is it the step in hand
        finally:
            job.given_up.set()  # done, given up or cancelled: a step still queued is skipped

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:  # a daemon: a step never holds up the display's shutdown
                self._thread = threading.Thread(target=self._work, name="calibration-workshop", daemon=True)
                self._thread.start()

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job.given_up.is_set():
                continue
            job.started.set()
            started = time.thread_time()
            try:
                outcome: tuple[Any, BaseException | None] = (job.call(*job.args), None)
            except Exception as e:  # handed to the request, which turns a refusal into words
                outcome = (None, e)
            self.cpu_s_max = max(self.cpu_s_max, time.thread_time() - started)
            if not job.given_up.is_set():
                job.loop.call_soon_threadsafe(_settle, job.done, outcome)


def _settle(done: asyncio.Future[Any], outcome: tuple[Any, BaseException | None]) -> None:
    if done.done():
        return
    value, error = outcome
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(value)

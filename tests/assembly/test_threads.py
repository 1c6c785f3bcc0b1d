"""The one thread life cycle every background part shares (``companion.threads.Background``)."""
from __future__ import annotations

import threading

from companion.threads import Background


class Ticker(Background):
    """Counts until stopped, on the thread ``start()`` gives it."""

    def __init__(self) -> None:
        super().__init__("ticker", join_s=5)
        self.running = threading.Event()
        self.thread_name = ""
        self.ticks = 0

    def _run(self) -> None:
        self.thread_name = threading.current_thread().name
        self.running.set()
        while not self._stop.wait(0.001):
            self.ticks += 1


def test_a_part_runs_on_its_own_named_daemon_thread_until_stopped() -> None:
    ticker = Ticker()
    assert ticker.start() is ticker
    assert ticker.running.wait(5)
    assert ticker._thread is not None and ticker._thread.daemon and ticker._thread is not threading.current_thread()
    ticker.stop()
    assert ticker.thread_name == "ticker" and not ticker._thread.is_alive()


def test_a_with_block_starts_and_stops_it() -> None:
    with Ticker() as ticker:
        assert ticker.running.wait(5)
    assert ticker._thread is not None and not ticker._thread.is_alive()


def test_stopping_a_part_never_started_is_harmless() -> None:
    ticker = Ticker()
    ticker.stop()
    assert ticker._thread is None and not ticker.running.is_set()

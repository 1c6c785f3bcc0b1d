"""The life cycle every background part of the table shares (camera, hub link, swap watch, race caller,
cue microphone, announcer, join-code LED, calibration feed): one daemon thread from ``start()`` to
``stop()``, also as a ``with`` block.

It sits at the top of ``companion`` with no imports of its own so that every package that runs a
thread (``calibration`` too) may use it without an arrow pointing the wrong way.
"""
from __future__ import annotations

import threading
from typing import Self


class Background:
    """Runs ``_run`` on one daemon thread named ``name`` between ``start()`` and ``stop()``.

    ``_run`` loops until ``self._stop`` is set; ``stop()`` sets it and waits ``join_s`` for the thread
    (a daemon, so a thread stuck in a device never holds the night open). A part with more to do at
    start or stop overrides ``start``/``stop`` and calls up.
    """

    def __init__(self, name: str, join_s: float) -> None:
        self._name, self._join_s = name, join_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _run(self) -> None:
        raise NotImplementedError

    def start(self) -> Self:
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self._join_s)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

"""The wand hub's firmware in the real MicroPython interpreter (npm's WebAssembly port, in Node.js),
on the hub end of a socat pty pair: the host side cannot tell it from a Pico on USB.

Only the board is simulated (``simboard.py``: the input mask, the LED pins); ``firmware/hub.py`` runs
unchanged. What the firmware holds is reported back: the LED modes it keeps (``modes``) and every
change of an LED pin's level (``levels``, ``flips``), so a test asserts what the wands would show.
"""
from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
MICROPYTHON = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
TIP_BIT = 9  # firmware/hub.py: bits TIP_BIT.. carry the tip switches


class MicroPythonHub:
    """Use as a context manager; ``touch``/``lift`` a wand's tip switch, ``press``/``release`` its button."""

    def __init__(self, port: Path, n_wands: int = 8, boot_id: str = "a5a5") -> None:
        node = shutil.which("node")
        if node is None:
            pytest.skip("node is not installed: cannot run the MicroPython (WebAssembly) interpreter")
        if not MICROPYTHON.is_file():
            pytest.skip(f"npm package @micropython/micropython-webassembly-pyscript missing at {MICROPYTHON}")
        self.command = [node, str(HERE / "serve_hub.mjs"), MICROPYTHON.as_uri(), str(port), str(n_wands), boot_id,
                        str(ROOT / "firmware" / "hub.py"), str(HERE / "simboard.py")]
        self.n_wands = n_wands
        self.modes = [0] * n_wands
        self.levels = [0] * n_wands
        self.flips = [0] * n_wands           # changes of each LED pin's level so far
        self.history: list[list[int]] = []   # every set of LED modes the firmware held, in order
        self.errors: list[str] = []
        self._mask = 0
        self._ready = threading.Event()
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None

    def __enter__(self) -> MicroPythonHub:
        self._process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                         bufsize=1)
        self._reader = threading.Thread(target=self._read, name="micropython-hub", daemon=True)
        self._reader.start()
        if not self._ready.wait(30):
            self.__exit__()
            raise RuntimeError(f"the MicroPython hub did not start: {self.errors}")
        return self

    def __exit__(self, *exc: object) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        try:
            assert process.stdin is not None
            process.stdin.write("QUIT\n")
            process.stdin.flush()
            process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()
        if self._reader is not None:
            self._reader.join(timeout=2)

    # -- the players' hands ---------------------------------------------------------------------

    def touch(self, wand: int) -> None:
        self._hold(TIP_BIT + wand - 1, True)

    def lift(self, wand: int) -> None:
        self._hold(TIP_BIT + wand - 1, False)

    def press(self, wand: int) -> None:
        self._hold(wand - 1, True)

    def release(self, wand: int) -> None:
        self._hold(wand - 1, False)

    def _hold(self, bit: int, down: bool) -> None:
        with self._lock:
            self._mask = self._mask | (1 << bit) if down else self._mask & ~(1 << bit)
            assert self._process is not None and self._process.stdin is not None
            self._process.stdin.write(f"MASK {self._mask}\n")
            self._process.stdin.flush()

    # -- what the firmware reports --------------------------------------------------------------

    def held(self, wand: int) -> list[int]:
        """The LED modes the firmware held for this wand, in order, each change once."""
        with self._lock:
            modes = [m[wand - 1] for m in self.history]
        return [m for i, m in enumerate(modes) if i == 0 or modes[i - 1] != m]

    def snapshot(self) -> tuple[list[int], list[int], list[int]]:
        """(modes, levels, flips), each by wand from 1."""
        with self._lock:
            return list(self.modes), list(self.levels), list(self.flips)

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            kind, _, rest = line.strip().partition(" ")
            with self._lock:
                if kind == "READY":
                    self._ready.set()
                elif kind == "MODES":
                    self.modes = [int(m) for m in rest.split()]
                    self.history.append(list(self.modes))
                elif kind == "LED":
                    wand, level, _us = (int(w) for w in rest.split())
                    self.levels[wand - 1] = level
                    self.flips[wand - 1] += 1
                elif kind in ("ERROR", "PRINT"):
                    self.errors.append(rest)


def blinks(hub: MicroPythonHub, wand: int, wait: Callable[[Callable[[], bool]], bool]) -> bool:
    """The wand's LED pin goes on and off again and again while the firmware holds it blinking."""
    start = hub.snapshot()[2][wand - 1]
    return wait(lambda: hub.snapshot()[0][wand - 1] == 2 and hub.snapshot()[2][wand - 1] >= start + 4)

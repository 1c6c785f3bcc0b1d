"""A socat pty pair: two linked ttys at fixed paths, so real bytes pass through a real tty.

`unplug()` kills socat, and both paths vanish as a USB port does; `replug()` starts it again at
the same paths (socat's `link=` option), like the cable pushed back in.
"""
from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

from companion.errors import IncantoError


class PtyError(IncantoError, OSError):
    """socat is missing or did not make its ptys."""


class PtyPair:
    def __init__(self, hub_end: Path, host_end: Path) -> None:
        self.hub_end, self.host_end = Path(hub_end), Path(host_end)
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> PtyPair:
        return self.plug()

    def __exit__(self, *exc: object) -> None:
        self.unplug()

    @property
    def plugged(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def plug(self, timeout_s: float = 5.0) -> PtyPair:
        socat = shutil.which("socat")
        if socat is None:
            raise PtyError("socat is not installed (Debian package 'socat')")
        self._process = subprocess.Popen(
            [socat, "-d", "-d", f"pty,raw,echo=0,link={self.hub_end}", f"pty,raw,echo=0,link={self.host_end}"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout_s
        while not (self.hub_end.exists() and self.host_end.exists()):
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.unplug()
                raise PtyError(f"socat did not create {str(self.hub_end)!r} and {str(self.host_end)!r}")
            time.sleep(0.005)
        return self

    def unplug(self) -> None:
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process = None
        # socat removes its links on a clean exit; make sure, so the port is truly gone.
        for path in (self.hub_end, self.host_end):
            path.unlink(missing_ok=True)

    replug = plug

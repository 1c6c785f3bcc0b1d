"""``python -m companion demo`` started as a person starts it, for tests that drive it from a browser."""
from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def demo_running(store: Path, *extra: str) -> Iterator[tuple[str, str]]:
    """The demo on a free port with its store at ``store`` (and ``extra`` arguments), until the block ends:
    (address, join code), both read from what it prints, as a person reads them."""
    server = subprocess.Popen([sys.executable, "-m", "companion", "demo", "--no-browser", "--port", "0", "--host",
                               "127.0.0.1", "--pace", "3", "--seed", "1", "--store", str(store), *extra],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        code = address = None
        assert server.stdout is not None
        for line in server.stdout:
            if found := re.search(r"join code: (\d+)", line):
                code = found.group(1)
            if found := re.search(r"On this machine: (http://\S+?)/ ", line):
                address = found.group(1)
                break
        assert code and address, "the demo never said where to join"
        yield address, code
    finally:
        server.terminate()
        server.wait(timeout=20)

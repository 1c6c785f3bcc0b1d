"""A taken port is one line naming it and a free one to try, for ``serve`` and the ``demo``, before
anything has started; ``make demo`` needs only Python and takes ``PORT=``."""
from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.night_at_the_table import CannotStart
from companion.night_at_the_table.port import listen

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def taken() -> Iterator[int]:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield int(other.getsockname()[1])


def test_a_taken_port_names_itself_and_a_free_one(taken: int) -> None:
    with pytest.raises(CannotStart) as refused:
        listen("127.0.0.1", taken)
    message = str(refused.value)
    assert message.startswith(f"port {taken} is taken: ") and "\n" not in message
    suggested = int(message.rsplit("try --port ", 1)[1])
    listen("127.0.0.1", suggested).close()  # the suggestion is free


def test_a_free_port_is_listened_on(taken: int) -> None:
    with listen("127.0.0.1", 0) as sock:
        assert sock.getsockname()[1] not in (0, taken)


def run(args: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={"PATH": "/usr/bin:/bin", "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data")})


def test_serve_on_a_taken_port_says_so_in_one_line(taken: int, tmp_path: Path) -> None:
    done = run(["serve", "--host", "127.0.0.1", "--port", str(taken), "--hub", "none", "--camera", "none", "--no-mic",
                "--data-dir", str(tmp_path / "night")], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().startswith(f"port {taken} is taken") and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "night" / "incanto.sqlite").exists()  # nothing was started


def test_the_demo_on_a_taken_port_says_which_port_to_give_make(taken: int, tmp_path: Path) -> None:
    done = run(["demo", "--no-browser", "--host", "127.0.0.1", "--port", str(taken), "--port-named", "PORT=",
                "--seconds", "1"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    line, = done.stderr.strip().splitlines()
    assert line.startswith(f"port {taken} is taken") and "try PORT=" in line


def test_make_demo_needs_only_python_and_takes_a_port() -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    planned = subprocess.run(["make", "-n", "-B", "demo", "PORT=8123"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert planned.returncode == 0, planned.stderr
    assert "npm" not in planned.stdout
    assert "-m companion demo --port 8123 --port-named PORT=" in planned.stdout

"""Fixtures shared by several test folders: real parts, each made fresh for one test."""
from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.inputs.ptypair import PtyPair
from companion.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A real SQLite store in a fresh file."""
    with Store(tmp_path / "night.sqlite") as s:
        yield s


@pytest.fixture
def pty_pair(tmp_path: Path) -> Iterator[PtyPair]:
    """Two ttys joined by socat: the hub's end and the host's end, real bytes through a real tty."""
    if shutil.which("socat") is None:
        pytest.skip("socat is not installed (Debian package 'socat')")
    with PtyPair(tmp_path / "hub", tmp_path / "host") as pair:
        yield pair

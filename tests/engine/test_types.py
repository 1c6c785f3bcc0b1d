"""The core everything builds on (the engine, the store, the games, the errors) type-checks strictly."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRICT = ["companion/engine", "companion/store.py", "companion/games", "companion/errors.py"]


def test_the_engine_the_store_and_the_games_pass_mypy_strict() -> None:
    pytest.importorskip("mypy")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", *STRICT], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr

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


GAMES = sorted((ROOT / "companion" / "games").rglob("*.py"))


@pytest.mark.parametrize("path", GAMES, ids=[str(p.relative_to(ROOT / "companion" / "games")) for p in GAMES])
def test_no_game_holds_an_untyped_json_object_or_looks_a_key_up_in_an_action(path: Path) -> None:
    # Actions reach the rules as the game's own models and states are typed values: a game that
    # falls back to a dict of Any, or to action["key"], has lost a type on the way.
    source = path.read_text(encoding="utf-8")
    assert source.count("dict[str, Any]") == 0
    assert 'action["' not in source and "action.get(" not in source

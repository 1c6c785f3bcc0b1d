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


QUEUED = [p for p in GAMES if p.parent.name in ("incantibus", "via_magica")]


@pytest.mark.parametrize("path", QUEUED, ids=[str(p.relative_to(ROOT / "companion" / "games")) for p in QUEUED])
def test_a_games_queued_steps_and_what_it_waits_for_are_typed(path: Path) -> None:
    # Each step and each prompt is a value of its own kind (``steps.py``), never a tuple of Any read by
    # position (``state.pending[1]``), so the type checker sees every part of it.
    source = path.read_text(encoding="utf-8")
    assert "tuple[Any" not in source and ".pending[" not in source and "step[" not in source

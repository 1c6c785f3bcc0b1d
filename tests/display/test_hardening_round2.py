"""The display under the second round of hostile and careless input (issue 21): a join code spammed
from many addresses, a redirect to another site, a game start cut in half, settings that bite later."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.engine.events import Event
from companion.store import Store


# -- 9: a game start is one transaction ------------------------------------------------------------

def test_a_start_that_fails_between_the_games_row_and_its_setup_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "night.sqlite"
    with Store(path) as store:
        night = store.new_night("Test night")
        unwritable: Any = {"players": {"Lera", "Kirill"}}  # a set: the setup entry fails after the games row
        with pytest.raises(TypeError):
            store.new_game(night, "counting", Event(0, "setup", unwritable, None, 0.0))
        assert store.games(night) == []
        good = store.new_game(night, "counting", Event(0, "setup", {"players": ["Lera"]}, None, 0.0))
        assert [g["id"] for g in store.games(night)] == [good]
    with sqlite3.connect(path) as db:  # nothing for the next open to repair: no row was ever committed
        assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)
    with Store(path) as store:
        assert store.notices == []

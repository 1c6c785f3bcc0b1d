"""Backups and nights moved between Pis, on real SQLite files: a backup after every game (SQLite's
online backup, the last few kept), ``incanto restore``, and ``incanto export-night`` /
``import-night`` round trips that replay every game to the same state."""
from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from companion.night import Night
from companion.night_at_the_table import display, listen_to_the_table
from companion.night_at_the_table.backups import AfterEveryGame, backup, check, kept
from companion.status import StatusBoard
from companion.store import Store
from companion.web.settings import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]


def incanto(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "HOME": "/nonexistent"})


def play(night: Night, game: str, seed: int, moves: int | None = None) -> None:
    """Bots play a game of the night to its end (or ``moves`` moves)."""
    played, rng = night.start_game(game, PLAYERS, seed=seed), random.Random(seed)
    while (moves is None or moves > 0) and (action := played.rules.random_action(played.state, rng)) is not None:
        played.propose(action, None, None)
        moves = None if moves is None else moves - 1


def games_in(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT count(*) FROM games").fetchone()[0])


def test_a_backup_is_made_when_a_game_ends(tmp_path: Path) -> None:
    with Store(tmp_path / "incanto.sqlite") as store:
        night = Night.resume_or_start(store, "Friday")
        app = display(night, StatusBoard(), Settings(join_code="424242"))
        after = AfterEveryGame(store.path, tmp_path / "backups")
        with TestClient(app):
            listen_to_the_table(app, after)
            game = app.state.table.start_game("incantibus", PLAYERS, seed=3)
            rng = random.Random(1)
            for _ in range(5):
                app.state.table.propose(game.rules.random_action(game.state, rng), None, None)
            assert kept(tmp_path / "backups") == []  # not while the game goes on
            while (action := game.rules.random_action(game.state, rng)) is not None:
                app.state.table.propose(action, None, None)
            assert after.done.wait(30)
        (made,) = kept(tmp_path / "backups")
        assert made.name.endswith("-incantibus.sqlite") and check(made) == {"nights": 1, "games": 1}
        with Store(made) as copy:
            again = Night.resume_or_start(copy)
            assert again.current is not None and again.current.view() == game.view()  # the whole game, ended


def test_only_the_newest_backups_are_kept(tmp_path: Path) -> None:
    with Store(tmp_path / "incanto.sqlite") as store:
        Night.resume_or_start(store, "Friday")
        made = [backup(store.path, tmp_path / "backups", "incantibus", keep=3, now=1_764_700_000 + 60 * i) for i in range(5)]
    assert kept(tmp_path / "backups") == made[2:]


def test_restore_puts_a_backup_back_and_keeps_what_it_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    with Store(folder / "incanto.sqlite") as store:
        night = Night.resume_or_start(store, "Friday")
        play(night, "incantibus", seed=1)
        saved = backup(store.path, tmp_path / "elsewhere", "incantibus")
        play(night, "witchcraft", seed=2, moves=4)
    assert games_in(folder / "incanto.sqlite") == 2
    done = incanto("restore", str(saved), "--data-dir", str(folder))
    assert done.returncode == 0, done.stderr
    assert games_in(folder / "incanto.sqlite") == 1
    (replaced,) = kept(folder / "backups")
    assert "before-restore" in replaced.name and games_in(replaced) == 2
    with Store(folder / "incanto.sqlite") as store:  # the display can open it again
        assert Night.resume_or_start(store).current is not None


def test_restore_refuses_what_is_not_a_whole_store(tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    with Store(folder / "incanto.sqlite") as store:
        Night.resume_or_start(store, "Friday")
    notes = tmp_path / "notes.sqlite"
    notes.write_text("scores: Lera 12, Kirill 9\n")
    done = incanto("restore", str(notes), "--data-dir", str(folder))
    assert done.returncode == 2 and str(notes) in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert kept(folder / "backups") == []  # nothing touched


def test_a_night_moves_to_another_pi_and_replays_the_same(tmp_path: Path) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    with Store(here / "incanto.sqlite") as store:
        night = Night.resume_or_start(store, "Friday")
        play(night, "incantibus", seed=4)
        play(night, "grimoire", seed=5)
        play(night, "via_magica", seed=6, moves=12)  # the last game still going
        views = [g.view() for _, g in night.played()]
        standings = night.standings()
    exported = tmp_path / "friday.json"
    done = incanto("export-night", str(exported), "--data-dir", str(here))
    assert done.returncode == 0, done.stderr
    done = incanto("import-night", str(exported), "--data-dir", str(there))
    assert done.returncode == 0, done.stderr
    with Store(there / "incanto.sqlite") as store:
        moved = Night.resume_or_start(store)
        assert store.night(moved.id)["name"] == "Friday"
        assert [g.view() for _, g in moved.played()] == views and moved.standings() == standings
    again = tmp_path / "again.json"
    assert incanto("export-night", str(again), "--data-dir", str(there)).returncode == 0
    assert json.loads(again.read_text()) == json.loads(exported.read_text())  # the round trip loses nothing


def test_an_import_that_does_not_replay_is_refused_whole(tmp_path: Path) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    with Store(here / "incanto.sqlite") as store:
        night = Night.resume_or_start(store, "Friday")
        play(night, "incantibus", seed=4)
        play(night, "incantibus", seed=5, moves=6)
    exported = tmp_path / "friday.json"
    assert incanto("export-night", str(exported), "--data-dir", str(here)).returncode == 0
    night_file = json.loads(exported.read_text())
    night_file["games"][1]["entries"][3]["payload"]["targets"] = {"Lera": "nowhere"}  # a casting the rules refuse
    exported.write_text(json.dumps(night_file))
    done = incanto("import-night", str(exported), "--data-dir", str(there))
    assert done.returncode == 2 and "game 2 ('incantibus') cannot be replayed" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and not (there / "incanto.sqlite").exists()
    done = incanto("import-night", str(tmp_path / "missing.json"), "--data-dir", str(there))
    assert done.returncode == 2 and "missing.json" in done.stderr


@pytest.mark.parametrize("night_file", [{"name": "Friday"}, {"incanto_night": 1, "name": 7, "games": []}])
def test_a_file_that_is_not_a_night_is_named(tmp_path: Path, night_file: dict[str, object]) -> None:
    path = tmp_path / "night.json"
    path.write_text(json.dumps(night_file))
    done = incanto("import-night", str(path), "--data-dir", str(tmp_path / "there"))
    assert done.returncode == 2 and str(path) in done.stderr and "Traceback" not in done.stderr

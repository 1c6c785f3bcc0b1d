"""Hardening: a refused start leaves no trace, player names that could fool the table are refused, and
the replay command answers every bad file or store with one line naming it (exit status 2)."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.__main__ import main
from companion.engine.game import Game
from companion.errors import MalformedAction
from companion.night import Night
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]
SETUP = {"type": "setup", "game": "stones", "players": ["Ada", "Bo"], "options": {"heap": 9}, "seed": 5}


def rows(path: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute(sql).fetchall()


# -- a refused start ------------------------------------------------------------------------

@pytest.mark.parametrize("players, options", [(["Ada", "Bo"], {"colour": "red"}), (["Ada"], {}),
                                              (["Ada", "ada"], {}), ("ABCD", {})])
def test_a_refused_start_leaves_no_trace_and_the_store_opens_again(tmp_path, with_stones, players, options):
    path = tmp_path / "night.sqlite"
    with Store(path) as store:
        night = Night.resume_or_start(store)
        night.start_game("stones", ["Ada", "Bo"], {"heap": 5}, seed=1).propose({"type": "take", "player": "Ada",
                                                                               "count": 1})
        with pytest.raises(ValueError):
            night.start_game("stones", players, options, seed=2)
    assert rows(path, "SELECT count(*) FROM games") == [(1,)]
    with Store(path) as store:
        game = Night.resume_or_start(store).current
        assert game is not None and game.version == 1 and not store.notices


def test_a_store_holding_a_game_that_never_started_is_repaired_on_open(tmp_path, with_stones):
    path = tmp_path / "night.sqlite"
    with Store(path) as store:
        night = Night.resume_or_start(store)
        night.start_game("stones", ["Ada", "Bo"], {"heap": 5}, seed=1)
    with sqlite3.connect(path) as db:  # what an earlier Incanto left after refusing a start
        db.execute("INSERT INTO games (night_id, game, started_at) VALUES (?, 'stones', 0)", (night.id,))
    with Store(path) as store:
        assert len(store.notices) == 1 and "never started" in store.notices[0]
        resumed = Night.resume_or_start(store)
        assert resumed.current is not None and resumed.current.players == ["Ada", "Bo"]
    assert rows(path, "SELECT count(*) FROM games") == [(1,)]


# -- player names ---------------------------------------------------------------------------

@pytest.mark.parametrize("players, named", [
    (["Ada", "Bo\x00"], "U+0000"), (["Ada", "B\u200bo"], "U+200B"), (["Ada", "\u202eoB"], "U+202E"),
    (["\ufeffAda", "Bo"], "U+FEFF"), (["Ada", "\u0301"], "U+0301"), (["Ada", "B\ud800"], "players.1"),
    (["A", "a"], "'a'"), (["A", "A\u200b"], "U+200B"), (["Ada", "ADA"], "'ADA'"), (["Ada", 7], "players.1"),
    ("ABCD", "players"), (["Ada", "Bo\n"], "U+000A"), (["Ada", "Bo \u0301x"], "U+0301"),
    (["Ada", ""], "players.1"), (["Ada", "Bo" * 40], "players.1"),
    (["ﬁ", "fi"], "'fi'"), ([["Ada"], ["Bo"]], "players.0"),
])
def test_names_that_could_fool_the_table_are_refused_naming_the_name(stones, players, named):
    with pytest.raises(MalformedAction) as refused:
        Game.start(stones, players, {"heap": 9}, seed=1)
    assert named in str(refused.value) and "\n" not in str(refused.value)


def test_names_are_stored_in_nfc(tmp_path, with_stones):
    with Store(tmp_path / "night.sqlite") as store:
        game = Night.resume_or_start(store).start_game("stones", ["Zoe\u0301", "Bo"], {"heap": 9}, seed=1)
        assert game.players == ["Zo\u00e9", "Bo"]
        ((payload,),) = rows(store.path, "SELECT payload FROM events WHERE seq = 0")
        assert json.loads(payload)["players"] == ["Zo\u00e9", "Bo"]
        assert game.propose({"type": "take", "player": "Zo\u00e9", "count": 1}).seq == 1


# -- replay: one line for every bad file or store -------------------------------------------

def write(path: Path, lines: list[Any]) -> Path:
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def refused_in_one_line(capsys, argv: list[str], *named: str) -> str:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err.startswith("incanto: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert all(word in err for word in named), err
    return err


@pytest.mark.parametrize("setup, named", [
    ({**SETUP, "game": ["stones"]}, "['stones']"), ({**SETUP, "options": "x"}, "options"),
    ({**SETUP, "players": [["Ada"], ["Bo"]]}, "players.0"), ({**SETUP, "players": "ABCD"}, "players"),
    ({**SETUP, "seed": "five"}, "seed"), ({**SETUP, "colour": "red"}, "colour"),
    ({**SETUP, "players": ["Ada", "ADA"]}, "ADA"),
])
def test_a_bad_setup_line_is_one_line_naming_file_line_and_key(tmp_path, with_stones, capsys, setup, named):
    script = write(tmp_path / "g.jsonl", [setup])
    refused_in_one_line(capsys, ["replay", str(script)], "g.jsonl:1", named)


def test_a_binary_a_non_utf8_and_a_deeply_nested_script(tmp_path, with_stones, capsys):
    binary = tmp_path / "photo.jsonl"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    refused_in_one_line(capsys, ["replay", str(binary)], "photo.jsonl", "binary")
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(json.dumps({**SETUP, "players": ["Zoé", "Bo"]}, ensure_ascii=False).encode("latin-1"))
    refused_in_one_line(capsys, ["replay", str(latin)], "latin.jsonl", "UTF-8")
    deep = tmp_path / "deep.jsonl"
    deep.write_text(json.dumps(SETUP) + "\n" + '{"type": "take", "x": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    refused_in_one_line(capsys, ["replay", str(deep)], "deep.jsonl:2", "nested")


def test_a_damaged_a_foreign_and_a_missing_store(tmp_path, with_stones, capsys):
    script = write(tmp_path / "g.jsonl", [SETUP])
    notes = tmp_path / "notes.sqlite"
    notes.write_text("shopping list: eggs\n" * 100)
    refused_in_one_line(capsys, ["replay", str(script), "--store", str(notes)], "notes.sqlite", "not a readable")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    refused_in_one_line(capsys, ["replay", str(script), "--store", str(other)], "other.sqlite", "schema version")
    refused_in_one_line(capsys, ["replay", str(script), "--store", str(tmp_path / "gone" / "s.sqlite")],
                        "gone", "does not exist")


def as_plain_user() -> list[str]:
    """The prefix that runs a command without root's power to write through permissions (when the
    tests run as root): the same user, without the capabilities that override file modes."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root and util-linux's setpriv is missing")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"]


def test_a_good_store_in_a_read_only_folder_is_named_read_only_not_unreadable(tmp_path):
    good = tmp_path / "ro" / "night.sqlite"
    good.parent.mkdir()
    script = write(tmp_path / "g.jsonl", [SETUP])
    with Store(good) as store:
        Night.resume_or_start(store)
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from companion import games; "
            "games.MODULES['stones'] = 'stones'; from companion.__main__ import main; "
            "sys.exit(main(['replay', sys.argv[2], '--store', sys.argv[3]]))")
    good.parent.chmod(0o555)
    try:
        done = subprocess.run([*as_plain_user(), sys.executable, "-c", code, str(Path(__file__).parent), str(script),
                               str(good)], capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    finally:
        good.parent.chmod(0o755)
    assert done.returncode == 2, done.stderr
    assert "read-only" in done.stderr and "not a readable" not in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "night.sqlite" in done.stderr

from __future__ import annotations

import json
import sqlite3

from companion.__main__ import main


def write_script(path, lines):
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


SETUP = {"type": "setup", "game": "stones", "players": ["Ada", "Bo"], "options": {"heap": 9}, "seed": 5}


def test_replay_prints_the_final_public_state_as_json(tmp_path, with_stones, capsys):
    script = write_script(tmp_path / "g.jsonl", [
        SETUP,
        {"type": "take", "player": "Ada", "count": 3},
        {"type": "take", "player": "Bo", "count": 2},
        {"type": "undo"},
        {"type": "take", "player": "Bo", "count": 1},
    ])
    assert main(["replay", str(script), "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["heap"] == 5 and view["version"] == 4 and view["game"] == "stones"


def test_replay_writes_the_game_to_a_store_when_asked(tmp_path, with_stones, capsys):
    script = write_script(tmp_path / "g.jsonl", [SETUP, {"type": "take", "player": "Ada", "count": 1}])
    assert main(["replay", str(script), "--store", str(tmp_path / "s.sqlite")]) == 0
    assert "stones" in capsys.readouterr().out
    with sqlite3.connect(tmp_path / "s.sqlite") as db:
        assert db.execute("SELECT count(*) FROM events").fetchone()[0] == 2


def test_replay_stops_at_an_illegal_line_and_names_it(tmp_path, with_stones, capsys):
    script = write_script(tmp_path / "g.jsonl", [SETUP, {"type": "take", "player": "Bo", "count": 1}])
    assert main(["replay", str(script)]) == 1
    err = capsys.readouterr().err
    assert "g.jsonl:2" in err and "turn-order" in err and "Bo" in err


def test_replay_names_a_line_that_is_not_json(tmp_path, with_stones, capsys):
    script = tmp_path / "g.jsonl"
    script.write_text(json.dumps(SETUP) + "\n{oops\n")
    assert main(["replay", str(script)]) == 2
    assert "g.jsonl:2" in capsys.readouterr().err


def test_replay_of_a_missing_file_or_game(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    script = write_script(tmp_path / "g.jsonl", [{**SETUP, "game": "chess"}])
    assert main(["replay", str(script)]) == 2
    assert "'chess'" in capsys.readouterr().err


def test_unknown_commands_are_named(capsys):
    assert main(["dance"]) == 2
    assert "'dance'" in capsys.readouterr().err
    assert main(["bench", "toaster"]) == 2


def test_a_refused_line_prints_the_state_where_the_replay_stopped_and_why(tmp_path, with_stones, capsys):
    script = write_script(tmp_path / "g.jsonl", [
        SETUP, {"type": "take", "player": "Ada", "count": 3}, {"type": "take", "player": "Ada", "count": 7},
        {"type": "take", "player": "Bo", "count": 1}])
    assert main(["replay", str(script), "--json"]) == 1
    out, err = capsys.readouterr()
    view = json.loads(out)
    assert view["heap"] == 6 and view["version"] == 1
    refused = view["refused"]
    assert refused["line"] == 3 and refused["error"] == "IllegalAction"
    assert {p["rule"] for p in refused["problems"]} == {"turn-order", "take-count"}
    assert "g.jsonl:3" in err
    assert main(["replay", str(script)]) == 1
    out = capsys.readouterr().out
    assert "stones" in out and "stopped at line 3" in out and "turn-order" in out and "take-count" in out

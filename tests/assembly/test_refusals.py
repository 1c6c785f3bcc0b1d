"""``serve`` and ``demo`` refuse what they cannot use in one line per problem, naming the file, and
exit 2: a damaged or foreign store, a store whose folder is missing or read-only, a bad places or
settings file. Every problem of a file is listed at once; nothing is written."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.night_at_the_table import demo, serve

QUIET = ["--hub", "none", "--camera", "none", "--no-mic"]


def refused(capsys: pytest.CaptureFixture[str], code: int) -> list[str]:
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "Traceback" not in err, (code, out, err)
    return err.splitlines()


def damaged(path: Path) -> Path:
    path.write_bytes(b"SQLite format 3\x00" + b"\x13" * 2000)
    return path


def foreign(path: Path) -> Path:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    return path


@pytest.mark.parametrize("make,said", [(damaged, "damaged"), (foreign, "not an Incanto store")])
def test_a_store_that_is_not_a_good_incanto_store_is_refused_and_left_as_it_was(
        make, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    store = make(tmp_path / "night.sqlite")
    before = store.read_bytes()
    for command in (lambda: serve.main(["--data-dir", str(tmp_path / "data"), "--store", str(store), *QUIET]),
                    lambda: demo.main(["--store", str(store), "--no-browser", "--seconds", "0"])):
        (line,) = refused(capsys, command())
        assert repr(str(store)) in line
    assert store.read_bytes() == before


def test_store_kinds_are_told_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The two refusals above say different things (the store's own words, not one generic line)."""
    lines = []
    for make in (damaged, foreign):
        serve.main(["--data-dir", str(tmp_path), "--store", str(make(tmp_path / f"{make.__name__}.sqlite")), *QUIET])
        lines += refused(capsys, 2)
    assert lines[0].replace("damaged", "") != lines[1].replace("foreign", "")


def test_a_store_in_a_missing_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "no-such-folder" / "night.sqlite"
    (line,) = refused(capsys, serve.main(["--data-dir", str(tmp_path), "--store", str(store), *QUIET]))
    assert repr(str(store)) in line and "does not exist" in line
    assert not store.parent.exists()


def test_a_store_in_a_read_only_folder_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """/proc cannot be written even by root, as a read-only mount would be at the table."""
    store = Path("/proc/incanto.sqlite")
    (line,) = refused(capsys, serve.main(["--data-dir", str(tmp_path), "--store", str(store), *QUIET]))
    assert repr(str(store)) in line


def test_a_bad_places_file_lists_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    places = tmp_path / "places.json"
    places.write_text(json.dumps({"places": {"r0": [100, "far"], "r1": [1, 2, 3, 4]}, "seats": [[1]]}))
    for command in (lambda: serve.main(["--data-dir", str(tmp_path), "--places", str(places), *QUIET]),
                    lambda: demo.main(["--places", str(places), "--no-browser", "--seconds", "0"])):
        lines = refused(capsys, command())
        assert len(lines) == 3 and all(line.startswith(repr(str(places))) for line in lines)
        assert [line.split(": ")[1] for line in lines] == ["places.r0.y_mm", "places.r1", "seats[0]"]
    assert not (tmp_path / "incanto.sqlite").exists()


def test_a_bad_settings_file_lists_every_key_and_what_it_may_be(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"display": {"port": 70000, "join_code": "12ab"},
                                    "table": {"hub": "", "mic": "yes", "swap_recheck_s": -1}, "colour": "blue"}))
    lines = refused(capsys, serve.main(["--data-dir", str(tmp_path)]))
    said = {line.split(": ")[1]: line for line in lines}
    assert set(said) == {"display.port", "display.join_code", "table.hub", "table.mic", "table.swap_recheck_s", "colour"}
    assert "'auto', 'gpio', 'none'" in said["table.hub"] and "65535" in said["display.port"]
    assert "'display', 'speaker', 'table'" in said["colour"] and "[0-9]" in said["display.join_code"]
    assert all(line.startswith(repr(str(settings))) for line in lines)
    assert not (tmp_path / "incanto.sqlite").exists()


def test_flags_are_checked_with_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (line,) = refused(capsys, serve.main(["--data-dir", str(tmp_path), "--port", "99999", "--hub", "none"]))
    assert line.startswith("command line: --port (display.port): ") and "99999" in line
    (line,) = refused(capsys, demo.main(["--port", "99999", "--no-browser", "--seconds", "0"]))
    assert "port" in line and "99999" in line


def test_flags_win_over_the_settings_file(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"display": {"port": 8123, "join_code": "246810"},
                                                        "table": {"hub": "gpio", "mic": False}}))
    night = serve.settings_of(serve.parse(["--hub", "none"]), tmp_path)
    assert (night.display.port, night.display.join_code, night.table_side().hub, night.table_side().mic) == (8123, "246810", "none", False)
    assert night.table.calibration == tmp_path / "calibration.json"
    assert night.table.cue_templates == tmp_path / "cue" / "templates"


def test_the_command_line_says_one_line_and_exits_2(tmp_path: Path) -> None:
    store = damaged(tmp_path / "night.sqlite")
    done = subprocess.run([sys.executable, "-m", "companion", "serve", "--data-dir", str(tmp_path), "--store", str(store),
                           *QUIET], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    assert repr(str(store)) in done.stderr

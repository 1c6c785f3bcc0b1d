"""Logs stored by an earlier Incanto read back to the very views they showed then: the store written
before the games' actions and states were typed (``make_stored_logs.py``), and every golden script."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.night import Night
from companion.replay import play
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "stored_logs"
VIEWS = json.loads((DATA / "views.json").read_text())
SCRIPTS = sorted(key for key in VIEWS if not key.startswith("store/"))


def test_every_golden_script_has_a_recorded_view():
    assert SCRIPTS == sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("tests/*/golden/*.jsonl"))


def test_the_stored_night_reads_back_to_the_same_views(tmp_path):
    copy = tmp_path / "night.sqlite"
    shutil.copyfile(DATA / "night.sqlite", copy)  # opening a store may add tables: never touch the original
    with Store(copy) as store:
        views = {f"store/{game.rules.name}": game.view() for _, game in Night.resume_or_start(store).played()}
    assert len(views) == 5
    for key, view in views.items():
        assert json.loads(json.dumps(view)) == VIEWS[key], key


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_golden_script_replays_to_the_same_view(script, tmp_path):
    with Store(tmp_path / "replay.sqlite") as store:
        game, refusal = play(ROOT / script, store)
        assert refusal is None
        assert json.loads(json.dumps(game.view())) == VIEWS[script]


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_log_keeps_each_action_as_the_script_wrote_it(script, tmp_path):
    # The rules see the game's models; the store keeps each model's payload, which is the line itself.
    lines = [json.loads(line) for line in (ROOT / script).read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("//")][1:]
    with Store(tmp_path / "replay.sqlite") as store:
        game, refusal = play(ROOT / script, store)
        assert refusal is None
        stored = [e.payload for e in store.events(1) if e.kind == "action"]
    assert stored == [line for line in lines if line["type"] not in ("undo", "redo", "undo_to")]

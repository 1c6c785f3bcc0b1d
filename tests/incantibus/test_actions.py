"""Incantibus's actions as declared models: every junk key, wrong type, oversized or over-deep value is
refused with MalformedAction naming the key, and nothing reaches the store."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.__main__ import main
from companion.errors import MalformedAction
from companion.night import Night
from companion.store import Store

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]
DEAL = {"Lera": 4, "Kirill": 2, "Katya": 1, "Rosa": 3}
ROOF = ["flying_stake", "pumpkin", "mistletoe", "mushroom", "trap", "wand_net", "crystal_ball"]
CAST = {"type": "cast", "targets": {"Lera": "r0", "Kirill": "r0", "Katya": "r0", "Rosa": "r1"}}


def nested(depth: int) -> Any:
    value: Any = "r0"
    for _ in range(depth):
        value = [value]
    return value


# (action, the key the refusal must name)
JUNK: list[tuple[dict[str, Any], str]] = [
    ({**CAST, "hocus": 1}, "hocus"),
    ({**CAST, "targets": {**CAST["targets"], "Rosa": 7}}, "targets.Rosa"),
    ({**CAST, "pay": {"Lera": "J1"}}, "pay.Lera"),
    ({**CAST, "junk": "x" * 15_000}, "junk"),
    ({**CAST, "q" * 15_000: 1}, "qqqq"),
    ({**CAST, "deep": nested(256)}, "deep.0.0"),
    ({"type": "spell", "player": "Lera", "card": "RETIRO", "choice": {"token": "J1", "wand": 4}}, "choice.wand"),
    ({"type": "spell", "player": ["Lera"], "card": "RETIRO"}, "player"),
    ({"type": "satchel", "player": "Lera", "choice": "discard_old"}, "choice"),
    ({"type": "satchel", "player": "Lera", "choice": {"discard": "J4", "also": "J5"}}, "also"),
    ({"type": "wand_down", "player": "Rosa", "loudly": True}, "loudly"),
    ({"type": "room_entered", "visible": ["trap"] * 40, "secret": 0}, "visible"),
    ({"type": "room_entered", "visible": ["trap"], "secret": True}, "secret"),
    ({"type": "reveal", "kinds": {"r4": ["vampire"]}}, "kinds.r4"),
    ({"type": "reveal", "token_id": "r4", "kind": "vampire", "colour": "red"}, "colour"),
    ({"type": "cast", "targets": {"Lera": "r" * 500, "Kirill": None, "Katya": None, "Rosa": None}}, "targets.Lera"),
]


@pytest.fixture
def night(store: Store) -> Night:
    night = Night.resume_or_start(store)
    game = night.start_game("incantibus", PLAYERS, {"draws": "table", "deal": DEAL}, seed=1)
    game.propose({"type": "room_entered", "room": "roof", "visible": ROOF, "secret": 0})
    return night


def stored(store: Store) -> int:
    with sqlite3.connect(store.path) as db:
        count: int = db.execute("SELECT count(*) FROM events").fetchone()[0]
    return count


@pytest.mark.parametrize("action, key", JUNK, ids=[f"{a['type']}-{k[:12]}" for a, k in JUNK])
def test_a_junk_action_is_refused_naming_its_key_and_nothing_is_stored(night: Night, store: Store,
                                                                       action: dict[str, Any], key: str) -> None:
    game = night.current
    assert game is not None
    before, entries = game.view(), stored(store)
    with pytest.raises(MalformedAction) as refused:
        game.propose(action)
    message = str(refused.value)
    assert key in message and len(message) < 600 and "\n" not in message
    assert game.view() == before and stored(store) == entries == 2


def test_every_kind_of_action_passes_through_its_model_unchanged() -> None:
    from companion.games.incantibus import RULES
    for action in [{**CAST, "pay": {"Rosa": ["J1", "J2"]}},
                   {"type": "spell", "player": "Lera", "card": "ALKIMIA", "choice": {"from": "Rosa", "token": "J9"}},
                   {"type": "spell", "player": "Lera", "card": "LOCUS"},
                   {"type": "satchel", "player": "Lera", "choice": {"discard": "J4"}},
                   {"type": "satchel", "player": "Lera", "choice": "discard_new"},
                   {"type": "wand_down", "player": "Rosa"},
                   {"type": "room_entered", "room": None, "visible": ["trap"], "secret": 3},
                   {"type": "reveal", "kinds": {"r4": "vampire", "c0": "LOCUS"}},
                   {"type": "reveal", "token_id": "r4", "kind": "vampire"}]:
        assert RULES.parse_action(action).payload() == action


@pytest.mark.parametrize("action, key", [JUNK[0], JUNK[3], JUNK[5], JUNK[6]], ids=["unknown", "15KB", "deep", "choice"])
def test_replay_refuses_a_junk_line_naming_file_line_and_key(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             action: dict[str, Any], key: str) -> None:
    script = tmp_path / "junk.jsonl"
    lines = [{"type": "setup", "game": "incantibus", "players": PLAYERS, "options": {"draws": "table", "deal": DEAL},
              "seed": 1}, {"type": "room_entered", "room": "roof", "visible": ROOF, "secret": 0}, action]
    script.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    assert main(["replay", str(script), "--store", str(tmp_path / "night.sqlite")]) == 1
    err = capsys.readouterr().err
    assert "junk.jsonl:3" in err and key in err and "Traceback" not in err
    with sqlite3.connect(tmp_path / "night.sqlite") as db:
        assert db.execute("SELECT seq FROM events ORDER BY seq").fetchall() == [(0,), (1,)]


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=70),
                           lambda inner: st.lists(inner, max_size=20) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=6), max_leaves=30)
KEYS = ["targets", "pay", "player", "card", "choice", "visible", "secret", "room", "kinds", "token_id", "kind", "x"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["cast", "spell", "satchel", "wand_down", "room_entered", "reveal", "fly"]),
       st.dictionaries(st.sampled_from(KEYS), json_values, max_size=4))
def test_any_json_is_parsed_to_a_declared_action_or_refused_naming_a_key(kind: str, fields: dict[str, Any]) -> None:
    from companion.games.incantibus import RULES
    try:
        action = RULES.parse_action({"type": kind, **fields})
    except MalformedAction as refused:
        assert str(refused) and "\n" not in str(refused) and len(str(refused)) < 2000
        return
    assert action.type == kind and set(action.payload()) <= {"type", *fields}
    assert isinstance(RULES.check(RULES.setup(PLAYERS, {"deal": DEAL}, Random(0)), action), list)

"""Starting from a described position: validated like an action, every problem at once."""
from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from companion.errors import IllegalAction, MalformedAction
from tests.game_helpers import refused_position_stores_nothing, script
from grimoire_helpers import BOOK, GOLDEN, RULES, position


def test_a_described_position_lays_out_the_circle_the_madness_and_the_spells() -> None:
    state = position({"page": 3, "round": 3, "marker": 4, "fields": {"2": ["feuer-1"], "5": ["vier-2", "luft-3"]},
                      "banished": ["a"], "madness": {"Kirill": {"hand": 3, "support": 1}},
                      "spells": {"Lera": ["feuer_basis", "erde_1"]}, "exhausted": {"Lera": ["erde_1"]}, "active": "Kirill"})
    view = RULES.public_view(state)
    assert view["ritual"]["marker"] == 4 and view["monster"]["id"] == "c" and view["active"] == "Kirill"
    assert [c["id"] for c in view["ritual"]["fields"][5]["curses"]] == ["vier-2", "luft-3"]
    assert view["banished"] == ["a"] and view["escaped"] == ["b"]
    assert view["madness"]["pile"] == 14 - 4
    assert view["library"]["erde"] == {"top": "erde_2", "left": 2}
    assert "feuer-1" not in state.piles["feuer"] and len(state.piles["feuer"]) == 5


def test_a_bad_position_is_refused_with_every_problem_at_once() -> None:
    with pytest.raises(IllegalAction) as refused:
        position({"page": 2, "round": 4, "fields": {"1": ["feuer-1"], "2": ["feuer-1", "drache-1"]},
                  "banished": ["d"], "madness": {"Lera": {"hand": 20}, "Nobody": {"hand": 1}},
                  "spells": {"Lera": ["feuer_basis"] * 2}, "out": ["Lera", "Kirill"]})
    rules = sorted({p.rule for p in refused.value.problems})
    assert rules == ["position-banished", "position-curse", "position-field", "position-madness", "position-out",
                     "position-player", "position-round", "position-spells"]


def test_a_position_of_the_wrong_shape_names_the_key() -> None:
    with pytest.raises(MalformedAction, match="'marker'"):
        position({"page": 1, "marker": 0})
    with pytest.raises(MalformedAction, match="'dragons' is unknown"):
        position({"page": 1, "dragons": 3})


def test_the_position_in_the_replay_doc_is_valid() -> None:
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "replay.md").read_text()
    example = doc[doc.index("### Das Grimoire des Wahnsinns"):doc.index("### Ravenskeep")]
    state = position(json.loads(re.findall(r"```json\n(.*?)```", example, re.S)[0]))
    assert state.marker == 4 and state.current.name == "Kirill" and state.madness_pile == 10


def describe(state: object) -> dict[str, object]:
    """The position a person would describe for ``state`` at the start of an action phase."""
    s = state
    return {"page": s.page + 1, "round": s.round + 1, "marker": s.marker,  # type: ignore[attr-defined]
            "fields": {str(f): list(c) for f, c in s.fields.items() if c},  # type: ignore[attr-defined]
            "banished": list(s.banished), "curses_banished": s.curses_banished,  # type: ignore[attr-defined]
            "madness": {p.name: {"hand": p.madness_hand, "support": p.madness_support} for p in s.players},  # type: ignore[attr-defined]
            "spells": {p.name: list(p.spells) for p in s.players}, "exhausted": {p.name: sorted(p.exhausted) for p in s.players},  # type: ignore[attr-defined]
            "out": [p.name for p in s.players if p.out], "active": s.current.name,  # type: ignore[attr-defined]
            "supply": {e: {str(v): n for v, n in piles.items()} for e, piles in s.supply.items()}}  # type: ignore[attr-defined]


def test_every_position_reached_in_play_can_be_described_and_started_from() -> None:
    from companion.engine.game import Game
    names = ["Lera", "Kirill", "Katya"]
    game = Game.start(RULES, names, {"book": BOOK, "first": "Lera"}, seed=2)
    rng = Random(2)
    skip = {"notes", "turn", "library"}  # spells dropped from the game are not part of a described position
    while (action := RULES.random_action(game.state, rng)) is not None:
        game.propose(action)
        if game.state.outcome is None and not game.state.spells_gone:
            again = RULES.from_position(names, {"book": BOOK, "first": "Lera"}, describe(game.state), Random(0))
            view, live = RULES.public_view(again), RULES.public_view(game.state)
            assert {k: v for k, v in view.items() if k not in skip} == {k: v for k, v in live.items() if k not in skip}


def test_a_refused_position_stores_nothing_and_replay_says_so_in_one_line(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    lines = script(GOLDEN, "last_page")
    bad = {**lines[0]["position"], "fields": {"4": ["feuer-1"], "5": ["feuer-1"]}}  # one curse in two fields
    refused_position_stores_nothing(tmp_path, lines, bad, "position-curse", capsys)

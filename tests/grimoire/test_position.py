"""Starting from a described position: validated like an action, every problem at once."""
from __future__ import annotations

import pytest

from companion.errors import IllegalAction, MalformedAction
from grimoire_helpers import RULES, position


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
    import json
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "replay.md").read_text()
    example = doc[doc.index("### Das Grimoire des Wahnsinns"):doc.index("### Ravenskeep")]
    state = position(json.loads(re.findall(r"```json\n(.*?)```", example, re.S)[0]))
    assert state.marker == 4 and state.current.name == "Kirill" and state.madness_pile == 10

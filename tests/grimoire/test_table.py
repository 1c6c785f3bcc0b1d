"""Table draws: the table draws curses from its own piles and enters their elements."""
from __future__ import annotations

import pytest

from companion.errors import IllegalAction, MalformedAction
from grimoire_helpers import start

FOUR = ["feuer", "wasser", "erde", "luft"]


def test_the_companion_asks_for_each_curse_and_waits_for_them() -> None:
    game = start(draws="table")  # page A: one 4-element curse (normal, round 1) and one fire curse
    legal = game.view()["legal"]
    assert legal["kind"] == "curses" and legal["piles"] == ["vier", "feuer"]
    assert legal["faces"]["vier"] == [sorted(FOUR)] and game.state.curses_out == ()
    with pytest.raises(IllegalAction, match="rule: pending"):
        game.propose({"type": "end_turn", "player": "Lera"})
    game.propose({"type": "curses_drawn", "curses": [["luft", "erde", "wasser", "feuer"], ["feuer", "feuer", "feuer", "wasser"]]})
    state = game.state
    assert [len(state.fields[f]) for f in (2, 3, 4, 5)] == [1, 1, 0, 0] and state.awaiting == ()
    assert state.fields[3][0].startswith("feuer-") and len(state.piles["feuer"]) == 5
    assert game.view()["legal"]["kind"] == "turn"


def test_curses_the_pile_does_not_hold_are_refused_every_one_at_once() -> None:
    game = start(draws="table")
    with pytest.raises(IllegalAction) as refused:
        game.propose({"type": "curses_drawn", "curses": [["feuer"] * 4, ["luft", "luft", "luft", "feuer"]]})
    assert [(p.rule, p.target) for p in refused.value.problems] == [("curse-face", "vier:1"), ("curse-face", "feuer:2")]
    with pytest.raises(IllegalAction, match="rule: curses-count"):
        game.propose({"type": "curses_drawn", "curses": [FOUR]})
    with pytest.raises(MalformedAction, match="'curses.0'"):
        game.propose({"type": "curses_drawn", "curses": [["feuer"] * 3]})
    assert game.version == 0 and game.state.awaiting == ("vier", "feuer")

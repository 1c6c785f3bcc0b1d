"""Random bad input along random games: refused with IllegalAction or MalformedAction, nothing changed,
never any other error."""
from __future__ import annotations

from random import Random
from typing import Any

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.game import Game
from companion.errors import MalformedAction
from grimoire_helpers import NAMES, RULES
from tests.game_helpers import bad_actions_change_nothing

JUNK: list[Any] = [None, -1, 0, 7, 99, "", "Lera", "Nobody", "feuer", "vier-1", "feuer-99", "luft_3", [], ["Kirill"], {}, True,
                   [["feuer"] * 4], "x" * 60]


def mutate(action: dict[str, Any], rng: Random) -> dict[str, Any]:
    bad = dict(action)
    key = rng.choice([*bad, "type", "player", "curse", "reward", "spell", "times", "drop", "zone", "owner", "helpers",
                      "element", "value", "curses", "extra"])
    bad[key] = rng.choice(JUNK + ["banish", "cast", "learn", "buy", "cure", "end_turn", "curses_drawn"])
    return bad


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), draws=st.sampled_from(["companion", "table"]))
def test_bad_actions_change_nothing(seed: int, draws: str) -> None:
    game = Game.start(RULES, NAMES[:3], {"draws": draws}, seed=seed)
    bad_actions_change_nothing(game, mutate, Random(seed), per_action=3)


@pytest.mark.parametrize("options", [{"difficulty": []}, {"difficulty": {"x": 1}}, {"book": [["a"], ["b"]]}])
def test_an_option_of_the_wrong_type_is_refused_naming_it(options: dict[str, object]) -> None:
    with pytest.raises(MalformedAction, match=f"option '{next(iter(options))}'"):
        Game.start(RULES, ["Lera", "Kirill"], options, seed=1)

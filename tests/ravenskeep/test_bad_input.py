"""Random bad input along random games: refused with IllegalAction or MalformedAction, nothing changed,
never any other error."""
from __future__ import annotations

from random import Random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.game import Game
from ravenskeep_helpers import RULES
from tests.game_helpers import bad_actions_change_nothing

JUNK: list[Any] = [None, -1, 0, 3, 14, 15, 99, "", "Lera", "Nobody", "T1", "T10", "R", "wizard", "tower", "either", "hop",
                   {"moves": "tower", "steps": 2}, {"moves": "tower", "steps": 0}, {"moves": "dragon", "steps": 1}, [], True]


def mutate(action: dict[str, Any], rng: Random) -> dict[str, Any]:
    bad = dict(action)
    key = rng.choice([*bad, "type", "player", "card", "wizard", "tower", "moves", "dice", "spell", "steps", "extra"])
    bad[key] = rng.choice(JUNK + ["roll", "reroll", "play", "forgo", "spell", "end_turn"])
    return bad


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_bad_actions_change_nothing(seed: int) -> None:
    game = Game.start(RULES, ["Lera", "Kirill", "Katya"], seed=seed)
    bad_actions_change_nothing(game, mutate, Random(seed))

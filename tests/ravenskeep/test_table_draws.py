"""The table's own die: a whole bot game rolled by Incanto is played again with every face entered as the
table's die showed it, and both reach the same end and replay to it from their stored logs; a face the
die does not have is refused with the rule's words and nothing stored."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.engine.game import rng_for
from companion.errors import IllegalAction
from companion.games.ravenskeep.state import State
from companion.night import Night
from companion.store import Store
from ravenskeep_helpers import RULES
from tests.game_helpers import AtTable, bot_states, stored_and_read_back

PLAYERS = ["Lera", "Kirill", "Katya"]
INCANTO = {"first": "Lera"}
TABLE = {"first": "Lera", "dice": "table"}


def played_both_ways(seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]], State, State]:
    incanto = RULES.setup(PLAYERS, INCANTO, rng_for(seed, 0))
    table = AtTable(RULES, RULES.setup(PLAYERS, TABLE, rng_for(seed, 0)), seed)
    incanto_log = []
    for action, after in bot_states(RULES, incanto, seed):
        incanto = after
        incanto_log.append(action)
        if action["type"] in ("roll", "reroll"):  # the face Incanto rolled, as the table's die showed it
            assert incanto.roll is not None
            action = {**action, "value": incanto.roll.last}
        table.enter(action)  # nothing is rolled from the table's random source
    return incanto_log, table.log, incanto, table.state


@pytest.mark.parametrize("seed", range(3))
def test_a_game_of_incantos_rolls_entered_from_the_tables_die_ends_the_same(seed: int, tmp_path: Path) -> None:
    incanto_log, table_log, incanto, at_table = played_both_ways(seed)
    assert incanto.over and RULES.public_view(at_table) == RULES.public_view(incanto)
    assert sum(1 for a in table_log if "value" in a) > 3
    live_incanto = stored_and_read_back(tmp_path / "a", "ravenskeep", PLAYERS, INCANTO, seed, incanto_log)
    live_table = stored_and_read_back(tmp_path / "b", "ravenskeep", PLAYERS, TABLE, seed, table_log)
    assert RULES.public_view(live_incanto.state) == RULES.public_view(incanto)
    assert RULES.public_view(live_table.state) == RULES.public_view(at_table)


def test_a_face_the_die_does_not_have_is_refused_with_the_rule_and_nothing_stored(tmp_path: Path) -> None:
    with Store(tmp_path / "night.sqlite") as store:
        game = Night.resume_or_start(store).start_game("ravenskeep", PLAYERS, TABLE, 1)
        version, before = game.version, game.view()
        for value, words in ((7, "roll the die to determine exactly how far"), (None, "say the face it shows")):
            with pytest.raises(IllegalAction) as caught:
                game.propose({"type": "roll", "player": "Lera", "moves": "wizard", "dice": 2,
                              **({} if value is None else {"value": value})})
            assert words in str(caught.value)
            assert game.version == version and game.view() == before
        game.propose({"type": "roll", "player": "Lera", "moves": "wizard", "dice": 2, "value": 1})
        with pytest.raises(IllegalAction):
            game.propose({"type": "reroll", "player": "Lera", "value": 0})
        assert game.view()["roll"]["values"] == [1]

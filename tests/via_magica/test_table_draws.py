"""The table's own bag and portal cards: a whole bot game drawn and dealt by Incanto is played again with
every token drawn and every portal card dealt or turned up entered as the table's, and both reach the
same end and replay to it from their stored logs."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.engine.game import rng_for
from companion.games.via_magica.portals import load
from companion.games.via_magica.state import State
from tests.game_helpers import AtTable, bot_states, stored_and_read_back
from via_magica_helpers import RULES

PLAYERS = ["Tom", "Paola", "Lera"]
INCANTO = {"deal": "random", "catcher": "Paola"}
TABLE = {"deal": "random", "catcher": "Paola", "draws": "table", "portals": "table"}
COPY = re.compile(r"\b(P\d\d)[a-z]\b")
MODE_ONLY = ("draws", "portals", "deck_order")


def designs(value: Any) -> Any:
    """A view with each portal named by its design: which of two copies the table's deal used is not seen."""
    return json.loads(COPY.sub(r"\1", json.dumps(value, sort_keys=True)))


def seen(state: State) -> Any:
    view = {k: v for k, v in RULES.public_view(state).items() if k not in MODE_ONLY}
    return designs({**view, "scores": RULES.score(state), "legal": RULES.legal_actions(state)})


def played_both_ways(seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]], State, State]:
    incanto = RULES.setup(PLAYERS, INCANTO, rng_for(seed, 0))
    table = AtTable(RULES, RULES.setup(PLAYERS, TABLE, rng_for(seed, 0)), seed)
    copies: dict[str, str] = {}  # Incanto's copy of a portal -> the copy the table's entry took
    design = load().design

    def learn() -> None:  # which copy the table's state gave each portal Incanto dealt
        for mine, theirs in ((incanto.row, table.state.row), *((incanto.areas[p], table.state.areas[p]) for p in PLAYERS)):
            for a, b in zip(mine, theirs):
                assert design(a) == design(b)
                copies[a] = b

    def translate(value: Any) -> Any:
        text = json.dumps(value)
        return json.loads(re.sub(r'"(P\d\d[a-z])"', lambda m: json.dumps(copies.get(m.group(1), m.group(1))), text))

    table.enter({"type": "dealt", "row": [design(p) for p in incanto.row],
           "kept": {p: [design(q) for q in incanto.areas[p]] for p in PLAYERS}})
    learn()
    incanto_log = []
    for action, after in bot_states(RULES, incanto, seed):
        before, incanto = incanto, after
        incanto_log.append(action)
        entered = translate(action)
        if action["type"] == "draw":
            entered["animus"] = incanto.token if incanto.token is not None else before.bag[0]
        if action["type"] == "portal" and action.get("take") is not None:
            grew = len(incanto.deck) < len(before.deck)
            entered["revealed"] = design(incanto.row[-1]) if grew else None
        table.enter(entered)
        learn()
    return incanto_log, table.log, incanto, table.state


@pytest.mark.parametrize("seed", range(3))
def test_a_game_of_incantos_draws_entered_as_the_tables_ends_the_same(seed: int, tmp_path: Path) -> None:
    incanto_log, table_log, incanto, at_table = played_both_ways(seed)
    assert incanto.phase == "over" and seen(at_table) == seen(incanto)
    assert sum(1 for a in table_log if a["type"] == "draw" and a.get("animus")) > 10
    assert any(a.get("revealed") for a in table_log)
    live_incanto = stored_and_read_back(tmp_path / "a", "via_magica", PLAYERS, INCANTO, seed, incanto_log)
    live_table = stored_and_read_back(tmp_path / "b", "via_magica", PLAYERS, TABLE, seed, table_log)
    assert seen(live_incanto.state) == seen(incanto) and seen(live_table.state) == seen(at_table)

"""The table's own bag and portal cards: a whole bot game drawn and dealt by Incanto is played again with
every token drawn and every portal card dealt or turned up entered as the table's, and both reach the
same end and replay to it from their stored logs."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.engine.game import Game, rng_for
from companion.games.via_magica.portals import load
from companion.games.via_magica.state import State
from companion.night import Night
from companion.store import Store
from tests.game_helpers import bot_states
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
    at_table = RULES.setup(PLAYERS, TABLE, rng_for(seed, 0))
    copies: dict[str, str] = {}  # Incanto's copy of a portal -> the copy the table's entry took
    design = load().design

    def enter(action: dict[str, Any]) -> None:
        nonlocal at_table
        model = RULES.parse_action(action)
        assert RULES.check(at_table, model) == [], (action, at_table.pending)
        at_table = RULES.apply(at_table, model, rng_for(seed + 1000, len(table_log)))  # nothing is drawn from it
        table_log.append(action)

    def learn() -> None:  # which copy the table's state gave each portal Incanto dealt
        for mine, theirs in ((incanto.row, at_table.row), *((incanto.areas[p], at_table.areas[p]) for p in PLAYERS)):
            for a, b in zip(mine, theirs):
                assert design(a) == design(b)
                copies[a] = b

    def translate(value: Any) -> Any:
        text = json.dumps(value)
        return json.loads(re.sub(r'"(P\d\d[a-z])"', lambda m: json.dumps(copies.get(m.group(1), m.group(1))), text))

    table_log: list[dict[str, Any]] = []
    enter({"type": "dealt", "row": [design(p) for p in incanto.row],
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
        enter(entered)
        learn()
    return incanto_log, table_log, incanto, at_table


def stored_and_read_back(folder: Path, options: dict[str, Any], seed: int, log: list[dict[str, Any]]) -> Game:
    folder.mkdir()
    with Store(folder / "night.sqlite") as store:
        game = Night.resume_or_start(store).start_game("via_magica", PLAYERS, options, seed)
        for action in log:
            game.propose(action)
        assert Game(game.rules, store.log(1)).view() == game.view()  # read back from the night's log
        return game


@pytest.mark.parametrize("seed", range(3))
def test_a_game_of_incantos_draws_entered_as_the_tables_ends_the_same(seed: int, tmp_path: Path) -> None:
    incanto_log, table_log, incanto, at_table = played_both_ways(seed)
    assert incanto.phase == "over" and seen(at_table) == seen(incanto)
    assert sum(1 for a in table_log if a["type"] == "draw" and a.get("animus")) > 10
    assert any(a.get("revealed") for a in table_log)
    live_incanto = stored_and_read_back(tmp_path / "a", INCANTO, seed, incanto_log)
    live_table = stored_and_read_back(tmp_path / "b", TABLE, seed, table_log)
    assert seen(live_incanto.state) == seen(incanto) and seen(live_table.state) == seen(at_table)

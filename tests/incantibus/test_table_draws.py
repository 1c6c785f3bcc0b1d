"""The table's own tiles and tokens: a whole bot game drawn by Incanto is played again with every room
tile, token face and spell card entered as the table turned it, and both reach the same end and replay
to it from their stored logs."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.engine.game import rng_for
from companion.games.incantibus.casting import token_at
from companion.games.incantibus.state import State
from incantibus_helpers import RULES
from companion.games.incantibus.steps import AwaitReveal, AwaitRoom
from tests.game_helpers import AtTable, bot_states, stored_and_read_back

PLAYERS = ["Lera", "Kirill", "Katya"]


def entries_for(incanto: State, at_table: State) -> dict[str, Any] | None:
    """What a table that turned Incanto's tiles and tokens enters where it waits for them."""
    pending = at_table.pending
    if isinstance(pending, AwaitRoom):
        visible = [incanto.kinds[t] for t in incanto.slots if t not in incanto.secret]
        return {"type": "room_entered", "room": incanto.room, "visible": visible,
                "secret": len(incanto.slots) - len(visible)}
    if isinstance(pending, AwaitReveal):
        faces = {ref: incanto.cards[int(ref[1:])] if ref.startswith("c") else incanto.kinds[token_at(at_table, ref) or ref]
                 for ref in pending.refs}
        return {"type": "reveal", "kinds": faces}
    return None


def seen(state: State) -> dict[str, Any]:
    view = RULES.public_view(state)
    return {"players": view["players"], "scores": RULES.score(state), "phase": state.phase,
            "winner": view.get("winner"), "ranking": view.get("ranking")}


def played_both_ways(seed: int, expert: bool) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]],
                                                       State, State]:
    incanto = RULES.setup(PLAYERS, {"expert": expert}, rng_for(seed, 0))
    options = {"expert": expert, "deal": dict(incanto.wands)}  # the wands as dealt, entered at the start
    table = AtTable(RULES, RULES.setup(PLAYERS, {**options, "draws": "table"}, rng_for(seed, 0)), seed)
    incanto_log: list[dict[str, Any]] = []

    def follow() -> None:
        while (entry := entries_for(incanto, table.state)) is not None:
            table.enter(entry)

    follow()
    for action, after in bot_states(RULES, incanto, seed):
        incanto = after
        incanto_log.append(action)
        table.enter(action)
        follow()
    return options, incanto_log, table.log, incanto, table.state


@pytest.mark.parametrize("seed, expert", [(0, False), (1, True), (2, False)])
def test_a_game_of_incantos_draws_entered_as_the_tables_ends_the_same(seed: int, expert: bool, tmp_path: Path) -> None:
    options, incanto_log, table_log, incanto, at_table = played_both_ways(seed, expert)
    assert incanto.phase == "over" and seen(at_table) == seen(incanto)
    assert {"room_entered", "reveal"} <= {a["type"] for a in table_log}
    live_incanto = stored_and_read_back(tmp_path / "a", "incantibus", PLAYERS, {"expert": expert}, seed, incanto_log)
    live_table = stored_and_read_back(tmp_path / "b", "incantibus", PLAYERS, {**options, "draws": "table"}, seed,
                                      table_log)
    assert seen(live_incanto.state) == seen(incanto) and seen(live_table.state) == seen(at_table)

"""Bots play random legal games to the end; the table's invariants hold after every action."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.game import Game, rng_for
from companion.games.ravenskeep.catalogue import load
from companion.games.ravenskeep.state import State
from ravenskeep_helpers import RULES
from tests.game_helpers import bot_states, read_back_is_live

CAT = load()
NAMES = ["Lera", "Kirill", "Katya", "Rosa"]


def check_invariants(state: State) -> None:
    pieces = Counter(i for stack in state.spaces for i in stack)
    # Nine towers and Ravenskeep, each once; every wizard on the board or in Ravenskeep.
    assert all(pieces[t] == 1 for t in CAT.towers) and pieces["R"] == 1
    for p in state.players:
        assert pieces["@" + p.name] + p.keep == CAT.wizards
        # Bottles: full, empty and spent (back in the box) make the five; the score is the full ones.
        assert p.full + p.empty + p.spent == CAT.bottles and min(p.full, p.empty, p.spent) >= 0
        assert RULES.score(state)[p.name] == p.full
    for stack in state.spaces:
        assert "R" not in stack or stack[-1] == "R"  # nothing on Ravenskeep
    view = RULES.public_view(state)
    for space in view["spaces"]:  # nobody sees whose wizards are imprisoned
        items = space["stack"]
        top = max((i for i, it in enumerate(items) if "tower" in it), default=-1)
        assert all(it["wizard"] is None for it in items[:max(top, 0)] if "wizard" in it)
        assert sum(1 for it in items[top + 1:] if "wizard" in it) <= CAT.per_place


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 4))
def test_random_games_keep_the_invariants_and_end(seed: int, players: int) -> None:
    game = Game.start(RULES, NAMES[:players], seed=seed)
    rng = Random(seed)
    turns = 0
    while (action := RULES.random_action(game.state, rng)) is not None:
        game.propose(action)
        check_invariants(game.state)
        turns = game.state.turn
    assert game.state.over
    # The round was finished: the last turn was the one before the starting player's.
    assert (game.state.active + 1) % players == game.state.first and turns >= 1
    winners = RULES.public_view(game.state)["winner"]
    assert winners and all(p["done"] for p in RULES.public_view(game.state)["players"] if p["name"] in winners)
    best = max(p.full for p in game.state.players if p.empty == 0 and p.keep == CAT.wizards)
    assert {p.name for p in game.state.players if p.empty == 0 and p.keep == CAT.wizards and p.full == best} == set(winners)


def test_a_game_read_back_from_a_real_store_is_the_live_game(tmp_path: Path) -> None:
    read_back_is_live(tmp_path, "ravenskeep", NAMES[:3], seed=9, undo_rate=0.03)


def test_a_game_rolled_by_incanto_replays_with_the_same_faces_entered_from_the_tables_die() -> None:
    for seed in range(3):
        options = {"first": "Lera"}
        first = RULES.setup(NAMES[:3], options, rng_for(seed, 0))
        entered, last = [], first
        for action, last in bot_states(RULES, first, seed):
            if action["type"] in ("roll", "reroll"):  # the face Incanto rolled, as the table would enter it
                assert last.roll is not None
                action = {**action, "value": last.roll.last}
            entered.append(action)
        table = RULES.setup(NAMES[:3], {**options, "dice": "table"}, rng_for(seed, 0))
        for n, action in enumerate(entered, 1):
            assert RULES.check(table, action) == [], action
            table = RULES.apply(table, action, rng_for(seed + 1000, n))  # another generator: nothing is drawn
        assert RULES.public_view(table) == RULES.public_view(last) and table.over
        assert any(a["type"] == "roll" for a in entered)
    # and bots play whole games with the table's die, entering faces
    for seed in range(3):
        state = start = RULES.setup(NAMES[:2], {"dice": "table"}, rng_for(seed, 0))
        for _, state in bot_states(RULES, start, seed):
            check_invariants(state)
        assert state.over

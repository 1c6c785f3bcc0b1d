"""The night's standings count shared places: tied Ravenskeep winners, and a co-operative Grimoire
game won or lost by the whole group."""
from __future__ import annotations

import json
from random import Random

from companion.night import Night
from companion.store import Store
from ravenskeep_helpers import GOLDEN


def play_out(night: Night, game: str, players: list[str], seed: int) -> None:
    played = night.start_game(game, players, {"first": players[0]}, seed=seed)
    rng = Random(seed)
    while (action := played.rules.random_action(played.state, rng)) is not None:
        played.propose(action)


def play_script(night: Night, name: str) -> None:
    lines = [json.loads(line) for line in (GOLDEN / name).read_text().splitlines() if line.startswith("{")]
    setup, actions = lines[0], lines[1:]
    game = night.start_game(setup["game"], setup["players"], setup["options"], seed=setup["seed"])
    for action in actions:
        game.propose(action)


def test_tied_winners_each_get_a_win_and_a_group_shares_its_fate(store: Store) -> None:
    night = Night.resume_or_start(store, "Games night")
    play_script(night, "whole_game.jsonl")  # Kirill and Katya tie
    rows = {r["player"]: r for r in night.standings()}
    assert {p: (r["wins"], r["place_points"]) for p, r in rows.items()} == {"Lera": (0, 0), "Kirill": (1, 1), "Katya": (1, 1)}
    play_out(night, "grimoire", ["Lera", "Kirill", "Katya"], 0)
    assert night.current is not None and night.current.state.outcome == "won"
    rows = {r["player"]: r for r in night.standings()}
    assert {p: r["wins"] for p, r in rows.items()} == {"Lera": 1, "Kirill": 2, "Katya": 2}
    play_out(night, "grimoire", ["Lera", "Kirill"], 5)
    assert night.current is not None and night.current.state.outcome == "lost"
    rows = {r["player"]: r for r in night.standings()}
    assert {p: (r["wins"], r["games"]) for p, r in rows.items()} == {"Lera": (1, 3), "Kirill": (2, 3), "Katya": (2, 2)}
    # Reopened from the store, the night counts the same.
    assert Night.resume_or_start(store).standings() == night.standings()

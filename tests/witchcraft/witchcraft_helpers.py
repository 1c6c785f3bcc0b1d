"""Helpers for the Witchcraft tests: play a script through the engine, start from a position, walk bots."""
from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any
from collections.abc import Iterator

from companion.engine.game import Game, rng_for
from companion.games.witchcraft import RULES
from companion.games.witchcraft.state import State

__all__ = ["GOLDEN", "MARKET", "RULES", "act", "bot_states", "play", "position", "script", "start"]

GOLDEN = Path(__file__).with_name("golden")
# I01-I10 moonflower, I11-20 toadstool, I21-30 mandrake, I31-40 raven feather, I41-50 bat wing,
# I51-60 frog, I61-70 nightshade, I71-80 spider; J1-J5 jokers; S01-S10 deck spells; B01-B12 basic.
MARKET = ["I41", "I42", "I43", "I71", "J1", "I01", "I51", "I52", "I53"]


def script(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (GOLDEN / f"{name}.jsonl").read_text().splitlines() if line.strip()]


def play(lines: list[dict[str, Any]]) -> Game:
    setup, *actions = lines
    game = Game.start(RULES, setup["players"], setup.get("options", {}), setup["seed"], position=setup.get("position"))
    for action in actions:
        game.propose(action)
    return game


def start(players: list[str], **options: Any) -> State:
    return RULES.setup(players, options, rng_for(1, 0))


def position(ann: dict[str, Any] | None = None, ben: dict[str, Any] | None = None, **more: Any) -> State:
    """Ann (the Brave, 4 crystals, her two starting spells) and Ben (the Honest, 8), Ann to play."""
    described = {"turn": "Ann", "market": MARKET, "deck": ["I11", "I12", "I13", "I14", "I15", "I16"],
                 "players": {"Ann": {"witch": "brave", "crystals": 4, "spells": {"W01": [], "W02": []}, **(ann or {})},
                             "Ben": {"witch": "honest", "crystals": 8, "spells": {"W09": [], "W10": []}, **(ben or {})}},
                 **more}
    return RULES.from_position(["Ann", "Ben"], {}, described, rng_for(1, 0))


def act(state: State, *actions: dict[str, Any]) -> State:
    for n, raw in enumerate(actions):
        action = RULES.parse_action(raw)
        problems = RULES.check(state, action)
        assert problems == [], (action, problems, state.pending)
        state = RULES.apply(state, action, rng_for(7, state.turns_taken * 10 + n))
    return state


def bot_states(state: State, seed: int) -> Iterator[tuple[dict[str, Any], State]]:
    rng = Random(seed)
    for seq in range(1, 5000):
        action = RULES.random_action(state, rng)
        if action is None:
            return
        action = RULES.parse_action(action)
        assert RULES.check(state, action) == [], (action, state.pending)
        state = RULES.apply(state, action, rng_for(seed, seq))
        yield action, state
    raise AssertionError("a random game did not end in 5000 actions")

"""Helpers for the Witchcraft tests: play a script through the engine, start from a position, walk bots."""
from __future__ import annotations

from pathlib import Path
from typing import Any
from collections.abc import Iterator

from companion.engine.game import Game, rng_for
from companion.games.witchcraft import RULES
from companion.games.witchcraft.state import State
from tests import game_helpers

__all__ = ["GOLDEN", "MARKET", "RULES", "act", "bot_states", "play", "position", "script", "start"]

GOLDEN = Path(__file__).with_name("golden")
# I01-I10 moonflower, I11-20 toadstool, I21-30 mandrake, I31-40 raven feather, I41-50 bat wing,
# I51-60 frog, I61-70 nightshade, I71-80 spider; J1-J5 jokers; S01-S10 deck spells; B01-B12 basic.
MARKET = ["I41", "I42", "I43", "I71", "J1", "I01", "I51", "I52", "I53"]


def script(name: str) -> list[dict[str, Any]]:
    return game_helpers.script(GOLDEN, name)


def play(lines: list[dict[str, Any]]) -> Game:
    return game_helpers.play(RULES, lines)


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
    result: State = game_helpers.act(RULES, state, actions, lambda now, n: rng_for(7, now.turns_taken * 10 + n))
    return result


def bot_states(state: State, seed: int) -> Iterator[tuple[dict[str, Any], State]]:
    return game_helpers.bot_states(RULES, state, seed)

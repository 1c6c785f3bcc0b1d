"""Helpers for the Incantibus tests: play a script through the engine, walk a game with bots."""
from __future__ import annotations

from pathlib import Path
from typing import Any
from collections.abc import Iterator

from companion.engine.game import Game, rng_for
from companion.games.incantibus import RULES
from companion.games.incantibus.state import State
from tests import game_helpers

__all__ = ["GOLDEN", "RULES", "act", "bot_states", "cast", "claim", "give", "kinds_of", "moat_kinds", "play",
           "satchel_kinds", "script", "start", "table"]

GOLDEN = Path(__file__).with_name("golden")


def script(name: str) -> list[dict[str, Any]]:
    return game_helpers.script(GOLDEN, name)


def play(lines: list[dict[str, Any]]) -> Game:
    return game_helpers.play(RULES, lines)


def start(players: list[str], **options: Any) -> State:
    return RULES.setup(players, options, rng_for(1, 0))


def bot_states(state: State, seed: int) -> Iterator[tuple[dict[str, Any], State]]:
    return game_helpers.bot_states(RULES, state, seed)


def act(state: State, *actions: dict[str, Any]) -> State:
    """Each action checked (it must be legal) and applied, as the engine does."""
    for action in actions:
        problems = RULES.check(state, action)
        assert problems == [], (action, problems, state.pending)
        state = RULES.apply(state, action, rng_for(7, state.casting + len(state.notes)))
    return state


def table(players: dict[str, int], roof: list[str], potions: tuple[str, ...] = ("green_1", "blue_1", "red_1"),
          sorcerer: str = "lady_goblin", cards: tuple[str, ...] = ("ALKIMIA", "RETIRO", "OCULUS"),
          books: tuple[str, ...] = (), **options: Any) -> State:
    """A table-draws game laid out exactly: wands dealt as ``players`` says, the roof, faces and cards."""
    state = RULES.setup(list(players), {"draws": "table", "deal": players, "expert": bool(books), **options},
                        rng_for(1, 0))
    faces = {f"p{i}": p for i, p in enumerate(potions)} | {f"b{i}": b for i, b in enumerate(books)}
    faces |= {f"c{i}": c for i, c in enumerate(cards)} | {"s0": sorcerer}
    return act(state, {"type": "room_entered", "room": "roof", "visible": roof, "secret": 0},
               {"type": "reveal", "kinds": faces})


def give(state: State, player: str, *kinds: str) -> State:
    """``player`` already holds ``kinds`` (drawn from the box, so every token stays accounted for)."""
    state = state.copy()
    for kind in kinds:
        special = next((t for t in state.specials if state.kinds[t] == kind), None)
        if special:
            state.specials = tuple(t for t in state.specials if t != special)
            token = special
        else:
            pool = next(p for p in "JICGO" if kind in state.pools[p])
            token = state.new_token(pool, kind, False)
        state.satchels[player] = state.satchels[player] + (token,)
    return state


def cast(**targets: str | None) -> dict[str, Any]:
    return {"type": "cast", "targets": targets}


def kinds_of(state: State, player: str) -> list[str]:
    return sorted(state.kinds[t] or "?" for t in state.satchels[player])


def moat_kinds(state: State) -> list[str]:
    return [state.kinds[t] or "?" for t in state.moat]


def satchel_kinds(view: dict[str, Any], player: str) -> list[str]:
    me = next(p for p in view["players"] if p["name"] == player)
    return sorted(t["kind"] for cell in me["satchel"].values() for t in cell)


def claim(view: dict[str, Any], target: str) -> dict[str, Any]:
    return next(c for c in view["last_cast"]["claims"] if c["target"] == target)

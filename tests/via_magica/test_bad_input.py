"""Bad input at every moment of random games: whatever a tablet, a button or a script proposes, the rules
either refuse it, naming the rule and the player or the target, with nothing changed, or apply it."""
from __future__ import annotations

from random import Random
from typing import Any

from companion.games.via_magica.state import State
from tests.game_helpers import refused_cleanly_or_applied
from via_magica_helpers import RULES, start

ANIMUS = ["Air", "Water", "Earth", "Life", "Fire", "Shadow", "Wildcard", "Gold"]


def space(state: State, rng: Random) -> dict[str, Any]:
    portals = [p for ps in state.areas.values() for p in ps] + list(state.row) + ["P99a", "P01a"]
    return {"portal": rng.choice(portals), "space": rng.randrange(6)}


def proposal(state: State, rng: Random) -> dict[str, Any]:
    who = rng.choice([*state.players, "Zed"])
    kinds = {
        "keep": lambda: {"portals": rng.sample([*state.hands.get(who, ()), *state.row, "P99a"], 3)},
        "draw": lambda: {"animus": rng.choice(ANIMUS)} if rng.random() < 0.7 else {},
        "crystal": lambda: {"to": space(state, rng), **({"moved_from": space(state, rng)} if rng.random() < 0.4 else {})},
        "incantatum": lambda: {"first": who, "tie": rng.sample([*state.players, "Zed"], rng.randrange(3))},
        "effect": lambda: rng.choice([{"spaces": [space(state, rng) for _ in range(rng.randrange(4))]},
                                      {"open": space(state, rng)["portal"]},
                                      {"layout": {space(state, rng)["portal"]: [rng.randrange(6)]}}]),
        "portal": lambda: {"take": rng.choice([*state.row, "P99a", None])},
        "reward": lambda: {"claim": rng.random() < 0.5},
    }
    kind = rng.choice(list(kinds))
    fields = kinds[kind]()
    if kind not in ("draw", "incantatum"):
        fields["player"] = who
    return {"type": kind, **fields}


def test_random_proposals_are_refused_cleanly_or_applied() -> None:
    refused = applied = 0
    for seed in range(6):
        first = start(["Tom", "Paola", "Lera"][: 2 + seed % 2], draws="table" if seed % 2 else "companion")
        more_refused, more_applied = refused_cleanly_or_applied(RULES, first, seed, proposal)
        refused, applied = refused + more_refused, applied + more_applied
    assert refused > 500 and applied > 20

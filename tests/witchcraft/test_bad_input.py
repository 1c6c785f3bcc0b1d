"""Bad input at every moment of random games: whatever a tablet or a script proposes, the rules either
refuse it, naming the rule and the player or the target, with nothing changed, or apply it."""
from __future__ import annotations

from random import Random
from typing import Any

from companion.games.witchcraft.state import State
from tests.game_helpers import refused_cleanly_or_applied
from witchcraft_helpers import RULES, start

FAMILIARS = ["magpie", "raven", "goat", "owl", "cat", "dragon"]


def proposal(state: State, rng: Random) -> dict[str, Any]:
    who = rng.choice([*state.players, "Zed"])
    spaces = lambda k: [rng.randrange(9) for _ in range(k)]  # noqa: E731
    cat = lambda: {"cat": {"card": rng.randrange(9), "pay": rng.randrange(9)}} if rng.random() < 0.3 else {}  # noqa: E731
    kinds = {
        "buy": lambda: {"cards": spaces(rng.randrange(5)), "pay": spaces(rng.randrange(4)),
                        **({"familiar": rng.choice(["squirrel", "raccoon"])} if rng.random() < 0.3 else {})},
        "take_familiar": cat, "take_basic_spell": cat, "take_crystals": cat,
        "familiar_action": lambda: {"familiar": rng.choice(["magpie", "raven", "goat"]),
                                    **({"row": rng.randrange(3)} if rng.random() < 0.5 else {})},
        "hare": dict,
        "snake": lambda: {"ingredient": rng.choice(["frog", "gold", "spider"])},
        "discard": lambda: rng.choice([{"spell": rng.choice([*state.spells.get(who, ()), "S99", "B01"])},
                                       {"familiar": rng.choice(FAMILIARS)}]),
    }
    kind = rng.choice(list(kinds))
    return {"type": kind, "witch": who, **kinds[kind]()}


def test_random_proposals_are_refused_cleanly_or_applied() -> None:
    refused = applied = 0
    for seed in range(6):
        first = start(["Ann", "Ben", "Cid", "Dee"][: 2 + seed % 3])
        more_refused, more_applied = refused_cleanly_or_applied(RULES, first, seed, proposal)
        refused, applied = refused + more_refused, applied + more_applied
    assert refused > 500 and applied > 20

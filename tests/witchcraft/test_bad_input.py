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


def table_proposal(state: State, rng: Random) -> dict[str, Any]:
    """With the table's cards: cards, witches and stack tops entered at random, often ones that cannot be."""
    who = rng.choice([*state.players, "Zed"])
    cards = ["I01", "I80", "J1", "S01", "B01", "W01", "owl", "I99", *(c for c in state.market if c)]
    kind = rng.choice(["turn_up", "draw_witch", "take_familiar", "take_basic_spell", "buy"])
    if kind == "turn_up":
        return {"type": kind, "witch": who, "cards": [rng.choice(cards) for _ in range(rng.randrange(1, 4))]}
    if kind == "draw_witch":
        return {"type": kind, "witch": who, "drawn": rng.choice(["brave", "kind", "curious", "honest", "queen"])}
    if kind == "buy":
        return {"type": kind, "witch": who, "cards": [rng.randrange(9)], "pay": [rng.randrange(9)]}
    return {"type": kind, "witch": who, **({"revealed": rng.choice(cards)} if rng.random() < 0.8 else {})}


def test_random_entries_of_the_tables_cards_are_refused_cleanly_or_applied() -> None:
    refused = applied = 0
    for seed in range(4):
        first = RULES.setup(["Ann", "Ben", "Cid"][: 2 + seed % 2], {"draws": "table"}, Random(seed))
        more_refused, more_applied = refused_cleanly_or_applied(RULES, first, seed, table_proposal)
        refused, applied = refused + more_refused, applied + more_applied
    assert refused > 300 and applied > 5

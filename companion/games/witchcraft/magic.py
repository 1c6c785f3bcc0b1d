"""Magic: cast spells, familiars (1 each, the Owl 3), the Hare's casts and the witches' starting magic."""
from __future__ import annotations

from companion.games.witchcraft.cards import card, load
from companion.games.witchcraft.state import State


def breakdown(state: State, witch: str) -> dict[str, int]:
    box = load()
    return {"spells": sum(card(s).magic for s in state.cast[witch]),
            "hare": state.hare_casts[witch] * box.familiars["hare"].cast_magic,
            "familiars": sum(box.familiars[f].magic for f in state.familiars[witch]),
            "witch": box.witches[drawn].magic if (drawn := state.witches.get(witch)) else 0}  # none before it is drawn


def magic(state: State, witch: str) -> int:
    return sum(breakdown(state, witch).values())


def scores(state: State) -> dict[str, int]:
    return {p: magic(state, p) for p in state.players}


def ranking(state: State) -> list[str]:
    """The witch who reached 20 first, then the others by magic (seat order breaks ties)."""
    others = sorted((p for p in state.players if p != state.winner), key=lambda p: -magic(state, p))
    return [state.winner, *others] if state.winner else others

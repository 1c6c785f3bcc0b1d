"""Bots: a random legal action for the active player (demo, property tests, bench).

They draw a card from the deck's make-up in the data file and play it; among the pieces it can move
they take a wizard into Ravenskeep first, then a tower that imprisons while they have an empty
bottle, then a move that frees one of their own wizards, else any. So every game reaches its end.
"""
from __future__ import annotations

from random import Random

from companion.engine.actions import Proposal
from companion.engine.views import JsonObject
from companion.games.ravenskeep import board
from companion.games.ravenskeep.catalogue import load
from companion.games.ravenskeep.state import RAVENSKEEP, State, owner, wizard


def random_action(state: State, rng: Random) -> Proposal | None:
    if state.over:
        return None
    me = state.current.name
    if state.roll is not None:
        if state.roll.rerolls_left and state.roll.last < 3 and rng.random() < 0.7:
            return {"type": "reroll", "player": me, **_face(state, rng)}
        return {"type": "play", "player": me, **best(state, state.roll.moves, state.roll.last, rng)}
    if (spell := _spell(state, rng)) is not None:
        return spell
    if state.forwent or state.cards_played >= load().cards_per_turn:
        return {"type": "end_turn", "player": me}
    if state.cards_played == 0 and rng.random() < 0.05:
        return {"type": "forgo", "player": me, **best(state, "tower", 1, rng)}
    card = rng.choice(load().deck)
    if card.dice is not None:
        return {"type": "roll", "player": me, "moves": card.moves, "dice": card.dice, **_face(state, rng)}
    steps = card.steps or 0
    return {"type": "play", "player": me, "card": {"moves": card.moves, "steps": steps}, **best(state, card.moves, steps, rng)}


def _face(state: State, rng: Random) -> JsonObject:
    """With the table's die a bot rolls it as a player would and enters the face; with Incanto's, nothing."""
    return {"value": rng.choice(load().die)} if state.table_dice else {}


def _spell(state: State, rng: Random) -> Proposal | None:
    if state.spell_cast or rng.random() > 0.15:
        return None
    able = [s for s in load().spells.values() if s.cost <= state.current.full]
    if not able:
        return None
    spell = rng.choice(able)
    steps = rng.choice(spell.steps)
    choice = best(state, spell.moves, steps, rng)
    return {"type": "spell", "player": state.current.name, "spell": spell.id, "steps": steps, **choice} if choice else None


def best(state: State, moves: str, steps: int, rng: Random) -> JsonObject:
    me = state.current.name
    options = board.pieces(state, me, moves, steps)
    if not options:
        return {}
    choice = max(options, key=lambda o: (_worth(state, me, o, steps), rng.random()))
    if "tower" in choice and _buries_only_mine(state, me, str(choice["tower"]), steps):
        return {**choice, "fill": False}  # a player may decline the bottle: a bot will not profit from its own
    return choice


def _buries_only_mine(state: State, me: str, tower: str, steps: int) -> bool:
    space = state.where(tower)
    assert space is not None
    caught = [owner(w) for w in board.visible(state.spaces[board.ahead(state, space, steps)])]
    return bool(caught) and set(caught) == {me}


def _worth(state: State, me: str, option: JsonObject, steps: int) -> int:
    wiz, tower = option.get("wizard"), str(option.get("tower"))  # a piece as board.pieces offers it
    if isinstance(wiz, int):
        return 3 if RAVENSKEEP in state.spaces[board.ahead(state, wiz, steps)] else 0
    space = state.where(tower)
    assert space is not None
    stack = state.spaces[space]
    caught = [owner(w) for w in board.visible(state.spaces[board.ahead(state, space, steps)])]
    if me in caught:
        return -1  # never bury one's own wizard
    if caught and state.current.empty:
        return 2  # a bottle to fill
    return 1 if wizard(me) in board.visible(stack[:stack.index(tower)]) else 0  # frees one of mine

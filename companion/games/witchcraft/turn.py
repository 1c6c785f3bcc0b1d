"""Whose turn it is and what the table waits for: a witch reaching 20 magic ends the game at once;
a third familiar, the Snake's ingredient and the Raven's buy are settled before the turn goes on; a
fourth spell is discarded at the end of the turn; with two witches the market shifts every round."""
from __future__ import annotations

from random import Random

from companion.games.witchcraft.cards import load
from companion.games.witchcraft.magic import magic
from companion.games.witchcraft.market import needs_turn_up, refill, two_player_shift
from companion.games.witchcraft.state import State


def reached_goal(state: State) -> str | None:
    goal = load().goal
    ahead = [p for p in state.players if magic(state, p) >= goal]
    if not ahead:
        return None
    return state.witch if state.witch in ahead else ahead[0]


def stalled(state: State) -> bool:
    """No card can come into play any more: deck, discards, cast ingredients, market and basic spells
    are all gone (every ingredient sits in an inventory). The rulebook has no end for this (a gap)."""
    return not (state.deck or state.discard or state.aside or state.basic or any(state.market))


def settle(state: State, rng: Random) -> None:
    box, witch = load(), state.witch
    if None in state.market and (state.deck or state.discard or state.aside):
        refill(state, rng)  # spaces left empty when the cards ran out fill as soon as there are cards again
    if len(state.familiars[witch]) > box.max_familiars:
        state.pending = ("discard_familiar", witch)  # a maximum of 2: the third is given up before counting
    elif (winner := reached_goal(state)) is not None:
        state.winner, state.pending = winner, ("over",)
        state.note(event="won", player=winner, magic=magic(state, winner))
    elif stalled(state):
        state.winner = max(state.players, key=lambda p: magic(state, p))
        state.pending = ("over",)
        state.note(event="stalled", player=state.winner, magic=magic(state, state.winner))
    elif needs_turn_up(state):
        state.pending = ("turn_up", witch)  # the table's deck: the empty spaces wait for the cards it turns up
    elif chooser := next((p for p in state.players if "snake" in state.familiars[p] and p not in state.snake), None):
        state.pending = ("snake", chooser)
    elif state.raven:
        state.pending = ("raven_buy", witch)
    elif state.actions_left > 0:
        state.pending = ("turn", witch)
    elif len(state.spells[witch]) > box.max_spells:
        state.pending = ("discard_spell", witch)
    else:
        end_turn(state, rng)


def end_turn(state: State, rng: Random) -> None:
    state.turns_taken += 1
    if len(state.players) == 2 and state.turns_taken % 2 == 0:
        two_player_shift(state, rng)
    state.turn = (state.turn + 1) % len(state.players)
    state.actions_left = 1
    state.pending = ("turn_up", state.witch) if needs_turn_up(state) else ("turn", state.witch)


def give_crystals(state: State, witch: str, count: int) -> None:
    """From the supply; when it is empty, from the witch with the most crystals (the first of them
    clockwise from the taker when several have as many)."""
    from_supply = min(count, state.supply)
    state.supply -= from_supply
    state.crystals[witch] += from_supply
    for _ in range(count - from_supply):
        n = len(state.players)
        others = [state.players[(state.players.index(witch) + i) % n] for i in range(1, n)]
        richest = max(others, key=lambda p: state.crystals[p])
        if state.crystals[richest] == 0:
            return
        state.crystals[richest] -= 1
        state.crystals[witch] += 1

"""A player's turn: concentration (refresh), the monster phase, the actions, then regeneration.

The companion runs the concentration and monster phases itself when a turn begins, so the table
taps once to end a turn and sees the marker move. Regeneration (hand back to six) is done with the
cards; with tracked hands the companion lays down the element cards named and draws (or asks the
table for) the rest. It checks the six-madness rule as the turn ends.
"""
from __future__ import annotations

from random import Random

from companion.games.grimoire import hands, madness, ritual_marker
from companion.games.grimoire.state import State


def begin(state: State) -> None:
    player = state.current
    state.turn += 1
    state.note(event="turn", player=player.name, turn=state.turn)
    if player.exhausted:
        state.note(event="refreshed", player=player.name, spells=sorted(player.exhausted))
    player.exhausted = frozenset()
    ritual_marker.monster_phase(state)


def end(state: State, discard: list[str] | None = None, rng: Random | None = None) -> None:
    state.notes = ()
    player = state.current
    hands.regenerate(state, player, discard, rng or Random(0))
    if madness.falls_out(state, player):
        player.out = True
        state.note(event="out", player=player.name, madness=player.madness_hand)
    if all(p.out for p in state.players):
        madness.lose(state, "every player has fallen to madness")
    if state.outcome is not None:
        return
    state.active = next_seat(state)
    begin(state)


def next_seat(state: State) -> int:
    n = len(state.players)
    return next(s for k in range(1, n + 1) if not state.players[(s := (state.active + k) % n)].out)

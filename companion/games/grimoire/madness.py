"""Madness: the pile counted by the number of players, the cards in each hand, curing, falling out.

A madness card a player must take goes straight into their hand (interpretation: the rulebook says
players hold madness cards in hand and may not discard them, not where a new one goes). Drawing one
from an empty pile loses the game at once (rulebook).
"""
from __future__ import annotations

from companion.errors import Problem
from companion.games.grimoire import hands, moves
from companion.games.grimoire.catalogue import Effect, load
from companion.games.grimoire.state import Player, State


def take(state: State, player: Player, n: int, why: str) -> None:
    """``player`` takes ``n`` madness cards, one at a time; one too many for the pile loses the game."""
    taken = 0
    for _ in range(n):
        if state.outcome is not None:
            break
        if state.madness_pile == 0:
            lose(state, f"{player.name} must take a madness card but the madness pile is empty")
            break
        state.madness_pile -= 1
        player.madness_hand += 1
        taken += 1
    if taken:
        state.note(event="madness", player=player.name, n=taken, why=why)


def cure(state: State, player: Player, zone: str, n: int = 1) -> int:
    """Up to ``n`` madness cards from ``player``'s hand or support zone back onto the pile; how many."""
    have = player.madness_hand if zone == "hand" else player.madness_support
    cured = min(n, have)
    if zone == "hand":
        player.madness_hand -= cured
    else:
        player.madness_support -= cured
    state.madness_pile += cured
    return cured


def apply_effect(state: State, effect: Effect, why: str) -> None:
    """A printed effect: madness or curing, for the active player or each player still in the game."""
    for kind, what in effect.items():
        targets = [state.current] if what.who == "active" else [p for p in state.players if not p.out]
        for player in targets:
            if kind == "madness":
                take(state, player, what.n, why)
            elif (cured := cure(state, player, "hand", what.n)):
                state.note(event="cured", player=player.name, n=cured, why=why)


def falls_out(state: State, player: Player) -> bool:
    """At the end of their turn: six madness cards in hand (more can stay: they may not be discarded)."""
    return player.madness_hand >= load().madness_out


def lose(state: State, why: str) -> None:
    if state.outcome is None:
        state.outcome, state.why = "lost", why
        state.note(event="lost", why=why)


def check_cure(state: State, action: moves.Cure) -> list[Problem]:
    player = str(action.player)
    owner, zone = action.owner or player, action.zone
    seat = state.seat(owner)
    if seat is None:
        return [Problem("cure-owner", f"{player} cures a madness card of {owner!r}, who is not playing", player, str(owner))]
    if zone == "hand" and owner != player:
        return [Problem("cure-owner", f"{player} can cure a madness card from their own hand or from a support zone, "
                        f"not from {owner}'s hand", player, str(owner))]
    who = state.players[seat]
    have = who.madness_hand if zone == "hand" else who.madness_support
    if have == 0:
        place = "hand" if zone == "hand" else "support zone"
        return [Problem("cure-none", f"{player} finds no madness card in {owner}'s {place}", player, str(owner))]
    return hands.check_cure_pay(state, player, action.pay)


def apply_cure(state: State, action: moves.Cure) -> None:
    player = str(action.player)
    owner, zone = str(action.owner or player), str(action.zone)
    cure(state, state.player(owner), zone)
    paid = hands.spend_any(state, player, action.pay, load().cure_cost)
    state.note(event="cured", player=owner, by=player, zone=zone, n=1, paid=load().cure_cost,
               **({"cards": paid} if state.tracked else {}))

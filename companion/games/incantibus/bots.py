"""Bots: a random legal action for whatever the table is waiting for (demo, property tests, bench).

They choose straight from the state rather than from ``legal_actions`` (which builds the display's
JSON), so a whole random game stays cheap. Bots always point at something when they can, so every
casting takes at least one token and a game always ends.
"""
from __future__ import annotations

from collections import Counter
from random import Random
from typing import assert_never

from companion.engine.actions import Proposal
from companion.games.incantibus import spells
from companion.games.incantibus.casting import targets_for
from companion.games.incantibus.satchel import discards_that_make_room
from companion.games.incantibus.state import State
from companion.games.incantibus.steps import (AwaitCast, AwaitReveal, AwaitRoom, AwaitSatchel, AwaitSpell, AwaitWandDown,
                                              GameOver)
from companion.games.incantibus.table import pool_of
from companion.games.incantibus.tokens import ROOM, SECRET, VISIBLE, load
from companion.games.incantibus.tower import unknown


def random_action(state: State, rng: Random) -> Proposal | None:
    match state.pending:
        case AwaitCast():
            return _cast(state, rng)
        case AwaitSpell(player=player):
            return _spell(state, player, rng)
        case AwaitSatchel(player=player, token=token):
            return _satchel(state, player, token, rng)
        case AwaitWandDown(players=players):
            return {"type": "wand_down", "player": players[0]}
        case AwaitReveal(refs=refs):
            return _reveal(state, refs, rng)
        case AwaitRoom():
            return _room_entered(state, rng)
        case GameOver():
            return None
        case _:
            assert_never(state.pending)


def _cast(state: State, rng: Random) -> Proposal:
    targets: dict[str, str | None] = {}
    for player in state.players:
        options = targets_for(state, player)
        targets[player] = rng.choice(options) if options else None
    return {"type": "cast", "targets": targets}


def _spell(state: State, player: str, rng: Random) -> Proposal:
    cards = [c for c in state.cards if c is not None]  # every open card is known when a spell is awaited
    working = [c for c in cards if spells.why_not(state, player, c) is None]
    card = rng.choice(working or cards)
    if card in spells.PICKS and card in working:
        return {"type": "spell", "player": player, "card": card, "choice": rng.choice(spells.choices(state, player, card))}
    return {"type": "spell", "player": player, "card": card}


def _satchel(state: State, player: str, token: str, rng: Random) -> Proposal:
    options: list[object] = ["discard_new", *({"discard": t} for t in discards_that_make_room(state, player, token))]
    return {"type": "satchel", "player": player, "choice": rng.choice(options)}


def _reveal(state: State, waiting: tuple[str, ...], rng: Random) -> Proposal:
    """As if the table turned the tokens over: faces drawn from what is still unseen."""
    faces: dict[str, str] = {}
    left: dict[str, Counter[str]] = {}
    for ref in waiting:
        pool = pool_of(state, ref)
        bag = left.setdefault(pool, Counter(state.pools[pool]))
        kind = rng.choice(sorted(bag.elements()))
        bag[kind] -= 1
        faces[ref] = kind
    return {"type": "reveal", "kinds": faces}


def _room_entered(state: State, rng: Random) -> Proposal:
    room = state.room or rng.choice(state.pools[ROOM])
    tile = load().rooms[room]
    bag = list(state.pools[VISIBLE])
    rng.shuffle(bag)
    secret = min(tile.secret, len(state.pools[SECRET]) - unknown(state, SECRET))
    return {"type": "room_entered", "room": room if len(bag) >= tile.visible and secret == tile.secret else None,
            "visible": bag[:tile.visible], "secret": secret}

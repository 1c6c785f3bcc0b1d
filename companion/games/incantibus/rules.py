"""Incantibus behind the engine's ``Rules`` hooks: parse and check every action, then apply it to a copy.

Actions (every one is documented in docs/incantibus.md):
``cast``, ``spell``, ``satchel``, ``wand_down``, and with table draws ``room_entered`` and ``reveal``.
"""
from __future__ import annotations

from random import Random
from collections.abc import Sequence

from companion.engine.dispatch import DispatchRules, Handler, Hooks, on, without_rng
from companion.errors import Problem
from companion.games.incantibus import bots, casting, scoring, setup, spells, table, tower, view
from companion.games.incantibus.actions import (ACTIONS, Cast, IncantibusAction, RoomEntered, Reveal, Satchel, Spell,
                                                WandDown)
from companion.games.incantibus.position import from_position
from companion.games.incantibus.satchel import discards_that_make_room, put, take_out
from companion.games.incantibus.state import State, remove_one
from companion.games.incantibus.steps import AwaitCast, AwaitSatchel, AwaitSpell, AwaitWandDown

PENDING_WORDS = {"cast": "a casting", "spell": "a spell card choice", "satchel": "a full satchel's choice",
                 "reveal": "faces to be entered", "room_entered": "the room to be laid out",
                 "wand_down": "wands put on the table", "over": "nothing: the game is over"}


def _check_cast(state: State, action: Cast) -> list[Problem]:
    if not isinstance(state.pending, AwaitCast):
        return [_waiting(state, action)]
    return casting.check(state, action)


def _apply_cast(state: State, action: Cast, rng: Random) -> None:
    casting.resolve(state, action.targets, action.pay)


def _check_satchel(state: State, action: Satchel) -> list[Problem]:
    player, choice, pending = action.player, action.choice, state.pending
    if not (isinstance(pending, AwaitSatchel) and pending.player == player):
        return [_waiting(state, action)]
    token = pending.token
    if choice == "discard_new":
        return []
    if choice.discard in discards_that_make_room(state, player, token):
        return []
    return [Problem("satchel-full", f"{choice.as_json()!r} does not make room for the {state.kinds[token]} in {player}'s "
                    "satchel: choose 'discard_new' or {'discard': a token whose cell it frees}", player, choice.discard)]


def _apply_satchel(state: State, action: Satchel, rng: Random) -> None:
    pending = state.pending
    assert isinstance(pending, AwaitSatchel), "checked: a satchel's choice is awaited"
    player, token = pending.player, pending.token
    state.held = remove_one(state.held, token)
    choice = action.choice
    if choice == "discard_new":
        state.moat = state.moat + (token,)
        state.note(event="discarded", player=player, token=token, kind=state.kinds[token])
        return
    take_out(state, player, (choice.discard,))
    state.moat = state.moat + (choice.discard,)
    put(state, player, token)
    state.note(event="discarded", player=player, token=choice.discard, kind=state.kinds[choice.discard])


def _check_wand_down(state: State, action: WandDown) -> list[Problem]:
    player = action.player
    pending = state.pending
    if not (isinstance(pending, AwaitWandDown) and player in pending.players):
        return [Problem("wand-down", f"{player!r} may put their wand on the table only when they can do nothing "
                        "useful after a casting in the dungeon with no face-down sorcerer left", _s(player))]
    return []


def _apply_wand_down(state: State, action: WandDown, rng: Random) -> None:
    state.wands_down = state.wands_down + (action.player,)
    state.note(event="wand_down", player=action.player)


def _waiting(state: State, action: Cast | Satchel) -> Problem:
    who = action.player if isinstance(action, Satchel) else None
    return Problem("pending", f"a {action.type!r} action cannot be taken now: Incantibus is waiting for "
                   f"{PENDING_WORDS[state.pending.kind]}{_whose(state)}", _s(who))


def _whose(state: State) -> str:
    pending = state.pending
    return f" from {pending.player}" if isinstance(pending, (AwaitSpell, AwaitSatchel)) else ""


def _s(value: object) -> str | None:
    return None if value is None else value if isinstance(value, str) else repr(value)


HANDLERS: tuple[Handler[State], ...] = (
    on(Cast, _check_cast, _apply_cast), on(Spell, spells.check, spells.apply),
    on(Satchel, _check_satchel, _apply_satchel), on(WandDown, _check_wand_down, _apply_wand_down),
    on(RoomEntered, table.check_room, without_rng(table.apply_room)),
    on(Reveal, table.check_reveal, without_rng(table.apply_reveal)))


class IncantibusRules(DispatchRules[State, IncantibusAction]):
    name, title, called = "incantibus", "Incantibus", "Incantibus"  # called: how a message names it
    player_counts: Sequence[int] = (2, 3, 4)
    actions, handlers = ACTIONS, HANDLERS
    hooks = Hooks(setup=setup.setup, from_position=from_position, legal_actions=view.legal_actions,
                  random_action=bots.random_action, score=scoring.scores, ranking=scoring.ranking,
                  public_view=view.public_view, is_over=lambda state: state.phase == "over")

    def settle(self, state: State, action: IncantibusAction, rng: Random) -> None:
        tower.run(state, rng)  # the steps an action queued resolve until one waits for the table


RULES = IncantibusRules()

"""Receiving a token: taking it from its place, paying for it, catching it, and fitting it in the satchel.

Each function is one step of the casting's queue. A step that needs something the table has not
entered yet (a secret token's face, a full satchel's choice) puts itself back or leaves a pending
prompt, and the queue stops until the table answers.
"""
from __future__ import annotations

from companion.games.incantibus import dungeon, monsters
from companion.games.incantibus.casting import price, token_at
from companion.games.incantibus.satchel import fits_one_more, put, take_out
from companion.games.incantibus.state import State
from companion.games.incantibus.steps import AwaitReveal, AwaitSatchel, Gain, Spell, Step, Store, Win
from companion.games.incantibus.tokens import load


def push(state: State, *steps: Step) -> None:
    state.queue = steps + state.queue


def to_moat(state: State, *tokens: str) -> None:
    state.moat = state.moat + tokens


def win(state: State, step: Win) -> bool:
    """The winner of ``ref`` receives what is there."""
    player, ref, strength, pay = step.player, step.ref, step.strength, step.pay
    token = token_at(state, ref)
    assert token is not None, f"{ref!r} emptied before it was received"
    kind = state.kinds[token]
    if kind is None:  # the table has not entered this secret token or sorcerer yet: ask for every one at once
        push(state, step)
        state.pending = AwaitReveal(tuple(s.ref for s in state.queue if isinstance(s, Win) and _unseen(state, s.ref)))
        return False
    _clear_place(state, ref)
    state.reveal(token)
    if load().kinds[kind].category in ("potion", "book", "sorcerer"):
        _pay_for(state, player, token, pay if pay is not None else price(state, player, kind, strength))
    else:
        push(state, Gain(player, token, "cast"))
    return True


def _pay_for(state: State, player: str, token: str, paid: tuple[str, ...] | None) -> None:
    """What a potion, book or sorcerer needs goes to the moat, and it goes to the satchel."""
    kind = state.kinds[token] or ""
    if paid is None:  # only a sorcerer turned face up just now can lack its price
        to_moat(state, token)
        state.note(event="escaped", player=player, token=token, kind=kind,
                   why=f"{player} lacks {dungeon.describe_needs(kind)}")
        return
    take_out(state, player, paid)
    to_moat(state, *paid)
    event = {"potion": "brewed", "book": "learned", "sorcerer": "defeated"}[load().kinds[kind].category]
    state.note(event=event, player=player, token=token, kind=kind, paid=[state.kinds[t] for t in paid])
    push(state, Store(player, token))


def _unseen(state: State, ref: str) -> bool:
    token = token_at(state, ref)
    return token is not None and state.kinds[token] is None


def _clear_place(state: State, ref: str) -> None:
    field = {"r": "slots", "p": "potions", "b": "books", "s": "sorcerers"}[ref[0]]
    spaces = list(getattr(state, field))
    spaces[int(ref[1:])] = None
    setattr(state, field, tuple(spaces))


def gain(state: State, step: Gain) -> bool:
    """A token arrives; monsters need catching, spells a card. RETIRO takes a monster from the moat even
    without its weapon, so it is not caught again."""
    player, token, source = step.player, step.token, step.source
    kind = load().kinds[state.kinds[token] or ""]
    if kind.category == "monster" and source != "RETIRO":
        if not _catch(state, player, token, kind.name):
            return True
    else:
        state.note(event="received", player=player, token=token, kind=kind.name)
    if kind.category == "spell":
        if source == "cast":
            state.spell_takers = state.spell_takers + (player,)
        else:  # RETIRO, OCULUS or IMPERIUM found a spell token: one more spell, right away
            push(state, Spell(player))
    push(state, Store(player, token))
    return True


def _catch(state: State, player: str, token: str, monster: str) -> bool:
    """Catch ``monster`` (Ultimus is used up), or let it escape to the moat; True when caught."""
    catcher = monsters.catcher(state, player, monster)
    if catcher is None:
        to_moat(state, token)
        state.note(event="escaped", player=player, token=token, kind=monster,
                   why=f"{player} has no {monsters.weapon_for(monster).replace('_', ' ')} and no Ultimus")
        return False
    if state.kinds[catcher] == monsters.ULTIMUS:
        take_out(state, player, (catcher,))
        to_moat(state, catcher)
    state.note(event="caught", player=player, token=token, kind=monster, by=state.kinds[catcher])
    return True


def store(state: State, step: Store) -> bool:
    """Into the satchel, or ask what to do when it does not fit."""
    player, token = step.player, step.token
    if fits_one_more(state, player, token):
        put(state, player, token)
        return True
    state.held = state.held + (token,)
    state.pending = AwaitSatchel(player, token)
    return False

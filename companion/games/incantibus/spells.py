"""Spells: a spell token's taker casts one of the open spell cards once the casting's tokens are taken.

Choices name what the card acts on: ALKIMIA ``{"from": player, "token": id}``, RETIRO ``{"token": id
in the moat}``, IMPERIUM and OCULUS ``{"token": room slot}``; the others need none. A card whose effect
cannot work may still be chosen (the rulebook says its effect 'does not work'): it is used up and the
companion says why nothing happened.
"""
from __future__ import annotations

from random import Random

from companion.engine.views import JsonObject
from companion.errors import Problem
from companion.games.incantibus import actions, monsters, receiving
from companion.games.incantibus.casting import token_at
from companion.games.incantibus.satchel import put, take_out
from companion.games.incantibus.state import State, remove_one
from companion.games.incantibus.steps import AwaitReveal, AwaitSpell, Effect, Gain, Spell, Store
from companion.games.incantibus.tokens import CARD, load

STEALABLE = ("ingredient", "weapon", "gold")
STEALABLE_SPECIALS = ("ultimus", "philosophers_stone", "gold_coins_3")
GIFTS = {"LOCUS": "satchel", "ULTIMUS": "ultimus", "PHILOSOPHIA": "philosophers_stone", "FORTUNA": "gold_coins_3"}
PICKS = ("ALKIMIA", "RETIRO", "IMPERIUM", "OCULUS")


def await_choice(state: State, step: Spell) -> bool:
    """Wait for the player's card (first for the table to enter new cards)."""
    unseen = tuple(f"c{i}" for i, c in enumerate(state.cards) if c is None)
    if unseen:
        receiving.push(state, step)
        state.pending = AwaitReveal(unseen)
        return False
    if not state.cards:
        state.note(event="spell_lost", player=step.player, why="no spell card is left to cast")
        return True
    state.pending = AwaitSpell(step.player)
    return False


def choices(state: State, player: str, card: str) -> list[JsonObject]:
    """What ``card`` may act on for ``player``; empty for cards that need no choice."""
    if card == "ALKIMIA":
        return [{"from": q, "token": t} for q in state.players if q != player for t in state.satchels[q]
                if _stealable(state, t)]
    if card == "RETIRO":
        return [{"token": t} for t in state.moat]
    if card == "IMPERIUM":
        return [{"token": f"r{i}"} for i, t in enumerate(state.slots) if t is not None and t not in state.secret]
    if card == "OCULUS":
        return [{"token": f"r{i}"} for i, t in enumerate(state.slots) if t is not None and t in state.secret]
    return []


def why_not(state: State, player: str, card: str) -> str | None:
    """Why ``card`` would do nothing now, or None when it works."""
    if card in GIFTS:
        gift = GIFTS[card]
        return None if _special(state, gift) else f"no {gift.replace('_', ' ')} token is left in the special area"
    if choices(state, player, card):
        return None
    return {"ALKIMIA": "no other player has an ingredient, weapon, gold, Ultimus or Philosopher's Stone",
            "RETIRO": "the moat is empty", "IMPERIUM": "no visible token is left in the room",
            "OCULUS": "no secret token is left in the room"}[card]


def check(state: State, action: actions.Spell) -> list[Problem]:
    player, card, choice = action.player, action.card, action.choice
    if state.pending != AwaitSpell(player):
        return [Problem("pending", f"it is not {_s(player)}'s turn to cast a spell", _s(player))]
    caster = player
    if not isinstance(card, str) or card not in state.cards:
        return [Problem("spell-card", f"{card!r} is not one of the open spell cards {list(state.cards)!r}",
                        caster, _s(card))]
    chosen = None if choice is None else choice.as_json()  # compared as the table wrote it
    if card in PICKS and why_not(state, caster, card) is None and chosen not in choices(state, caster, card):
        return [Problem(f"spell-{card.lower()}", f"{chosen!r} is not something {card} can take for {caster}",
                        caster, card)]
    return []


def apply(state: State, action: actions.Spell, rng: Random) -> None:
    player, card, choice = action.player, action.card, action.choice
    i = state.cards.index(card)
    new = _open_card(state, rng)
    state.cards = state.cards[:i] + ((new,) if new != "" else ()) + state.cards[i + 1:]
    state.cards_used = state.cards_used + (card,)
    receiving.push(state, Effect(player, card, choice))


def _open_card(state: State, rng: Random) -> str | None:
    """The next card from the stack: its name, None while the table has not entered it, '' if none is left."""
    deck = state.pools[CARD]
    if len(deck) - state.cards.count(None) <= 0:
        return ""
    if state.table_draws:
        return None
    card = deck[rng.randrange(len(deck))]
    state.pools[CARD] = remove_one(deck, card)
    return card


def effect(state: State, step: Effect) -> bool:
    """What the card does."""
    player, card, choice = step.player, step.card, step.choice
    why = why_not(state, player, card)
    if why is not None:
        state.note(event="spell_failed", player=player, card=card, why=why)
        return True
    state.note(event="spell", player=player, card=card)
    if card in GIFTS:
        _give(state, player, _special(state, GIFTS[card]) or "")
        return True
    # A card that picks and works was checked to name one of its ``choices``: never None here.
    assert choice is not None, f"{card} was cast with no choice"
    return EFFECTS[card](state, step, choice)


def _give(state: State, player: str, token: str) -> None:
    state.specials = remove_one(state.specials, token)
    if state.kinds[token] == "satchel":  # the token is itself a new purse cell, so it always fits
        put(state, player, token)
    else:
        receiving.push(state, Store(player, token))


def _alkimia(state: State, step: Effect, choice: actions.SpellChoice) -> bool:
    victim, token = choice.from_ or "", choice.token
    take_out(state, victim, (token,))
    state.note(event="stolen", player=step.player, victim=victim, token=token, kind=state.kinds[token])
    receiving.push(state, Gain(step.player, token, "ALKIMIA"))
    return True


def _retiro(state: State, step: Effect, choice: actions.SpellChoice) -> bool:
    token = choice.token
    if state.kinds[token] is None:
        return _wait_for_face(state, step, token)
    state.moat = remove_one(state.moat, token)
    state.reveal(token)
    receiving.push(state, Gain(step.player, token, "RETIRO"))
    return True


def _imperium(state: State, step: Effect, choice: actions.SpellChoice) -> bool:
    token = token_at(state, choice.token) or ""
    _clear_slot(state, choice.token)
    receiving.push(state, Gain(step.player, token, "IMPERIUM"))
    return True


def _oculus(state: State, step: Effect, choice: actions.SpellChoice) -> bool:
    player, ref = step.player, choice.token
    token = token_at(state, ref) or ""
    kind = state.kinds[token]
    if kind is None:
        return _wait_for_face(state, step, ref)
    if load().kinds[kind].category == "monster" and monsters.catcher(state, player, kind) is None:
        state.note(event="looked", player=player, token=ref, why=f"a monster {player} cannot catch: put back face down")
        return True
    _clear_slot(state, ref)
    state.reveal(token)
    receiving.push(state, Gain(player, token, "OCULUS"))
    return True


def _wait_for_face(state: State, step: Effect, ref: str) -> bool:
    state.notes = state.notes[:-1]  # the spell note comes again once the face is entered
    receiving.push(state, step)
    state.pending = AwaitReveal((ref,))
    return False


def _clear_slot(state: State, ref: str) -> None:
    i = int(ref[1:])
    state.slots = state.slots[:i] + (None,) + state.slots[i + 1:]


def _special(state: State, kind: str) -> str | None:
    return next((t for t in state.specials if state.kinds[t] == kind), None)


def _stealable(state: State, token: str) -> bool:
    kind = load().kinds[state.kinds[token] or ""]
    return kind.category in STEALABLE or kind.name in STEALABLE_SPECIALS


def _s(value: object) -> str:
    return value if isinstance(value, str) else repr(value)


EFFECTS = {"ALKIMIA": _alkimia, "RETIRO": _retiro, "IMPERIUM": _imperium, "OCULUS": _oculus}

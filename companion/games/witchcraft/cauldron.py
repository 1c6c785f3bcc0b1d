"""Spells and their ingredients: assigning what fits, a joker (or the Snake's ingredient) for any
ingredient, casting the moment the last ingredient is assigned."""
from __future__ import annotations

from collections import Counter

from companion.games.witchcraft.cards import INGREDIENT, JOKER, SPELL, card, load
from companion.games.witchcraft.state import State


def is_joker(state: State, witch: str, cid: str) -> bool:
    c = card(cid)
    snake = "snake" in state.familiars[witch] and state.snake.get(witch) == c.kind
    return c.category == JOKER or (c.category == INGREDIENT and snake)


def missing(state: State, witch: str, spell: str) -> Counter[str]:
    """What ``spell`` still needs, by ingredient, before jokers are counted."""
    real = [card(c).kind or "" for c in state.assigned[spell] if not is_joker(state, witch, c)]
    return Counter(card(spell).recipe) - Counter(real)


def still_needed(state: State, witch: str, spell: str) -> int:
    jokers = sum(is_joker(state, witch, c) for c in state.assigned[spell])
    return sum(missing(state, witch, spell).values()) - jokers


def fits(state: State, witch: str, spell: str, cid: str) -> bool:
    if still_needed(state, witch, spell) <= 0:
        return False
    return is_joker(state, witch, cid) or missing(state, witch, spell)[card(cid).kind or ""] > 0


def assign(state: State, witch: str, cid: str, to: str | None = None) -> str | None:
    """A new ingredient goes to the spell the witch chose (``to``) if it fits there, else to the fitting
    spell closest to being cast, else to the inventory; returns the spell it went to."""
    spells = [s for s in state.spells[witch] if fits(state, witch, s, cid)]
    if not spells:
        state.inventory[witch] = state.inventory[witch] + (cid,)
        return None
    spell = to if to in spells else min(spells, key=lambda s: still_needed(state, witch, s))
    state.assigned[spell] = state.assigned[spell] + (cid,)
    if still_needed(state, witch, spell) == 0:
        cast(state, witch, spell)
    return spell


def cast(state: State, witch: str, spell: str) -> None:
    state.spells[witch] = tuple(s for s in state.spells[witch] if s != spell)
    state.aside = state.aside + state.assigned.pop(spell)
    state.cast[witch] = state.cast[witch] + (spell,)
    state.note(event="cast", player=witch, spell=spell, magic=card(spell).magic)


def gain(state: State, witch: str, cid: str, to: str | None = None) -> str | None:
    """A card taken (bought, drawn or dealt): a spell goes in front of the witch and takes what fits
    from her inventory; an ingredient or joker is assigned at once (returns the spell it went to)."""
    if card(cid).category != SPELL:
        return assign(state, witch, cid, to)
    state.spells[witch] = state.spells[witch] + (cid,)
    state.assigned[cid] = ()
    waiting, state.inventory[witch] = state.inventory[witch], ()
    for held in waiting:
        if cid in state.spells[witch] and fits(state, witch, cid, held):
            state.assigned[cid] = state.assigned[cid] + (held,)
            if still_needed(state, witch, cid) == 0:
                cast(state, witch, cid)
        else:
            state.inventory[witch] = state.inventory[witch] + (held,)
    return None


def reassign_inventory(state: State, witch: str) -> None:
    """After the Snake is chosen, inventory cards it turned into jokers go to the spells they now fit."""
    waiting, state.inventory[witch] = state.inventory[witch], ()
    for held in waiting:
        assign(state, witch, held)


def discard_spell(state: State, witch: str, spell: str) -> None:
    state.spells[witch] = tuple(s for s in state.spells[witch] if s != spell)
    state.discard = state.discard + (spell,) + state.assigned.pop(spell)
    state.note(event="spell_discarded", player=witch, spell=spell)


def hare_cards(state: State, witch: str) -> list[str] | None:
    """Inventory cards that cast the Hare's spell (real ingredients first, then jokers), or None."""
    need = Counter(load().familiars["hare"].recipe)
    chosen: list[str] = []
    for cid in state.inventory[witch]:
        kind = card(cid).kind or ""
        if not is_joker(state, witch, cid) and need[kind] > 0:
            need[kind] -= 1
            chosen.append(cid)
    jokers = [c for c in state.inventory[witch] if is_joker(state, witch, c)]
    short = sum(need.values())
    return chosen + jokers[:short] if len(jokers) >= short else None

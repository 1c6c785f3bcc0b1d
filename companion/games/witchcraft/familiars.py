"""Familiars: taking one (at most two kept), their actions (the Magpie, the Raven, the Goat), the
Hare's spell cast at any time, and the Snake's ingredient."""
from __future__ import annotations

from random import Random

from companion.errors import Problem
from companion.games.witchcraft import actions
from companion.games.witchcraft import market
from companion.games.witchcraft.cards import load
from companion.games.witchcraft.cauldron import hare_cards, reassign_inventory
from companion.games.witchcraft.state import State
from companion.games.witchcraft.turn import give_crystals

MAGPIE_CRYSTALS = 6


def check_action(state: State, action: actions.FamiliarAction) -> list[Problem]:
    witch, familiar, row = action.witch, action.familiar, action.row
    if familiar not in state.familiars[witch]:
        return [Problem("familiar", f"{witch} has no {familiar} to act", witch, familiar)]
    if familiar == "goat" and witch in state.goat_used:
        return [Problem("goat", f"{witch}'s Goat is turned sideways: used once already", witch, familiar)]
    if (familiar == "raven") != (row is not None):
        return [Problem("raven", "the Raven names the market row (0 top, 2 bottom) put under the deck; the "
                        "others take no row", witch, familiar)]
    return []


def act(state: State, witch: str, familiar: str, row: int | None, rng: Random) -> None:
    if familiar == "magpie":
        give_crystals(state, witch, MAGPIE_CRYSTALS)
    elif familiar == "goat":
        # Turning the Goat spends no action of its own: the action it took is given back, and one more.
        state.goat_used = state.goat_used | {witch}
        state.actions_left += 2
    elif row is not None:
        under = [c for s in market.row_spaces(row) if (c := state.market[s]) is not None]
        state.deck = state.deck + tuple(under)
        if state.table_draws:
            state.under += len(under)  # turned up only once the rest of the real deck is gone
        state.market = tuple(None if s in market.row_spaces(row) else c for s, c in enumerate(state.market))
        market.refill(state, rng)
        state.raven = True
    state.note(event="familiar_action", player=witch, familiar=familiar)


def take(state: State, witch: str, revealed: str | None = None) -> None:
    """The top familiar: Incanto's, or the one the table's stack showed (``revealed``)."""
    top = revealed or state.familiar_stack[0]
    state.familiar_stack = tuple(f for f in state.familiar_stack if f != top)
    state.familiars[witch] = state.familiars[witch] + (top,)
    state.note(event="familiar", player=witch, familiar=top)


def discardable(state: State, witch: str) -> tuple[str, ...]:
    """The familiars a witch who took a third may give up: only those she already had in front of her,
    never the one just taken (``take`` puts it last)."""
    return state.familiars[witch][:-1]


def check_discard(state: State, witch: str, familiar: str | None) -> list[Problem]:
    mine = discardable(state, witch)
    if familiar in mine:
        return []
    just = state.familiars[witch][-1:]
    taken = f" {witch} keeps the {familiar} just taken;" if just and familiar == just[0] else ""
    return [Problem("familiars", f"If you take a third familiar, you must discard one of the familiars you already "
                    f"have in front of you:{taken} discard one of {', '.join(mine)}", witch, familiar)]


def check_hare(state: State, witch: str) -> list[Problem]:
    if "hare" not in state.familiars[witch]:
        return [Problem("hare", f"{witch} has no Hare", witch, "hare")]
    if state.pending == ("discard_familiar", witch):
        return [Problem("familiars", f"{witch} keeps 2 familiars: one is discarded first", witch, "hare")]
    if hare_cards(state, witch) is None:
        need = " + ".join(load().familiars["hare"].recipe)
        return [Problem("hare", f"the Hare's spell needs {need} from {witch}'s inventory", witch, "hare")]
    return []


def cast_hare(state: State, witch: str) -> None:
    cards = hare_cards(state, witch) or []
    state.inventory[witch] = tuple(c for c in state.inventory[witch] if c not in cards)
    state.aside = state.aside + tuple(cards)
    state.hare_casts[witch] += 1
    state.note(event="hare", player=witch, magic=load().familiars["hare"].cast_magic)


def check_snake(state: State, witch: str, ingredient: str) -> list[Problem]:
    if ingredient not in load().ingredients:
        return [Problem("snake", f"the Snake's ingredient is one of {', '.join(load().ingredients)}", witch, ingredient)]
    return []


def choose_snake(state: State, witch: str, ingredient: str) -> None:
    state.snake[witch] = ingredient
    state.note(event="snake", player=witch, ingredient=ingredient)
    reassign_inventory(state, witch)

"""Setting up: the deck and the 3×3 market, the basic spells and familiars, a witch for each player
with her two starting spells, 4 crystals and her starting benefit, and who starts."""
from __future__ import annotations

from random import Random
from typing import Any
from collections.abc import Mapping, Sequence

from companion.errors import MalformedAction
from companion.games.witchcraft import market, table
from companion.games.witchcraft.cards import INGREDIENT, JOKER, SPELL, card, load
from companion.games.witchcraft.cauldron import gain
from companion.games.witchcraft.state import State
from companion.games.witchcraft.turn import give_crystals, settle

OPTIONS = {"witches": "{player: witch}: the witches as drawn or chosen at the table (default: drawn at random)",
           "first": "who starts when nobody is the Brave: the last to have cast a spell (default: the first player)",
           "draws": "'table' (the group's own cards, shuffled and turned up at the table; each card is entered) or "
                    "'companion' (Incanto shuffles and deals; the default, so games stored before the option replay "
                    "as they were)"}
DRAWS = ("table", "companion")


def check_options(players: Sequence[str], options: Mapping[str, Any]) -> None:
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise MalformedAction(f"unknown Witchcraft option {unknown[0]!r}; options are {', '.join(OPTIONS)}")
    witches = options.get("witches")
    if witches is not None and (not isinstance(witches, dict) or sorted(witches) != sorted(players)
                                or len(set(witches.values())) != len(players) or set(witches.values()) - set(load().witches)):
        raise MalformedAction(f"option 'witches' gives each of {list(players)} a different witch of "
                              f"{', '.join(load().witches)}, not {witches!r}")
    if "first" in options and options["first"] not in players:
        raise MalformedAction(f"option 'first' names a player of {list(players)}, not {options['first']!r}")
    if options.get("draws", "companion") not in DRAWS:
        raise MalformedAction(f"option 'draws' is 'table' or 'companion', not {options['draws']!r}")


def empty(players: Sequence[str], witches: dict[str, str]) -> State:
    box = load()
    return State(
        players=tuple(players), witches=witches, deck=(), discard=(), aside=(), market=(None,) * 9, on_market=(0,) * 9,
        basic=(), familiar_stack=(), familiar_discard=(), supply=box.crystals, crystals={p: 0 for p in players},
        spells={p: () for p in players}, assigned={}, inventory={p: () for p in players},
        familiars={p: () for p in players}, cast={p: () for p in players}, hare_casts={p: 0 for p in players},
        snake={}, goat_used=frozenset(), turn=0, actions_left=1, raven=False, turns_taken=0, pending=("turn", players[0]),
        winner=None, notes=())


def setup(players: Sequence[str], options: Mapping[str, Any], rng: Random) -> State:
    check_options(players, options)
    if options.get("draws") == "table":
        return table_setup(players, options)
    box = load()
    names = list(box.witches)
    rng.shuffle(names)
    state = empty(players, dict(options.get("witches") or zip(players, names)))
    state.deck, state.basic, state.familiar_stack = _shuffled(box.deck, rng), _shuffled(box.basic, rng), \
        _shuffled(tuple(box.familiars), rng)
    market.refill(state, rng)
    for p in players:
        give_crystals(state, p, box.each)
        for spell in box.starting[state.witches[p]]:
            gain(state, p, spell)
    for p in players:
        benefit(state, p, rng)
    brave = [p for p in players if state.witches[p] == "brave"]
    state.turn = list(players).index(brave[0] if brave else options.get("first", players[0]))
    state.notes = ()
    settle(state, rng)
    return state


def table_setup(players: Sequence[str], options: Mapping[str, Any]) -> State:
    """The group's own cards: the stacks hold what is in the box, in no known order; the table turns up
    the market, draws the witches (unless the option says them) and the starting benefits, each entered."""
    box = load()
    state = empty(players, dict(options.get("witches") or {}))
    state.table_draws, state.dealing = True, True
    state.deck, state.basic, state.familiar_stack = box.deck, box.basic, tuple(box.familiars)
    state.turn = list(players).index(options.get("first", players[0]))
    if state.witches:
        table.witches_known(state)
    table.deal_next(state)
    return state


def _shuffled(items: tuple[str, ...], rng: Random) -> tuple[str, ...]:
    out = list(items)
    rng.shuffle(out)
    return tuple(out)


def benefit(state: State, player: str, rng: Random) -> None:
    """The witch's starting benefit (the Brave's and the Unyielding's magic are counted by magic.py)."""
    witch = load().witches[state.witches[player]]
    if witch.benefit == "ingredients":
        for _ in range(witch.count):
            _draw_until(state, player, (INGREDIENT, JOKER), rng)
    elif witch.benefit == "spell":
        _draw_until(state, player, (SPELL,), rng)
    elif witch.benefit == "crystals":
        give_crystals(state, player, witch.count)
    elif witch.benefit == "familiar" and state.familiar_stack:
        top, state.familiar_stack = state.familiar_stack[0], state.familiar_stack[1:]
        state.familiars[player] = state.familiars[player] + (top,)


def _draw_until(state: State, player: str, categories: tuple[str, ...], rng: Random) -> None:
    """Cards drawn on the way are discarded (they come back when the deck is reshuffled)."""
    while state.deck:
        top, state.deck = state.deck[0], state.deck[1:]
        if card(top).category in categories:
            gain(state, player, top)
            return
        state.discard = state.discard + (top,)

"""Bots: a random legal action for whatever the table is waiting for (demo, property tests, bench).

A bot mostly buys (cards it can pay for, in a line of the market), sometimes takes crystals, a
familiar or a basic spell, or uses a familiar, so every game reaches 20 magic.
"""
from __future__ import annotations

from random import Random

from companion.engine.actions import Proposal
from companion.games.witchcraft import market, table
from companion.games.witchcraft.buying import check_shape, due
from companion.games.witchcraft.cards import SPELL, card, load
from companion.games.witchcraft.cauldron import missing, still_needed
from companion.games.witchcraft.familiars import check_hare, discardable
from companion.games.witchcraft.state import State

Action = Proposal
LINES = [[r * 3 + c for c in cols] for r in range(3) for cols in ([0], [1], [2], [0, 1], [1, 2], [0, 1, 2])] + \
        [[r * 3 + c for r in rows] for c in range(3) for rows in ([0, 1], [1, 2], [0, 1, 2])]


def random_action(state: State, rng: Random) -> Action | None:
    kind = state.pending[0]
    if kind == "over":
        return None
    witch = state.pending[1]
    if not check_hare(state, witch):
        return {"type": "hare", "witch": witch}
    return CHOOSERS[kind](state, witch, rng)


def _wanted(state: State, witch: str) -> tuple[set[str], bool]:
    """The ingredients her spells still miss, and whether a joker would help (worked out once per choice)."""
    open_spells = [sp for sp in state.spells[witch] if still_needed(state, witch, sp) > 0]
    kinds = {k for sp in open_spells for k, n in missing(state, witch, sp).items() if n > 0}
    return kinds, bool(open_spells)


def _buy(state: State, witch: str, rng: Random, familiar: str | None = None) -> Action | None:
    kinds, joker = _wanted(state, witch)

    def useful(line: list[int]) -> int:  # a spell helps most, then an ingredient (or joker) she needs
        cards = [card(c) for s in line if (c := state.market[s]) is not None]
        return sum(2 if c.category == SPELL else int(c.kind in kinds if c.kind else joker) for c in cards)

    options = [line for line in LINES if not check_shape(state, witch, line, familiar)]
    rng.shuffle(options)
    options.sort(key=lambda line: -useful(line))
    for line in options:
        owed = due(state, line, familiar == "raccoon")
        others = [s for s in market.SPACES if s not in line and state.market[s] is not None]
        if owed <= state.crystals[witch]:
            pay = [rng.choice(others) for _ in range(owed)] if others else []
            bought: Action = {"type": "buy", "witch": witch, "cards": line, "pay": pay}
            return {**bought, "familiar": familiar} if familiar else bought
    return None


def _turn(state: State, witch: str, rng: Random) -> Action:
    mine = state.familiars[witch]
    roll = rng.random()
    if roll < 0.08 and state.familiar_stack:
        return {"type": "take_familiar", "witch": witch, **_top(state, state.familiar_stack, rng)}
    if (roll < 0.14 or len(state.inventory[witch]) > 4 * len(state.spells[witch]) + 2) and state.basic:
        return {"type": "take_basic_spell", "witch": witch, **_top(state, state.basic, rng)}
    if roll < 0.2 and mine:
        familiar = rng.choice(mine)
        if familiar in ("magpie", "raven") or (familiar == "goat" and witch not in state.goat_used):
            return {"type": "familiar_action", "witch": witch, "familiar": familiar,
                    **({"row": rng.randrange(3)} if familiar == "raven" else {})}
        if familiar in ("squirrel", "raccoon") and (action := _buy(state, witch, rng, familiar)):
            return action
    return _buy(state, witch, rng) or {"type": "take_crystals", "witch": witch}


def _raven_buy(state: State, witch: str, rng: Random) -> Action:
    return _buy(state, witch, rng) or {"type": "buy", "witch": witch, "cards": []}


def _discard_spell(state: State, witch: str, rng: Random) -> Action:
    return {"type": "discard", "witch": witch, "spell": rng.choice(state.spells[witch])}


def _discard_familiar(state: State, witch: str, rng: Random) -> Action:
    return {"type": "discard", "witch": witch, "familiar": rng.choice(discardable(state, witch))}


def _snake(state: State, witch: str, rng: Random) -> Action:
    return {"type": "snake", "witch": witch, "ingredient": rng.choice(load().ingredients)}


def _top(state: State, stack: tuple[str, ...], rng: Random) -> Action:
    """With the table's stacks a bot names what lay on top, as a player would; with Incanto's, nothing."""
    return {"revealed": rng.choice(stack)} if state.table_draws else {}


def _turn_up(state: State, witch: str, rng: Random) -> Action:
    """The table's deck: a bot turns up a card for every empty space, as the real deck would."""
    trial, cards = state.copy(), []
    for _ in table.gaps(state):
        if not (pool := table.possible(trial)):
            break
        cards.append(rng.choice(pool))
        table.lay_out(trial, cards[-1:])
    return {"type": "turn_up", "witch": witch, "cards": cards}


def _draw_witch(state: State, witch: str, rng: Random) -> Action:
    free = [w for w in load().witches if w not in state.witches.values()]
    return {"type": "draw_witch", "witch": witch, "drawn": rng.choice(free)}


def _benefit(state: State, witch: str, rng: Random) -> Action:
    """Cards turned over until the one the witch's benefit wants (the Kind: the familiar on top)."""
    benefit = load().witches[state.witches[witch]].benefit
    if benefit == "familiar":
        return {"type": "turn_up", "witch": witch, "cards": [rng.choice(state.familiar_stack)]}
    deck, cards = list(state.deck), []
    while deck:
        cards.append(deck.pop(rng.randrange(len(deck))))
        if card(cards[-1]).category in table.WANTED[benefit]:
            break
    return {"type": "turn_up", "witch": witch, "cards": cards}


CHOOSERS = {"turn": _turn, "raven_buy": _raven_buy, "discard_spell": _discard_spell,
            "discard_familiar": _discard_familiar, "snake": _snake, "turn_up": _turn_up, "witch": _draw_witch,
            "benefit": _benefit}

"""Witchcraft: Moonlight Magic behind the engine's ``Rules`` hooks: parse and check every action,
then apply it to a copy.

Actions (each documented in docs/witchcraft.md): ``buy``, ``take_familiar``, ``take_basic_spell``,
``take_crystals``, ``familiar_action``, ``hare``, ``snake`` and ``discard``; with the table's cards also
``turn_up`` and ``draw_witch``.
"""
from __future__ import annotations

from random import Random
from collections.abc import Sequence

from companion.engine.dispatch import DispatchRules, Handler, Hooks, on
from companion.errors import Problem
from companion.games.witchcraft import bots, buying, familiars, magic, setup, table, view
from companion.games.witchcraft.actions import (ACTIONS, Buy, Discard, DrawWitch, FamiliarAction, Hare, Snake, Take,
                                                TakeBasicSpell, TakeCrystals, TakeFamiliar, TurnUp, WitchcraftAction)
from companion.games.witchcraft.cards import load
from companion.games.witchcraft.cauldron import discard_spell, gain
from companion.games.witchcraft.position import from_position
from companion.games.witchcraft.state import State
from companion.games.witchcraft.turn import give_crystals, reached_goal, settle

MAIN = ("buy", "take_familiar", "take_basic_spell", "take_crystals", "familiar_action")
WAITING = {"turn": "an action", "raven_buy": "the Raven's buy", "discard_spell": "a spell to discard (3 at most)",
           "discard_familiar": "a familiar to discard (2 at most)", "snake": "the Snake's ingredient",
           "turn_up": "the cards the table turns up for the market", "witch": "the witch drawn",
           "benefit": "the cards turned over for a starting benefit", "over": "nothing: the game is over"}
CRYSTALS_TAKEN = {"take_crystals": 2, "take_familiar": 1, "take_basic_spell": 1}


def _waiting(state: State, action: WitchcraftAction) -> Problem:
    whose = f" from {state.pending[1]}" if len(state.pending) > 1 else ""
    return Problem("pending", f"a {action.type!r} action cannot be taken now: Witchcraft is waiting for "
                   f"{WAITING[state.pending[0]]}{whose}", action.witch)


def _mine(state: State, action: WitchcraftAction, *kinds: str) -> list[Problem]:
    witch = action.witch
    if witch not in state.players:
        return [Problem("player", f"{witch!r} is not at this table ({', '.join(state.players)})", witch)]
    if state.pending[0] not in kinds:
        return [_waiting(state, action)]
    if state.pending[1] != witch:
        return [Problem("turn", f"it is {state.pending[1]}'s turn, not {witch}'s", witch)]
    return []


def _check_buy(state: State, action: Buy) -> list[Problem]:
    return _mine(state, action, "turn", "raven_buy") or buying.check(state, action)


def _apply_buy(state: State, action: Buy, rng: Random) -> None:
    if state.raven:
        state.raven = False
    else:
        state.actions_left -= 1
    if action.cards:
        owed = buying.due(state, action.cards, action.familiar == "raccoon")
        buying.buy(state, action.witch, action.cards, action.pay, rng, owed, action.assign)


def _check_take(state: State, action: Take) -> list[Problem]:
    problems = _mine(state, action, "turn")
    if problems:
        return problems
    witch, kind = action.witch, action.type
    if kind == "take_familiar" and not state.familiar_stack:
        problems.append(Problem("familiar", "the familiar stack is empty", witch, "familiars"))
    if kind == "take_basic_spell" and not state.basic:
        problems.append(Problem("basic-spell", "the basic-spell stack is empty", witch, "basic spells"))
    revealed = None if isinstance(action, TakeCrystals) else action.revealed
    if not problems and not isinstance(action, TakeCrystals):
        problems += table.check_top(state, witch, kind, revealed)
    if action.cat is not None and not problems:
        after = state.copy()
        give_crystals(after, witch, CRYSTALS_TAKEN[kind])
        top = revealed or (state.familiar_stack[0] if kind == "take_familiar" else None)
        cat = "cat" in state.familiars[witch] or (kind == "take_familiar" and top == "cat")
        problems += buying.check_cat(state, witch, action.cat, after.crystals[witch], cat)
    return problems


def _apply_take(state: State, action: Take, rng: Random) -> None:
    witch, kind = action.witch, action.type
    state.actions_left -= 1
    revealed = None if isinstance(action, TakeCrystals) else action.revealed
    if kind == "take_familiar":
        familiars.take(state, witch, revealed)
    elif kind == "take_basic_spell":
        top = revealed or state.basic[0]
        state.basic = tuple(b for b in state.basic if b != top)
        state.note(event="basic_spell", player=witch, spell=top)
        gain(state, witch, top)
    give_crystals(state, witch, CRYSTALS_TAKEN[kind])
    if kind == "take_crystals":
        state.note(event="crystals", player=witch, crystals=2)
    if (cat := action.cat) is not None:
        buying.buy(state, witch, [cat.card], [] if cat.pay is None else [cat.pay], rng, buying.due(state, [cat.card], False))


def _check_familiar_action(state: State, action: FamiliarAction) -> list[Problem]:
    return _mine(state, action, "turn") or familiars.check_action(state, action)


def _apply_familiar_action(state: State, action: FamiliarAction, rng: Random) -> None:
    state.actions_left -= 1
    familiars.act(state, action.witch, action.familiar, action.row, rng)


def _check_hare(state: State, action: Hare) -> list[Problem]:
    witch = action.witch
    if witch not in state.players:
        return [Problem("player", f"{witch!r} is not at this table", witch)]
    return familiars.check_hare(state, witch)


def _apply_hare(state: State, action: Hare, rng: Random) -> None:
    """Cast at any time: whatever the table waited for, it still does, unless the Hare's magic wins."""
    familiars.cast_hare(state, action.witch)
    if (winner := reached_goal(state)) is not None:
        state.winner, state.pending = winner, ("over",)
        state.note(event="won", player=winner, magic=magic.magic(state, winner))


def _check_snake(state: State, action: Snake) -> list[Problem]:
    return _mine(state, action, "snake") or familiars.check_snake(state, action.witch, action.ingredient)


def _apply_snake(state: State, action: Snake, rng: Random) -> None:
    familiars.choose_snake(state, action.witch, action.ingredient)


def _check_discard(state: State, action: Discard) -> list[Problem]:
    problems = _mine(state, action, "discard_spell", "discard_familiar")
    if problems:
        return problems
    witch = action.witch
    if state.pending[0] == "discard_spell":
        if action.spell not in state.spells[witch] or action.familiar is not None:
            return [Problem("spells", f"{witch} has {len(state.spells[witch])} spells and keeps "
                            f"{load().max_spells}: discard one of {', '.join(state.spells[witch])}", witch,
                            action.spell or action.familiar)]
        return []
    if action.spell is not None:
        return [Problem("familiars", f"{witch} keeps {load().max_familiars} familiars: discard one of "
                        f"{', '.join(familiars.discardable(state, witch))}, not a spell", witch, action.spell)]
    return familiars.check_discard(state, witch, action.familiar)


def _apply_discard(state: State, action: Discard, rng: Random) -> None:
    witch = action.witch
    if action.spell is not None:
        discard_spell(state, witch, action.spell)
        return
    familiar = action.familiar or ""  # the check made sure it is one of the witch's familiars
    mine = list(state.familiars[witch])
    mine.remove(familiar)
    state.familiars[witch] = tuple(mine)
    state.familiar_discard = state.familiar_discard + (familiar,)
    state.note(event="familiar_discarded", player=witch, familiar=familiar)


def _check_turn_up(state: State, action: TurnUp) -> list[Problem]:
    problems = _mine(state, action, "turn_up", "benefit")
    if problems:
        return problems
    if state.pending[0] == "benefit":
        return table.check_benefit(state, action.witch, action.cards)
    return table.check_market(state, action.witch, action.cards)


def _apply_turn_up(state: State, action: TurnUp, rng: Random) -> None:
    if state.pending[0] == "benefit":
        table.draw_benefit(state, action.cards)
    else:
        table.lay_out(state, action.cards)


def _check_draw_witch(state: State, action: DrawWitch) -> list[Problem]:
    return _mine(state, action, "witch") or table.check_witch(state, action.witch, action.drawn)


def _apply_draw_witch(state: State, action: DrawWitch, rng: Random) -> None:
    state.witches[action.witch] = action.drawn
    state.note(event="witch_drawn", player=action.witch, witch=action.drawn)
    if len(state.witches) == len(state.players):
        table.witches_known(state)


HANDLERS: tuple[Handler[State], ...] = (
    on(Buy, _check_buy, _apply_buy), on(TakeFamiliar, _check_take, _apply_take),
    on(TakeBasicSpell, _check_take, _apply_take), on(TakeCrystals, _check_take, _apply_take),
    on(FamiliarAction, _check_familiar_action, _apply_familiar_action), on(Hare, _check_hare, _apply_hare),
    on(Snake, _check_snake, _apply_snake), on(Discard, _check_discard, _apply_discard),
    on(TurnUp, _check_turn_up, _apply_turn_up), on(DrawWitch, _check_draw_witch, _apply_draw_witch))


class WitchcraftRules(DispatchRules[State, WitchcraftAction]):
    name, title, called = "witchcraft", "Witchcraft: Moonlight Magic", "Witchcraft"  # called: how a message names it
    player_counts: Sequence[int] = load().player_counts
    actions, handlers = ACTIONS, HANDLERS
    hooks = Hooks(setup=setup.setup, from_position=from_position, legal_actions=view.legal_actions,
                  random_action=bots.random_action, score=magic.scores, ranking=magic.ranking,
                  public_view=view.public_view, is_over=lambda state: state.winner is not None)

    def precondition(self, state: State, action: WitchcraftAction) -> list[Problem]:
        return [_waiting(state, action)] if state.winner is not None else []  # nothing is taken after a win

    def settle(self, state: State, action: WitchcraftAction, rng: Random) -> None:
        if state.dealing and table.deal_next(state):
            return  # the table is still laying out its own cards
        if not isinstance(action, Hare):  # the Hare is cast at any time: the table still waits for what it waited for
            settle(state, rng)


RULES = WitchcraftRules()

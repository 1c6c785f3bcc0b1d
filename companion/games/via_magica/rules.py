"""Via Magica behind the engine's ``Rules`` hooks: parse and check every action, then apply it to a copy.

Actions (each documented in docs/via-magica.md): ``keep``, ``draw``, ``crystal``, ``incantatum``,
``effect``, ``portal`` and ``reward``.
"""
from __future__ import annotations

from random import Random
from collections.abc import Sequence

from companion.engine.dispatch import DispatchRules, Handler, Hooks, on, without_rng
from companion.errors import Problem
from companion.games.via_magica import bag, bots, crystallize, effects, incantatum, opening, scoring, setup, view
from companion.games.via_magica.actions import (ACTIONS, Claim, Crystal, Dealt, Draw, Effect, Incantatum, Keep, Take,
                                                ViaMagicaAction)
from companion.games.via_magica.crystallize import openers
from companion.games.via_magica.position import from_position
from companion.games.via_magica.portals import load
from companion.games.via_magica.rewards import claimable
from companion.games.via_magica.state import State
from companion.games.via_magica.steps import CHOICES, AwaitCrystals, AwaitDraw, SelectPortal

WAITING = {"dealt": "the deal as laid out at the table",
           "keep": "players to keep three of their dealt portals", "draw": "the Catcher to draw an Animus",
           "crystallize": "crystals for the token drawn", "effect": "a yellow portal's effect",
           "select": "a new portal from the central row", "rewards": "a number-of-portals reward to be claimed "
           "or let pass", "over": "nothing: the game is over"}


def _waiting(state: State, action: ViaMagicaAction) -> Problem:
    who = _who(action) or state.catcher_name  # the Catcher draws
    pending = state.pending
    whose = f" from {pending.player}" if isinstance(pending, CHOICES) else ""
    return Problem("pending", f"a {action.type!r} action cannot be taken now: Via Magica is waiting for "
                   f"{WAITING[pending.kind]}{whose}", who, action.type)


def _who(action: ViaMagicaAction) -> str | None:
    """The player an action names, if any."""
    if isinstance(action, Incantatum):
        return action.first
    return None if isinstance(action, Draw | Dealt) else action.player


def _check_draw(state: State, action: Draw) -> list[Problem]:
    if isinstance(state.pending, AwaitCrystals) and openers(state):
        return [Problem("incantatum", f"{', '.join(openers(state))} opened a portal: INCANTATUM! comes before the "
                        "next draw", state.catcher_name)]
    if not isinstance(state.pending, (AwaitDraw, AwaitCrystals)):
        return [_waiting(state, action)]
    return bag.check_draw(state, action.animus)


def _apply_draw(state: State, action: Draw, rng: Random) -> None:
    if state.token is not None:
        bag.end_turn(state)
    state.notes = ()
    bag.draw(state, action.animus, rng)
    state.pending = AwaitCrystals()


def _check_crystal(state: State, action: Crystal) -> list[Problem]:
    # A slower player may still place for this token while the openers of the turn play theirs.
    late = state.order and isinstance(state.pending, CHOICES)
    if not isinstance(state.pending, AwaitCrystals) and not late:
        return [_waiting(state, action)]
    return crystallize.check(state, action)


def _check_incantatum(state: State, action: Incantatum) -> list[Problem]:
    if not isinstance(state.pending, AwaitCrystals):
        return [_waiting(state, action)]
    return incantatum.check(state, action)


def _apply_incantatum(state: State, action: Incantatum, rng: Random) -> None:
    order = incantatum.order(state, action.first)
    state.note(event="incantatum", order=list(order), tie=list(action.tie))
    opening.queue_openings(state, order)
    opening.run(state)


def _mine(state: State, action: Effect | Take | Claim, kind: str) -> list[Problem]:
    pending = state.pending
    if not isinstance(pending, CHOICES) or pending.kind != kind:
        return [_waiting(state, action)]
    if action.player != pending.player:
        return [Problem("turn", f"it is {pending.player}'s {WAITING[kind]}, not {action.player}'s",
                        action.player)]
    return []


def _check_effect(state: State, action: Effect) -> list[Problem]:
    return _mine(state, action, "effect") or effects.check(state, action)


def _apply_effect(state: State, action: Effect, rng: Random) -> None:
    effects.apply(state, action)
    opening.run(state)


def _check_take(state: State, action: Take) -> list[Problem]:
    problems = _mine(state, action, "select")
    if problems:
        return problems
    player, take = action.player, action.take
    if take not in opening.selectable(state, player):
        why = "the 2-copies rule: that portal is already in play for them" if take in state.row else \
            f"the central row holds {', '.join(state.row)}"
        return [Problem("select", f"{player} takes a portal from the central row that they may play ({why})",
                        player, take)]
    return _check_revealed(state, action)


def _check_revealed(state: State, action: Take) -> list[Problem]:
    revealed = action.revealed
    if not state.table_portals:
        return [] if revealed is None else [Problem("companion-portals", "Incanto deals the portals in this game: "
                                                    "nothing is turned up at the table", action.player, revealed)]
    if revealed is not None and setup.unseen_copy(state, revealed) is None:
        return [Problem("revealed", f"portal {revealed!r} cannot be turned up: both copies are already seen (or "
                        "no such design)", action.player, revealed)]
    return []


def _apply_take(state: State, action: Take, rng: Random) -> None:
    pending = state.pending
    assert isinstance(pending, SelectPortal), "checked: a portal from the row is awaited"
    opening.take(state, action.player, action.take, pending.picks, action.revealed)
    opening.run(state)


def _check_claim(state: State, action: Claim) -> list[Problem]:
    return _mine(state, action, "rewards")


def _apply_claim(state: State, action: Claim, rng: Random) -> None:
    player = action.player
    reward = claimable(state, player) or ""
    if action.claim:
        state.rewards[reward] = player
        state.note(event="reward", player=player, reward=reward, points=load().rewards[reward].points)
    else:
        state.note(event="reward_passed", player=player, reward=reward)
    opening.run(state)


def _apply_crystal(state: State, action: Crystal, rng: Random) -> None:
    crystallize.apply(state, action)
    player = action.player
    if state.order and crystallize.full_portals(state, player):
        incantatum.join_late(state, player)


HANDLERS: tuple[Handler[State], ...] = (
    on(Keep, setup.check_keep, without_rng(setup.apply_keep)), on(Draw, _check_draw, _apply_draw),
    on(Crystal, _check_crystal, _apply_crystal), on(Incantatum, _check_incantatum, _apply_incantatum),
    on(Effect, _check_effect, _apply_effect), on(Take, _check_take, _apply_take), on(Claim, _check_claim, _apply_claim),
    on(Dealt, setup.check_dealt, without_rng(setup.apply_dealt)))


class ViaMagicaRules(DispatchRules[State, ViaMagicaAction]):
    name, title, called = "via_magica", "Via Magica", "Via Magica"  # called: how a message names it
    player_counts: Sequence[int] = load().player_counts
    actions, handlers = ACTIONS, HANDLERS
    hooks = Hooks(setup=setup.setup, from_position=from_position, legal_actions=view.legal_actions,
                  random_action=bots.random_action, score=scoring.scores, ranking=scoring.ranking,
                  public_view=view.public_view, is_over=lambda state: state.phase == "over")

    def precondition(self, state: State, action: ViaMagicaAction) -> list[Problem]:
        return [_waiting(state, action)] if state.phase == "over" else []  # nothing is taken after the end


RULES = ViaMagicaRules()

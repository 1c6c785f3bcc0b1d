"""Open the portals: the six steps of each opening, in INCANTATUM! order, chained openings first.

Each opening is queued as steps: ``open`` (crystals back to the stockpile), ``effect`` (a yellow
portal's instant effect), ``achieve`` (to the achievements area), ``select`` (a new portal from the
central row, which is then replenished) and ``rewards``. A portal opened by an effect is queued in
front, so it runs all six steps before the portal that opened it goes on. Steps that need a choice
wait in ``pending`` for the player's action; the others run at once.
"""
from __future__ import annotations

from typing import assert_never

from companion.games.via_magica import bag, rewards
from companion.games.via_magica.crystallize import full_portals
from companion.games.via_magica.portals import PortalEffect, load
from companion.games.via_magica.state import State, remove_one
from companion.games.via_magica.steps import (Achieve, AwaitDraw, ChooseEffect, Choice, ClaimReward, GameOver, OpenPortal,
                                              SelectPortal, Step)

CHOICE_EFFECTS = ("place_indicated", "place_any", "rearrange", "open_another")


def queue_openings(state: State, order: tuple[str, ...]) -> None:
    state.order = order
    state.queue = tuple(OpenPortal(p, portal) for p in order for portal in full_portals(state, p))


def push_front(state: State, *steps: Step) -> None:
    state.queue = steps + state.queue


def run(state: State) -> None:
    """Resolve steps until one needs a choice; at the end of the queue the turn ends."""
    while state.queue:
        step, state.queue = state.queue[0], state.queue[1:]
        waiting = resolve(state, step)
        if waiting is not None:
            state.pending = waiting
            return
    finish_turn(state)


def resolve(state: State, step: Step) -> Choice | None:
    """One step: None when it ran, or the step itself when it waits for its player's choice."""
    match step:
        case OpenPortal():
            _open(state, step)
            return None
        case Achieve():
            _achieve(state, step)
            return None
        case ChooseEffect():
            return step if _effect(state, step) else None
        case SelectPortal():
            return step if _select(state, step) else None
        case ClaimReward():
            return step if _rewards(state, step) else None
        case _:
            assert_never(step)


def finish_turn(state: State) -> None:
    bag.end_turn(state)
    state.order = ()
    seven = load().seven
    if any(len(state.achieved[p]) >= seven for p in state.players):
        state.phase, state.pending = "over", GameOver()
        state.note(event="game_over")
    else:
        state.pending = AwaitDraw()


# -- the steps: those with a choice return True when it waits for the player -----------------------

def _open(state: State, step: OpenPortal) -> None:
    player, portal = step.player, step.portal
    if portal not in state.areas[player]:
        return  # opened meanwhile by another portal's effect, which came first
    back = len(state.crystals.pop(portal))
    state.stockpiles[player] += back
    state.areas[player] = remove_one(state.areas[player], portal)
    state.opening[player] = state.opening[player] + (portal,)
    state.note(event="opened", player=player, portal=portal, colour=load().portals[portal].colour, crystals_back=back)
    card = load().portals[portal]
    picks = 2 if card.effect_kind == "two_portals" else 1
    steps: tuple[Step, ...] = (Achieve(player, portal), SelectPortal(player, picks), ClaimReward(player))
    if card.colour == "yellow":
        steps = (ChooseEffect(player, portal),) + steps
    push_front(state, *steps)


def _effect(state: State, step: ChooseEffect) -> bool:
    player, portal = step.player, step.portal
    effect = load().portals[portal].effect
    if effect is None:
        return False
    if effect.kind == "stockpile":
        state.stockpiles[player] += effect.count
        state.gained[player] += effect.count
        state.note(event="effect", player=player, portal=portal, effect="stockpile", crystals=effect.count)
        return False
    return effect.kind in CHOICE_EFFECTS and effect_possible(state, player, effect)


def effect_possible(state: State, player: str, effect: PortalEffect) -> bool:
    """An effect with nothing to choose (no crystal to place, none to rearrange, no portal to open) passes."""
    kind = effect.kind
    if kind in ("place_indicated", "place_any"):
        return state.stockpiles[player] > 0 and bool(state.areas[player])
    if kind == "rearrange":
        return any(state.crystals[p] for p in state.areas[player])
    return bool(state.areas[player])


def _achieve(state: State, step: Achieve) -> None:
    player, portal = step.player, step.portal
    state.opening[player] = remove_one(state.opening[player], portal)
    state.achieved[player] = state.achieved[player] + (portal,)


def _select(state: State, step: SelectPortal) -> bool:
    player = step.player
    if not selectable(state, player):
        state.note(event="no_portal", player=player, why="the 2-copies rule leaves no portal in the row to take")
        return False
    return True


def _rewards(state: State, step: ClaimReward) -> bool:
    player = step.player
    rewards.award_colours(state, player)
    return rewards.claimable(state, player) is not None


# -- the central row ----------------------------------------------------------------------------

def designs_of(state: State, player: str) -> set[str]:
    cat = load()
    return {cat.design(p) for p in (*state.areas[player], *state.achieved[player], *state.opening[player])}


def selectable(state: State, player: str) -> list[str]:
    """Row portals ``player`` may take: the 2-copies rule refuses a second copy of a portal in play."""
    mine = designs_of(state, player)
    return [p for p in state.row if load().design(p) not in mine]


def take(state: State, player: str, portal: str | None, picks: int, revealed: str | None = None) -> None:
    if portal is not None:
        state.row = remove_one(state.row, portal)
        state.areas[player] = state.areas[player] + (portal,)
        state.crystals[portal] = frozenset()
        state.note(event="took", player=player, portal=portal)
        replenish(state, revealed)
    if picks > 1:
        push_front(state, SelectPortal(player, picks - 1))


def replenish(state: State, revealed: str | None = None) -> None:
    """The first portal of the draw pile, or with the table's cards the copy of the design turned up."""
    if state.table_portals:
        copy = next((p for p in state.deck if load().design(p) == revealed), None)
        if copy is not None:
            state.row, state.deck = state.row + (copy,), tuple(p for p in state.deck if p != copy)
    elif state.deck:
        state.row, state.deck = state.row + (state.deck[0],), state.deck[1:]

"""Open the portals: the six steps of each opening, in INCANTATUM! order, chained openings first.

Each opening is queued as steps: ``open`` (crystals back to the stockpile), ``effect`` (a yellow
portal's instant effect), ``achieve`` (to the achievements area), ``select`` (a new portal from the
central row, which is then replenished) and ``rewards``. A portal opened by an effect is queued in
front, so it runs all six steps before the portal that opened it goes on. Steps that need a choice
wait in ``pending`` for the player's action; the others run at once.
"""
from __future__ import annotations

from collections.abc import Callable

from companion.games.via_magica import bag, rewards
from companion.games.via_magica.crystallize import full_portals
from companion.games.via_magica.portals import PortalEffect, load
from companion.games.via_magica.state import State, Step, remove_one

CHOICE_EFFECTS = ("place_indicated", "place_any", "rearrange", "open_another")


def queue_openings(state: State, order: tuple[str, ...]) -> None:
    state.order = order
    state.queue = tuple(("open", p, portal) for p in order for portal in full_portals(state, p))


def push_front(state: State, *steps: Step) -> None:
    state.queue = steps + state.queue


def run(state: State) -> None:
    """Resolve steps until one needs a choice; at the end of the queue the turn ends."""
    while state.queue:
        step, state.queue = state.queue[0], state.queue[1:]
        if STEPS[step[0]](state, step):
            state.pending = step
            return
    finish_turn(state)


def finish_turn(state: State) -> None:
    bag.end_turn(state)
    state.order = ()
    seven = load().seven
    if any(len(state.achieved[p]) >= seven for p in state.players):
        state.phase, state.pending = "over", ("over",)
        state.note(event="game_over")
    else:
        state.pending = ("draw",)


# -- the steps: each returns True when it waits for the player's choice -------------------------

def _open(state: State, step: Step) -> bool:
    _, player, portal = step
    if portal not in state.areas[player]:
        return False  # opened meanwhile by another portal's effect, which came first
    back = len(state.crystals.pop(portal))
    state.stockpiles[player] += back
    state.areas[player] = remove_one(state.areas[player], portal)
    state.opening[player] = state.opening[player] + (portal,)
    state.note(event="opened", player=player, portal=portal, colour=load().portals[portal].colour, crystals_back=back)
    card = load().portals[portal]
    picks = 2 if card.effect_kind == "two_portals" else 1
    steps: tuple[Step, ...] = (("achieve", player, portal), ("select", player, picks), ("rewards", player))
    if card.colour == "yellow":
        steps = (("effect", player, portal),) + steps
    push_front(state, *steps)
    return False


def _effect(state: State, step: Step) -> bool:
    _, player, portal = step
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


def _achieve(state: State, step: Step) -> bool:
    _, player, portal = step
    state.opening[player] = remove_one(state.opening[player], portal)
    state.achieved[player] = state.achieved[player] + (portal,)
    return False


def _select(state: State, step: Step) -> bool:
    _, player, picks = step
    if not selectable(state, player):
        state.note(event="no_portal", player=player, why="the 2-copies rule leaves no portal in the row to take")
        return False
    return True


def _rewards(state: State, step: Step) -> bool:
    player = step[1]
    rewards.award_colours(state, player)
    return rewards.claimable(state, player) is not None


STEPS: dict[str, Callable[[State, Step], bool]] = {
    "open": _open, "effect": _effect, "achieve": _achieve, "select": _select, "rewards": _rewards}


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
        push_front(state, ("select", player, picks - 1))


def replenish(state: State, revealed: str | None = None) -> None:
    """The first portal of the draw pile, or with the table's cards the copy of the design turned up."""
    if state.table_portals:
        copy = next((p for p in state.deck if load().design(p) == revealed), None)
        if copy is not None:
            state.row, state.deck = state.row + (copy,), tuple(p for p in state.deck if p != copy)
    elif state.deck:
        state.row, state.deck = state.row + (state.deck[0],), state.deck[1:]

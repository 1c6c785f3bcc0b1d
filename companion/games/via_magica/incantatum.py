"""INCANTATUM!: the order in which the players who opened a portal this turn play.

The first to call plays first, then the next opener to their left, and so on. Calls in the same
instant (the hub stamps them with the same microsecond) go to the Catcher if among them, else to the
first of them on the Catcher's left. The action carries the race as the hub decided it: ``first``,
and ``tie`` (every wand of the same instant), so the order is checked against the rule, not guessed.
"""
from __future__ import annotations


from companion.errors import Problem
from companion.games.via_magica import actions
from companion.games.via_magica.crystallize import full_portals, openers
from companion.games.via_magica.state import State
from companion.games.via_magica.steps import CHOICES, OpenPortal


def clockwise_from(state: State, first: str, among: list[str]) -> tuple[str, ...]:
    """``among`` in seating order starting at ``first`` and going to each one's left."""
    n, start = len(state.players), state.seat(first)
    return tuple(sorted(among, key=lambda p: (state.seat(p) - start) % n))


def check(state: State, action: actions.Incantatum) -> list[Problem]:
    first, tie = action.first, action.tie
    opened = openers(state)
    if not opened:
        return [Problem("incantatum", "nobody has a full portal: INCANTATUM! is called when a portal opens",
                        first, first)]
    if len(set(tie)) != len(tie):  # a wand calls once: a name twice would be stored as two calls
        twice = next(p for p in tie if tie.count(p) > 1)
        return [Problem("incantatum-tie", f"{twice} is named twice among the calls of the same instant {tie!r}",
                        twice, twice)]
    problems = [Problem("incantatum", f"{p} opened no portal this turn and cannot call INCANTATUM! "
                        f"(openers: {', '.join(opened)})", p, p) for p in dict.fromkeys([first, *tie]) if p not in opened]
    if tie and first not in tie:
        problems.append(Problem("incantatum-tie", f"{first} won the race, so {first} is among the calls of the "
                                f"same instant {tie!r}", first, first))
    elif tie and not problems:
        expected = clockwise_from(state, state.catcher_name, list(tie))[0]
        if expected != first:
            problems.append(Problem("incantatum-tie", f"{tie!r} called at the same instant: {expected} plays "
                                    f"first (the Catcher {state.catcher_name}, or the first on the Catcher's left)",
                                    first, first))
    return problems


def order(state: State, first: str) -> tuple[str, ...]:
    return clockwise_from(state, first, openers(state))


def join_late(state: State, player: str) -> None:
    """A player who fills a portal while the turn's openers play calls INCANTATUM! after them: they play
    in their seat's place after the first caller, or last if that place has already played."""
    first = state.order[0]
    order = clockwise_from(state, first, [*state.order, player])
    pending = state.pending
    assert isinstance(pending, CHOICES), "one joins late only while an opener chooses"
    now = pending.player
    steps = tuple(OpenPortal(player, portal) for portal in full_portals(state, player))
    mine = order.index(player)
    if mine < order.index(now):
        at = len(state.queue)
    else:
        at = next((i for i, step in enumerate(state.queue) if order.index(step.player) > mine), len(state.queue))
    state.queue = state.queue[:at] + steps + state.queue[at:]
    state.order = order if mine > order.index(now) else (*state.order, player)
    state.note(event="incantatum_late", player=player, order=list(state.order))

"""Das Grimoire des Wahnsinns behind the engine's ``Rules`` hooks: parse and check every action, then
apply it to a copy. Actions (docs/grimoire.md): ``banish``, ``cast``, ``learn``, ``buy``, ``cure``,
``end_turn``, and with table draws ``curses_drawn``, ``page_opened`` and (tracked hands) ``cards_drawn``.
The concentration and monster phases run by themselves when a turn begins.
"""
from __future__ import annotations

from collections.abc import Sequence

from companion.engine.dispatch import DispatchRules, Handler, Hooks, on, without_rng
from companion.errors import Problem
from random import Random

from companion.games.grimoire import (bots, curses, elements, hands, madness, position, scoring, setup, spells, table,
                                     turn, view)
from companion.games.grimoire.catalogue import load
from companion.games.grimoire.moves import (ACTIONS, Banish, Buy, CardsDrawn, Cast, Cure, CursesDrawn, EndTurn,
                                            GrimoireAction, Learn, PageOpened)
from companion.games.grimoire.state import State


def _end_turn(state: State, action: EndTurn, rng: Random) -> None:
    turn.end(state, action.discard, rng)  # tracked hands, Incanto's draws: a discard pile shuffled in


def _may_end(state: State, action: EndTurn) -> list[Problem]:
    return hands.check_discard(state, action.player, action.discard)


# Only ending a turn may draw at random (tracked hands reshuffling a discard pile): the piles are
# shuffled at setup, or drawn at the table and entered with ``curses_drawn`` and its kin.
ENTRIES = (CursesDrawn, CardsDrawn, PageOpened)  # what the table drew or turned, entered by whoever is at the tablet
HANDLERS: tuple[Handler[State], ...] = (
    on(Banish, curses.check, without_rng(curses.apply)), on(Cast, spells.check_cast, without_rng(spells.apply_cast)),
    on(Learn, spells.check_learn, without_rng(spells.apply_learn)), on(Buy, elements.check_buy, without_rng(elements.apply_buy)),
    on(Cure, madness.check_cure, without_rng(madness.apply_cure)), on(EndTurn, _may_end, _end_turn),
    on(CursesDrawn, table.check, without_rng(table.apply)), on(CardsDrawn, table.check_cards, without_rng(table.apply_cards)),
    on(PageOpened, table.check_page, without_rng(table.apply_page)))


def whose_turn(state: State, action: GrimoireAction) -> list[Problem]:
    """Every action is the active player's, in their action phase, while the game is on."""
    assert not isinstance(action, ENTRIES)
    player = action.player
    if state.outcome:
        return [Problem("game-over", f"the game is over ({state.outcome}): nothing more can be done", _s(player))]
    if state.seat(player) is None:
        return [Problem("player", f"{player!r} is not playing ({', '.join(p.name for p in state.players)})", _s(player))]
    if player != state.current.name:
        return [Problem("turn", f"it is {state.current.name}'s turn, not {player}'s", _s(player))]
    if state.awaiting:
        return [Problem("pending", f"the table draws {len(state.awaiting)} curses first ({', '.join(state.awaiting)}) "
                        "and enters them ('curses_drawn')", _s(player))]
    if state.page_wanted:
        return [Problem("pending", "the table turns the grimoire's next page first and enters it ('page_opened')",
                        _s(player))]
    if state.drawing:
        return [Problem("pending", "the table enters the cards drawn first ('cards_drawn'): "
                        + ", ".join(f"{p} {n}" for p, n in state.drawing), _s(player))]
    return []


def _s(value: object) -> str | None:
    return None if value is None else str(value)


class GrimoireRules(DispatchRules[State, GrimoireAction]):
    name, title, called = "grimoire", "Das Grimoire des Wahnsinns", "the Grimoire"  # called: how a message names it
    player_counts: Sequence[int] = load().player_counts
    actions, handlers = ACTIONS, HANDLERS
    hooks = Hooks(setup=setup.setup, from_position=position.from_position, legal_actions=view.legal_actions,
                  random_action=bots.random_action, score=scoring.scores, ranking=scoring.ranking,
                  public_view=view.public_view, is_over=lambda state: state.outcome is not None)
    places = staticmethod(scoring.places)  # tied places, as its rulebook allows (``night.places``)

    def precondition(self, state: State, action: GrimoireAction) -> list[Problem]:
        # The curses the table draws are entered whoever enters them, even between turns.
        return [] if isinstance(action, ENTRIES) else whose_turn(state, action)


RULES = GrimoireRules()

"""A turn: two cards played one at a time (or the hand forgone for one tower step), at most one spell,
then the hand refilled at the table. A wizard dropping into Ravenskeep ends the turn at once.

Die cards: ``roll`` makes Incanto roll (the engine's seeded generator, so a replay rolls the same);
each extra die on the card allows one ``reroll``, which forfeits the roll before; the card is then
played with the last roll. When a player has every bottle full and every wizard in Ravenskeep, the
round is finished so everyone has had the same number of turns, and the game ends.
"""
from __future__ import annotations

from dataclasses import replace
from random import Random

from companion.errors import Problem
from companion.games.ravenskeep import board
from companion.games.ravenskeep.catalogue import load
from companion.games.ravenskeep.moves import EndTurn, Forgo, Moving, Play, RavenskeepAction, Reroll, Roll, Spell
from companion.games.ravenskeep.state import DieRoll, State


def _p(rule: str, message: str, action: RavenskeepAction, target: object = None) -> Problem:
    return Problem(rule, message, action.player, None if target is None else str(target))


def check_roll(state: State, action: Roll) -> list[Problem]:
    if state.roll is not None:
        return [_p("roll", f"{action.player} has a roll of {state.roll.last} to play first", action, "die")]
    return _card_left(state, action) or check_face(state, action)


def check_face(state: State, action: Roll | Reroll) -> list[Problem]:
    """With the table's die the face it shows is entered, and only a face the die has; with Incanto's, none."""
    value, faces = action.value, load().die
    if state.table_dice and value is None:
        return [_p("table-die", f"the table rolls the real die: say the face it shows ({', '.join(map(str, faces))})",
                   action, "die")]
    if not state.table_dice and value is not None:
        return [_p("companion-die", f"Incanto rolls the die in this game and rolls itself, not {value}", action, value)]
    if value is not None and value not in faces:
        return [_p("die", f"roll the die to determine exactly how far: the die shows {', '.join(map(str, faces))}, "
                   f"not {value}", action, value)]
    return []


def _face(action: Roll | Reroll, rng: Random) -> int:
    return action.value if action.value is not None else rng.choice(load().die)


def _card_left(state: State, action: RavenskeepAction) -> list[Problem]:
    if state.forwent:
        return [_p("cards", f"{action.player} forwent both cards this turn", action, "card")]
    if state.cards_played >= load().cards_per_turn:
        return [_p("cards", f"{action.player} has played both cards this turn", action, "card")]
    return []


def apply_roll(state: State, action: Roll, rng: Random) -> None:
    value = _face(action, rng)
    state.roll = DieRoll(action.moves, action.dice, (value,), action.dice - 1)
    state.note(event="rolled", player=action.player, value=value, dice=action.dice)


def check_reroll(state: State, action: Reroll) -> list[Problem]:
    if state.roll is None or state.roll.rerolls_left <= 0:
        dice = state.roll.dice if state.roll else 0
        return [_p("reroll", f"{action.player}'s card allows no more rerolls ({dice} dice: {max(dice - 1, 0)} rerolls)", action, "die")]
    return check_face(state, action)


def apply_reroll(state: State, action: Reroll, rng: Random) -> None:
    assert state.roll is not None
    value = _face(action, rng)
    state.roll = replace(state.roll, values=(*state.roll.values, value), rerolls_left=state.roll.rerolls_left - 1)
    state.note(event="rolled", player=action.player, value=value, reroll=True)


def card_of(state: State, action: Play) -> tuple[str, int] | None:
    if state.roll is not None:
        return state.roll.moves, state.roll.last
    card = action.card
    return (card.moves, card.steps) if card else None


def check_play(state: State, action: Play) -> list[Problem]:
    found = _card_left(state, action)
    if state.roll is not None and action.card:
        found.append(_p("card", f"{action.player} rolled for a die card: play it without 'card' (the last roll counts)",
                        action))
    card = card_of(state, action)
    if card is None and not found:
        found.append(_p("card", f"{action.player} plays a card: say what it moves and how far ('card'), or roll a die card",
                        action))
    if card is not None:
        found += piece_problems(state, action, *card, must_move=True)
    return found


def piece_problems(state: State, action: Moving, moves: str, steps: int, must_move: bool) -> list[Problem]:
    """Why the piece named cannot make this move; with none named, a card must still move if it can."""
    player, wiz, tower = action.player, _wizard(action), action.tower
    if wiz is not None and tower is not None:
        return [_p("piece", f"{player} moves one piece: a wizard or a tower, not both", action, tower)]
    if not action.fill and tower is None:
        return [_p("fill", f"{player} declines filling a bottle only when a tower is moved: a bottle is filled when "
                   "a tower imprisons wizards", action, "fill")]
    if wiz is None and tower is None:
        if not must_move:
            return [_p("piece", f"{player} names no piece to move", action)]
        able = board.pieces(state, player, moves, steps)
        return [_p("move-possible", f"{player} must make the move if at all possible: {steps} spaces works for "
                   f"{able[:4]}", action)] if able else []
    if wiz is not None:
        why = "this card moves a tower, not a wizard" if moves == "tower" else board.wizard_problem(state, player, wiz, steps)
        return [_p("wizard", why, action, wiz)] if why else []
    why = "this card moves a wizard, not a tower" if moves == "wizard" else board.tower_problem(state, str(tower), steps)
    return [_p("tower", why, action, tower)] if why else []


def _wizard(action: Moving) -> int | None:
    return None if isinstance(action, Forgo) else action.wizard  # forgoing moves a tower, never a wizard


def apply_play(state: State, action: Play, rng: Random) -> None:
    moves, steps = card_of(state, action) or ("", 0)
    state.roll = None
    state.cards_played += 1
    state.note(event="card", player=action.player, moves=moves, steps=steps)
    move(state, action, steps)


def move(state: State, action: Moving, steps: int) -> None:
    player, wiz = action.player, _wizard(action)
    if wiz is not None:
        if board.move_wizard(state, player, wiz, steps):
            end(state)
    elif action.tower is not None:
        board.move_tower(state, player, action.tower, steps, action.fill)
    else:
        state.note(event="no_move", player=player)


def check_forgo(state: State, action: Forgo) -> list[Problem]:
    if state.cards_played or state.forwent or state.roll is not None:
        return [_p("forgo", f"{action.player} can forgo both cards only before playing one", action)]
    return piece_problems(state, action, "tower", 1, must_move=True)


def apply_forgo(state: State, action: Forgo, rng: Random) -> None:
    state.forwent = True
    state.note(event="forgo", player=action.player)
    move(state, action, 1)


def check_spell(state: State, action: Spell) -> list[Problem]:
    player, sid = action.player, action.spell
    spell = load().spells.get(sid)
    if spell is None:
        return [_p("spell", f"there is no spell {sid!r}; the spells are {', '.join(load().spells)}", action, sid)]
    found = []
    if state.spell_cast:
        found.append(_p("spell-once", f"{player} has cast a spell this turn already", action, sid))
    me = state.current
    if me.full < spell.cost:
        found.append(_p("spell-bottles", f"{spell.name} costs {spell.cost} full bottles; {player} has {me.full}", action, sid))
    if action.steps not in spell.steps:
        found.append(_p("spell-steps", f"{spell.name} moves {list(spell.steps)} spaces, not {action.steps}", action, sid))
    return found + piece_problems(state, action, spell.moves, action.steps, must_move=False)


def apply_spell(state: State, action: Spell, rng: Random) -> None:
    spell = load().spells[action.spell]
    me = state.current
    me.full -= spell.cost
    me.spent += spell.cost
    state.spell_cast = True
    state.note(event="spell", player=me.name, spell=spell.id, cost=spell.cost)
    move(state, action, action.steps)


def check_end(state: State, action: EndTurn) -> list[Problem]:
    if state.roll is not None:
        return [_p("end-turn", f"{action.player} has a roll to play first", action, "die")]
    if not state.forwent and state.cards_played < load().cards_per_turn:
        return [_p("end-turn", f"{action.player} must play {load().cards_per_turn} cards (or forgo both); "
                   f"{state.cards_played} played", action, "card")]
    return []


def apply_end(state: State, action: EndTurn, rng: Random) -> None:
    end(state)


def end(state: State) -> None:
    """The turn is over: the next player, unless the round that someone's goal started is finished."""
    check_goal(state)
    following = (state.active + 1) % len(state.players)
    if state.ending and following == state.first:
        state.over = True
        state.note(event="game_over")
        return
    state.active, state.turn = following, state.turn + 1
    state.cards_played, state.forwent, state.spell_cast, state.roll = 0, False, False, None


def fresh(state: State) -> bool:
    """Nothing done yet this turn: the notes of the turn before are still shown until now."""
    return not (state.cards_played or state.forwent or state.spell_cast or state.roll is not None)


def done(state: State, seat: int) -> bool:
    p = state.players[seat]
    return p.empty == 0 and p.keep == load().wizards


def check_goal(state: State) -> None:
    if not state.ending and any(done(state, s) for s in range(len(state.players))):
        state.ending = True
        state.note(event="ending")

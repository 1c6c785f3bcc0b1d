"""Spells: cast once a turn (amplified by paying the cost again), exhausted until the caster's next
concentration phase; learned from the face-up top of a library pile for two elements of its type,
at most five laid out (one more means another leaves the game). Effects are played with the cards."""
from __future__ import annotations


from companion.errors import Problem
from companion.games.grimoire import hands, moves
from companion.games.grimoire.catalogue import load
from companion.games.grimoire.state import State


def learnable(state: State) -> list[str]:
    return [pile[0] for pile in state.library.values() if pile]


def check_cast(state: State, action: moves.Cast) -> list[Problem]:
    player, spell = action.player, action.spell
    me = state.player(player)
    if spell not in me.spells:
        return [Problem("cast-spell", f"{player} has no spell {spell!r} laid out ({', '.join(me.spells)})", player, spell)]
    if spell in me.exhausted:
        return [Problem("cast-exhausted", f"{player}'s {spell!r} is exhausted: each spell is cast once a turn and "
                        "refreshed in the caster's next concentration phase", player, spell)]
    return hands.check_pay(state, player, action.pay, cast_cost(action), "cast")


def cast_cost(action: moves.Cast) -> dict[str, int]:
    return {e: n * action.times for e, n in load().spells[action.spell].cost.items()}


def apply_cast(state: State, action: moves.Cast) -> None:
    me = state.player(action.player)
    me.exhausted = me.exhausted | {action.spell}
    cost = cast_cost(action)
    paid = hands.spend(state, me.name, action.pay, cost)
    state.note(event="cast", player=me.name, spell=action.spell, times=action.times, paid=cost,
               **({"cards": paid} if state.tracked else {}))


def check_learn(state: State, action: moves.Learn) -> list[Problem]:
    player, spell, drop = action.player, action.spell, action.drop
    me = state.player(player)
    found = []
    if spell not in learnable(state):
        found.append(Problem("learn-face-up", f"{player} can learn only a face-up library spell "
                             f"({', '.join(learnable(state)) or 'none left'}), not {spell!r}", player, spell))
    full = len(me.spells) >= load().max_spells
    if full and drop not in me.spells:
        found.append(Problem("learn-five", f"{player} already has {load().max_spells} spells: name one of "
                             f"{', '.join(me.spells)} to take out of the game ('drop')", player, _s(drop)))
    if not full and drop is not None:
        found.append(Problem("learn-five", f"{player} has room for {spell!r}: no spell needs to leave the game", player,
                             drop))
    if spell in load().spells:
        found += hands.check_pay(state, player, action.pay, learn_cost(spell), "learn")
    return found


def learn_cost(spell: str) -> dict[str, int]:
    return {load().spells[spell].element: load().learn_cost}


def apply_learn(state: State, action: moves.Learn) -> None:
    me = state.player(action.player)
    spell, drop = action.spell, action.drop
    element = load().spells[spell].element
    paid = hands.spend(state, me.name, action.pay, learn_cost(spell))
    state.library[element] = state.library[element][1:]
    me.spells = tuple(s for s in me.spells if s != drop) + (spell,)
    if drop:
        me.exhausted = me.exhausted - {drop}
        state.spells_gone += () if drop in load().basic_spells else (drop,)
    state.note(event="learned", player=me.name, spell=spell, dropped=drop,
               paid={element: load().learn_cost}, next=state.library[element][:1] or None,
               **({"cards": paid} if state.tracked else {}))


def _s(value: object) -> str | None:
    return None if value is None else str(value)

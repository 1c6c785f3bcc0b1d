"""Buying an element card from the eight open piles: a 2-element card for two elements of its type,
a 3-element card for three. The cards paid leave the game; the new one goes on the discard pile."""
from __future__ import annotations


from companion.errors import Problem
from companion.games.grimoire import hands, moves
from companion.games.grimoire.state import State


def check_buy(state: State, action: moves.Buy) -> list[Problem]:
    player, element, value = action.player, action.element, action.value
    if element not in state.supply:
        return [Problem("buy-element", f"{player} buys a {element!r} card, but the elements are "
                        f"{', '.join(state.supply)}", player, element)]
    if state.supply[element][value] <= 0:
        return [Problem("buy-supply", f"no {value}-element {element} card is left in its pile", player, f"{element}-{value}")]
    return hands.check_pay(state, player, action.pay, {element: value}, "buy")


def apply_buy(state: State, action: moves.Buy) -> None:
    element, value = action.element, action.value
    state.supply[element][value] -= 1
    # The cards paid leave the game; the new one goes on the discard pile (rulebook).
    paid = hands.spend(state, action.player, action.pay, {element: value}, to_discard=False)
    hands.gain(state, action.player, hands.card(element, value))
    state.note(event="bought", player=action.player, element=element, value=value, paid={element: value},
               **({"cards": paid} if state.tracked else {}))

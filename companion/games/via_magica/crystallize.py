"""Crystallize the Animus: each player places ONE crystal per token drawn, from their stockpile or
moved from a portal, on a matching space of a portal in their crystallization area."""
from __future__ import annotations


from companion.errors import Problem
from companion.games.via_magica import actions
from companion.games.via_magica.bag import fits
from companion.games.via_magica.portals import load
from companion.games.via_magica.state import State


def ref(space: actions.Space) -> str:
    return f"{space.portal}.{space.space}"


def space_problems(state: State, player: str, space: actions.Space, rule: str) -> list[Problem]:
    """Is ``space`` a space of a portal in ``player``'s crystallization area?"""
    portal, index = space.portal, space.space
    if portal not in state.areas.get(player, ()):
        return [Problem(rule, f"{portal!r} is not a portal in {player}'s crystallization area "
                        f"({', '.join(state.areas.get(player, ())) or 'none'})", player, ref(space))]
    if index >= len(load().portals[portal].spaces):
        return [Problem(rule, f"portal {portal} has {len(load().portals[portal].spaces)} Animus spaces, "
                        f"not a space {index}", player, ref(space))]
    return []


def check(state: State, action: actions.Crystal) -> list[Problem]:
    player, to, source = action.player, action.to, action.moved_from
    if player not in state.players:
        return [Problem("player", f"{player!r} is not at this table ({', '.join(state.players)})", player)]
    problems = []
    if player in state.placed:
        problems.append(Problem("one-crystal", f"{player} has already placed or moved a crystal for this "
                                f"{state.token}: one crystal per token drawn", player, ref(to)))
    problems += _target(state, player, to, source)
    if source is not None:
        problems += _source(state, player, source, to)
    elif state.stockpiles[player] == 0:
        problems.append(Problem("stockpile", f"{player}'s stockpile is empty: move a crystal already placed "
                                "instead", player, ref(to)))
    return problems


def _target(state: State, player: str, to: actions.Space, source: actions.Space | None) -> list[Problem]:
    wrong = space_problems(state, player, to, "crystallize")
    if wrong:
        return wrong
    animus = load().portals[to.portal].spaces[to.space]
    problems = []
    if to.space in state.crystals[to.portal]:
        problems.append(Problem("crystallize", f"space {to.space} ({animus}) of {to.portal} already holds "
                                "a crystal", player, ref(to)))
    if not fits(state, player, animus):
        problems.append(Problem("animus", f"the token drawn is {state.token}, not {animus}: {player} may place "
                                f"only on a {state.token} space", player, ref(to)))
    return problems


def _source(state: State, player: str, source: actions.Space, to: actions.Space) -> list[Problem]:
    wrong = space_problems(state, player, source, "move")
    if wrong:
        return wrong
    if source.space not in state.crystals[source.portal]:
        return [Problem("move", f"space {source.space} of {source.portal} holds no crystal to move",
                        player, ref(source))]
    if source == to:
        return [Problem("move", "a crystal moved must go to another space", player, ref(source))]
    return []


def place(state: State, player: str, to: actions.Space, source: actions.Space | None) -> None:
    if source is None:
        state.stockpiles[player] -= 1
    else:
        state.crystals[source.portal] = state.crystals[source.portal] - {source.space}
    state.crystals[to.portal] = state.crystals[to.portal] | {to.space}
    state.note(event="crystal", player=player, portal=to.portal, space=to.space,
               moved_from=None if source is None else ref(source))


def apply(state: State, action: actions.Crystal) -> None:
    place(state, action.player, action.to, action.moved_from)
    state.placed = state.placed | {action.player}


def is_full(state: State, portal: str) -> bool:
    return len(state.crystals[portal]) == len(load().portals[portal].spaces)


def full_portals(state: State, player: str) -> list[str]:
    return [p for p in state.areas[player] if is_full(state, p)]


def openers(state: State) -> list[str]:
    return [p for p in state.players if full_portals(state, p)]

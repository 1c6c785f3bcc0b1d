"""The Animus bag and the Catcher: a fair draw (or the token the table drew), and the bag passed on
after a Wildcard."""
from __future__ import annotations

from random import Random

from companion.errors import Problem
from companion.games.via_magica.portals import ANIMUS, WILDCARD, load
from companion.games.via_magica.state import State, remove_one


def drawing_from(state: State) -> tuple[tuple[str, ...], str]:
    """The bag the next draw comes from and who draws it: after a Wildcard the Catcher has put every token back
    and passed the bag left, so the next draw is the new Catcher's, from the full bag."""
    if state.token == WILDCARD:
        return load().bag_tokens(), state.players[(state.catcher + 1) % len(state.players)]
    return state.bag, state.catcher_name


def check_draw(state: State, animus: str | None) -> list[Problem]:
    tokens, catcher = drawing_from(state)
    if state.table_draws and animus is None:
        return [Problem("table-bag", "the table draws from the real bag: say which Animus was drawn", catcher)]
    if not state.table_draws and animus is not None:
        return [Problem("companion-bag", f"Incanto is the bag in this game and draws itself, not {animus!r}",
                        catcher, animus)]
    if animus is not None and animus not in tokens:
        left = ", ".join(f"{k} {tokens.count(k)}" for k in (*ANIMUS, WILDCARD) if k in tokens)
        return [Problem("bag", f"no {animus!r} is left in the bag (in the bag: {left})", catcher, animus)]
    return []


def draw(state: State, animus: str | None, rng: Random) -> None:
    token = animus if animus is not None else state.bag[rng.randrange(len(state.bag))]
    state.bag = remove_one(state.bag, token)
    state.out = state.out + (token,)
    state.token = token
    state.turn += 1
    state.note(event="drawn", player=state.catcher_name, animus=token)


def end_turn(state: State) -> None:
    """After a Wildcard every token goes back in the bag and the player on the Catcher's left catches."""
    if state.token == WILDCARD:
        state.bag = load().bag_tokens()
        state.out = ()
        state.catcher = (state.catcher + 1) % len(state.players)
        state.note(event="bag_passed", player=state.catcher_name)
    state.token = None
    state.placed = frozenset()


def wild_for(state: State, player: str) -> bool:
    """The token lets ``player`` fill any space: a Wildcard, or an Animus their open blue portal names."""
    if state.token == WILDCARD:
        return True
    cat = load()
    wild = (state.token,)
    return any((e := cat.portals[p].effect) is not None and e.kind == "wildcard" and e.animus == wild
               for p in state.achieved[player])


def fits(state: State, player: str, animus: str) -> bool:
    return wild_for(state, player) or animus == state.token

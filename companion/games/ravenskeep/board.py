"""The ring of spaces: moving a wizard or a tower (with everything on it), imprisoning and freeing
wizards, and Ravenskeep moving on when a wizard drops into it. Everything moves clockwise."""
from __future__ import annotations

from companion.games.ravenskeep.catalogue import load
from companion.games.ravenskeep.state import RAVENSKEEP, Stack, State, is_tower, owner, wizard


def visible(stack: Stack) -> list[str]:
    """The wizards above the topmost tower (on the ground if there is none): the ones anyone can see."""
    top = max((i for i, item in enumerate(stack) if is_tower(item)), default=-1)
    return [item for item in stack[top + 1:] if owner(item)]


def covered(stack: Stack) -> list[str]:
    top = max((i for i, item in enumerate(stack) if is_tower(item)), default=-1)
    return [item for item in stack[:top + 1] if owner(item)]


def ahead(state: State, space: int, steps: int) -> int:
    return (space + steps) % len(state.spaces)


def wizard_spaces(state: State, player: str) -> list[int]:
    """Where ``player`` has a visible wizard."""
    return [s for s, stack in enumerate(state.spaces) if wizard(player) in visible(stack)]


# -- wizards --------------------------------------------------------------------------------

def wizard_problem(state: State, player: str, space: int, steps: int) -> str | None:
    if not 0 <= space < len(state.spaces) or wizard(player) not in visible(state.spaces[space]):
        return f"{player} has no visible wizard on space {space}"
    target = state.spaces[ahead(state, space, steps)]
    if RAVENSKEEP not in target and len(visible(target)) >= load().per_place:
        return f"space {ahead(state, space, steps)} already holds {load().per_place} wizards"
    return None


def move_wizard(state: State, player: str, space: int, steps: int) -> bool:
    """Move one of ``player``'s visible wizards; True when it dropped into Ravenskeep (the turn ends)."""
    stack = list(state.spaces[space])
    stack.reverse()
    stack.remove(wizard(player))  # the topmost of theirs: visible, as checked
    stack.reverse()
    state.put(space, tuple(stack))
    target = ahead(state, space, steps)
    if RAVENSKEEP in state.spaces[target]:
        state.current.keep += 1
        state.note(event="keep", player=player, space=target)
        advance_ravenskeep(state, target)
        return True
    state.put(target, state.spaces[target] + (wizard(player),))
    state.note(event="wizard", player=player, space=space, to=target, steps=steps)
    return False


def advance_ravenskeep(state: State, space: int) -> None:
    """To the next space or tower top with a raven shield and no wizards on it; else it stays."""
    n = len(state.spaces)
    for k in range(1, n):
        target = (space + k) % n
        if shield_free_at(state, target):
            state.put(space, tuple(i for i in state.spaces[space] if i != RAVENSKEEP))
            state.put(target, state.spaces[target] + (RAVENSKEEP,))
            state.note(event="ravenskeep", space=target)
            return
    state.note(event="ravenskeep", space=space, stays=True)


def shield_free_at(state: State, space: int) -> bool:
    cat = load()
    stack = state.spaces[space]
    towers = [i for i in stack if is_tower(i)]
    return not visible(stack) and (towers[-1] in cat.shield_towers if towers else space in cat.shield_spaces)


# -- towers ---------------------------------------------------------------------------------

def tower_problem(state: State, tower: str, steps: int) -> str | None:
    space = state.where(tower)
    if space is None or not is_tower(tower):
        return f"{tower!r} is not a tower on the board"
    if RAVENSKEEP in state.spaces[ahead(state, space, steps)]:
        return f"{tower} would land on Ravenskeep at space {ahead(state, space, steps)}: no tower goes atop Ravenskeep"
    return None


def move_tower(state: State, player: str, tower: str, steps: int, fill_bottle: bool = True) -> None:
    """Lift ``tower`` with everything on it; the wizards it lands on are imprisoned, and the mover may fill one
    empty bottle ("you may fill one of your empty potion bottles"): ``fill_bottle`` False declines."""
    space = state.where(tower)
    assert space is not None
    stack = state.spaces[space]
    cut = stack.index(tower)
    state.put(space, stack[:cut])
    freed = visible(stack[:cut])  # every wizard under the lifted tower was covered by it
    target = ahead(state, space, steps)
    caught = visible(state.spaces[target])
    state.put(target, state.spaces[target] + stack[cut:])
    state.note(event="tower", player=player, tower=tower, space=space, to=target, steps=steps,
               imprisoned=len(caught), freed=[owner(w) for w in freed])
    if caught and fill_bottle:
        fill(state, player)
    elif caught and state.players[state.seat(player) or 0].empty:
        state.note(event="fill_declined", player=player)


def fill(state: State, player: str) -> None:
    me = state.players[state.seat(player) or 0]
    if me.empty:
        me.empty -= 1
        me.full += 1
        state.note(event="filled", player=player, full=me.full)


# -- what a card can move -------------------------------------------------------------------

def pieces(state: State, player: str, moves: str, steps: int) -> list[dict[str, object]]:
    """Every legal choice for a move of ``steps``: ``{"wizard": space}`` or ``{"tower": id}``."""
    out: list[dict[str, object]] = []
    if moves in ("wizard", "either"):
        out += [{"wizard": s} for s in wizard_spaces(state, player) if wizard_problem(state, player, s, steps) is None]
    if moves in ("tower", "either"):
        out += [{"tower": t} for t in load().towers if tower_problem(state, t, steps) is None]
    return out

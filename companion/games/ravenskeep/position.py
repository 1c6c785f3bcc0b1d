"""A game started from a described position: the board and the bottles as they lie at the start of
the active player's turn. Validated like an action: every problem at once, nothing made on refusal."""
from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.engine.actions import check_bounds
from companion.errors import IllegalAction, MalformedAction, Problem
from companion.games.ravenskeep import setup, turn
from companion.games.ravenskeep.catalogue import load
from companion.games.ravenskeep.state import RAVENSKEEP, State, is_tower, wizard


class Bottles(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    full: int = Field(default=0, ge=0, le=99)
    spent: int = Field(default=0, ge=0, le=99)
    keep: int = Field(default=0, ge=0, le=99)  # wizards in Ravenskeep


class Position(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    # space -> the stack bottom first: "T3" a tower, "R" Ravenskeep, a player's name a wizard
    spaces: dict[str, list[str]] = Field(max_length=99)
    players: dict[str, Bottles] = Field(default_factory=dict)
    active: str | None = None


def from_position(players: Sequence[str], options: Mapping[str, Any], position: Mapping[str, Any], rng: Random) -> State:
    setup.check_options(players, options)
    check_bounds(position, 4)
    try:
        pos = Position.model_validate(dict(position))
    except ValidationError as exc:
        where = "; ".join(f"position key {'.'.join(map(str, e['loc']))!r}: {e['msg']}" for e in exc.errors(include_url=False))
        raise MalformedAction(where) from None
    problems = _problems(list(players), pos)
    if problems:
        raise IllegalAction(problems)
    state = setup.setup(players, options, rng)
    stacks = [tuple(i if i == RAVENSKEEP or is_tower(i) else wizard(i) for i in pos.spaces.get(str(s), []))
              for s in range(load().spaces)]
    state.spaces = tuple(stacks)
    for p in state.players:
        b = pos.players.get(p.name, Bottles())
        p.full, p.spent, p.keep, p.empty = b.full, b.spent, b.keep, load().bottles - b.full - b.spent
    if pos.active:  # the round still starts with the starting player (option 'first'), if there is one
        state.active = list(players).index(pos.active)
        state.first = state.first if "first" in options else state.active
    turn.check_goal(state)  # a goal already reached: this is the last round
    state.notes = ()
    return state


def _problems(players: list[str], pos: Position) -> list[Problem]:
    cat = load()
    found: list[Problem] = []
    items = Counter(i for stack in pos.spaces.values() for i in stack)
    for key in pos.spaces:
        if not key.isdigit() or int(key) >= cat.spaces:
            found.append(Problem("position-space", f"the board has spaces 0-{cat.spaces - 1}, not {key!r}", None, key))
    for item in items:
        if item not in players and item != RAVENSKEEP and item not in cat.towers:
            found.append(Problem("position-piece", f"{item!r} is no tower, no player's wizard and not Ravenskeep", None, item))
    found += [Problem("position-towers", f"tower {t} is on the board {items[t]} times; the box has one of each", None, t)
              for t in cat.towers if items[t] != 1]
    if items[RAVENSKEEP] != 1:
        found.append(Problem("position-ravenskeep", f"Ravenskeep is on the board {items[RAVENSKEEP]} times, not once", None, "R"))
    found += [Problem("position-ravenskeep", f"Ravenskeep tops its stack; on space {k} it lies under {s[s.index('R') + 1:]}",
                      None, k) for k, s in pos.spaces.items() if RAVENSKEEP in s and s[-1] != RAVENSKEEP]
    for p in players:
        b = pos.players.get(p, Bottles())
        if items[p] + b.keep != cat.wizards:
            found.append(Problem("position-wizards", f"{p} has {items[p]} wizards on the board and {b.keep} in Ravenskeep; "
                                 f"each player has {cat.wizards}", p))
        if b.full + b.spent > cat.bottles:
            found.append(Problem("position-bottles", f"{p} has {b.full} full and {b.spent} spent bottles; there are "
                                 f"{cat.bottles}", p))
    found += [Problem("position-player", f"{who!r} is not playing", who) for who in [*pos.players, pos.active or players[0]]
              if who not in players]
    found += [Problem("position-limit", f"space {k} shows {n} wizards; a space or tower holds at most {cat.per_place}", None, k)
              for k, s in pos.spaces.items() if (n := _top(s)) > cat.per_place]
    return found


def _top(stack: list[str]) -> int:
    top = max((i for i, it in enumerate(stack) if it.startswith("T") and it[1:].isdigit()), default=-1)
    return sum(1 for it in stack[top + 1:] if it != RAVENSKEEP)




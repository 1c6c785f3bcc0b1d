"""Start from a described position (a game begun halfway, a worked example, a game restored by hand).

The position is validated like an action: every portal in at most one place, the Animus tokens out of
the bag no more than the bag holds, seven crystals per player (plus those yellow effects gave) either
in the stockpile or on a portal, no portal full (it would have opened), no second copy of a portal,
rewards held by whoever earned them, one number reward each; every problem is raised at once.
"""
from __future__ import annotations

from collections import Counter
from random import Random
from typing import Annotated, Any
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.engine.actions import check_bounds
from companion.errors import IllegalAction, MalformedAction, Problem
from companion.games.via_magica import rewards as reward_rules
from companion.games.via_magica.portals import WILDCARD, load
from companion.games.via_magica.setup import check_options, empty
from companion.games.via_magica.state import State

PortalId = Annotated[str, Field(min_length=1, max_length=8)]


class Described(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class PlayerPosition(Described):
    stockpile: Annotated[int, Field(ge=0, le=99)]
    area: dict[PortalId, list[Annotated[int, Field(ge=0, le=9)]]] = Field(default_factory=dict, max_length=8)
    achieved: list[PortalId] = Field(default_factory=list, max_length=12)
    rewards: list[Annotated[str, Field(max_length=20)]] = Field(default_factory=list, max_length=10)


class Position(Described):
    catcher: Annotated[str, Field(max_length=40)]
    out: list[Annotated[str, Field(max_length=10)]] = Field(default_factory=list, max_length=23)
    row: list[PortalId] = Field(max_length=5)
    deck: list[PortalId] | None = Field(default=None, max_length=80)
    discard: list[PortalId] = Field(default_factory=list, max_length=80)
    players: dict[Annotated[str, Field(max_length=40)], PlayerPosition] = Field(max_length=6)


def parse(raw: Mapping[str, Any]) -> Position:
    check_bounds(raw, max_depth=5)
    try:
        return Position.model_validate(raw)
    except ValidationError as exc:
        raise MalformedAction("position: " + "; ".join(_said(e) for e in exc.errors(include_url=False))) from None


def _said(error: Any) -> str:
    where = ".".join(str(p) for p in error["loc"])
    if error["type"] == "extra_forbidden":
        return f"key {where!r} is unknown"
    return f"key {where!r}: {error['msg']} (got {error['input']!r:.60})"


def from_position(players: Sequence[str], options: Mapping[str, Any], raw: Mapping[str, Any], rng: Random) -> State:
    check_options(players, options)
    position = parse(raw)
    problems = problems_of(players, position)
    if problems:
        raise IllegalAction(problems)
    return build(players, options, position, rng)


def problems_of(players: Sequence[str], pos: Position) -> list[Problem]:
    problems = _seats(players, pos) + _bag(pos) + _places(pos)
    for name, me in pos.players.items():
        problems += _player(name, me)
    return problems + _rewards(pos)


def _seats(players: Sequence[str], pos: Position) -> list[Problem]:
    problems = []
    if sorted(pos.players) != sorted(players):
        problems.append(Problem("position", f"the position describes {sorted(pos.players)}, the table is "
                                f"{list(players)}", None, "players"))
    if pos.catcher not in players:
        problems.append(Problem("position", f"the Catcher {pos.catcher!r} is not at the table", pos.catcher, "catcher"))
    return problems


def _bag(pos: Position) -> list[Problem]:
    bag, out = load().bag, Counter(pos.out)
    problems = [Problem("bag", f"the bag holds {bag.get(k, 0)} {k}, so {n} cannot be out of it", pos.catcher, k)
                for k, n in out.items() if n > bag.get(k, 0)]
    if out[WILDCARD]:
        problems.append(Problem("bag", "a Wildcard drawn sends every token back to the bag: none stays out",
                                pos.catcher, WILDCARD))
    return problems


def _places(pos: Position) -> list[Problem]:
    cat = load()
    where = [*pos.row, *(pos.deck or []), *pos.discard]
    for me in pos.players.values():
        where += [*me.area, *me.achieved]
    problems = [Problem("portal", f"no portal {p!r} in the catalogue (ids like P07a)", None, p)
                for p in dict.fromkeys(where) if p not in cat.portals]
    problems += [Problem("conservation", f"portal {p} is in {n} places at once", None, p)
                 for p, n in Counter(where).items() if n > 1]
    if pos.deck is not None and len(set(where)) != len(cat.portals):
        problems.append(Problem("conservation", f"with the draw pile given, all {len(cat.portals)} portals are "
                                f"placed; {len(cat.portals) - len(set(where))} are missing", None, "deck"))
    if len(pos.row) < cat.row_size and (pos.deck is None or pos.deck):
        problems.append(Problem("row", f"the central row holds {cat.row_size} portals while the draw pile lasts, "
                                f"not {len(pos.row)}", None, "row"))
    return problems


def _player(name: str, me: PlayerPosition) -> list[Problem]:
    cat = load()
    mine = [p for p in (*me.area, *me.achieved) if p in cat.portals]
    designs = Counter(cat.design(p) for p in mine)
    problems = [Problem("two-copies", f"{name} may play only one copy of portal {d}", name, d)
                for d, n in designs.items() if n > 1]
    if len(me.achieved) >= cat.seven:
        problems.append(Problem("end", f"{name} has {len(me.achieved)} open portals: the game would be over",
                                name, "achieved"))
    problems += _area(name, me)
    gained = sum(effect.count for p in me.achieved
                 if p in cat.portals and (effect := cat.portals[p].effect) is not None and effect.kind == "stockpile")
    placed = sum(len(s) for s in me.area.values())
    if me.stockpile + placed != cat.stockpile + gained:
        problems.append(Problem("conservation", f"{name} has {me.stockpile} crystals in the stockpile and {placed} "
                                f"on portals; {cat.stockpile + gained} are theirs ({cat.stockpile}, plus {gained} "
                                "from yellow effects)", name, "stockpile"))
    return problems


def _area(name: str, me: PlayerPosition) -> list[Problem]:
    cat = load()
    room = cat.kept + sum(cat.portals[p].effect_kind == "two_portals" for p in me.achieved if p in cat.portals)
    problems = []
    if len(me.area) > room:
        problems.append(Problem("area", f"{name}'s crystallization area holds {room} portals at most, "
                                f"not {len(me.area)}", name, "area"))
    for portal, spaces in me.area.items():
        if portal not in cat.portals:
            continue
        n = len(cat.portals[portal].spaces)
        if len(set(spaces)) != len(spaces) or any(s >= n for s in spaces):
            problems.append(Problem("crystals", f"{portal} has spaces 0-{n - 1}, one crystal each, not {spaces}",
                                    name, portal))
        elif len(spaces) == n:
            problems.append(Problem("crystals", f"{portal} is full: it would have opened", name, portal))
    return problems


def _rewards(pos: Position) -> list[Problem]:
    cat = load()
    problems, holders = [], Counter(r for me in pos.players.values() for r in me.rewards)
    problems += [Problem("reward", f"reward {r!r} is held {n} times", None, r) for r, n in holders.items() if n > 1]
    for name, me in pos.players.items():
        known = [r for r in me.rewards if r in cat.rewards]
        problems += [Problem("reward", f"no reward {r!r}; rewards are {', '.join(cat.rewards)}", name, r)
                     for r in me.rewards if r not in cat.rewards]
        colours = [cat.portals[p].colour for p in me.achieved if p in cat.portals]
        for r in known:
            reward = cat.rewards[r]
            if reward.category == "colour" and not reward_rules.earned(reward, colours):
                problems.append(Problem("reward", f"{name} has not opened the portals {r} needs", name, r))
            if reward.category == "number" and len(me.achieved) < reward.stars:
                problems.append(Problem("reward", f"{r} is claimed on opening {reward.stars} portals; {name} "
                                        f"has {len(me.achieved)}", name, r))
        if sum(cat.rewards[r].category == "number" for r in known) > 1:
            problems.append(Problem("reward", f"{name} may claim one number-of-portals reward only", name, "rewards"))
    return problems


def build(players: Sequence[str], options: Mapping[str, Any], pos: Position, rng: Random) -> State:
    state = empty(players, {**options, "catcher": pos.catcher})
    bag = list(state.bag)
    for token in pos.out:
        bag.remove(token)
    state.bag, state.out = tuple(bag), tuple(pos.out)
    state.row, state.discard = tuple(pos.row), tuple(pos.discard)
    for name, me in pos.players.items():
        state.areas[name], state.achieved[name] = tuple(me.area), tuple(me.achieved)
        state.crystals.update({p: frozenset(s) for p, s in me.area.items()})
        state.stockpiles[name] = me.stockpile
        state.gained[name] = me.stockpile + sum(map(len, me.area.values())) - load().stockpile
        state.rewards.update({r: name for r in me.rewards})
    if pos.deck is not None:
        state.deck = tuple(pos.deck)
    else:
        placed = {*pos.row, *pos.discard, *(p for me in pos.players.values() for p in (*me.area, *me.achieved))}
        deck = [p for p in load().portals if p not in placed]
        rng.shuffle(deck)
        state.deck = tuple(deck)
    return state

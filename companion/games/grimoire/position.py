"""A game started from a described position: the table as it lies at the start of the active
player's action phase. Validated like an action: every problem at once, nothing made on refusal.

Anything left out is as the setup would have it. The curses not on the circle are shuffled into
their piles; spells laid out are no longer in the library; madness cards must add up with the pile.
"""
from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.engine.actions import check_bounds
from companion.errors import IllegalAction, MalformedAction, Problem
from companion.games.grimoire import setup
from companion.games.grimoire.catalogue import START, Catalogue, load
from companion.games.grimoire.state import State


class Madness(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    hand: int = Field(default=0, ge=0, le=99)
    support: int = Field(default=0, ge=0, le=99)


class Position(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    page: int = Field(ge=1, le=20)  # the open page, counted from 1
    round: int | None = Field(default=None, ge=1, le=20)  # the round marker's row (default: the page)
    marker: int = Field(default=1, ge=1, le=5)
    fields: dict[str, list[str]] = Field(default_factory=dict)  # "2".."5" -> curse ids
    banished: list[str] = Field(default_factory=list, max_length=20)  # pages before the open one
    madness: dict[str, Madness] = Field(default_factory=dict)
    madness_pile: int | None = Field(default=None, ge=0, le=999)
    spells: dict[str, list[str]] = Field(default_factory=dict)  # default: the four basic spells
    exhausted: dict[str, list[str]] = Field(default_factory=dict)
    out: list[str] = Field(default_factory=list, max_length=8)
    active: str | None = None
    supply: dict[str, dict[str, int]] = Field(default_factory=dict)
    curses_banished: int = Field(default=0, ge=0, le=999)


def from_position(players: Sequence[str], options: Mapping[str, Any], position: Mapping[str, Any], rng: Random) -> State:
    setup.check_options(players, options)
    if options.get("hands") == "tracked":  # a position lists no hands, decks or discard piles
        raise MalformedAction("a described position does not say what each hand holds: start it with 'hands': 'confirm'")
    check_bounds(position, 5)
    try:
        pos = Position.model_validate(dict(position))
    except ValidationError as exc:
        raise MalformedAction(describe(exc)) from None
    state = setup.empty(players, options, rng)
    problems = _problems(state, pos)
    if problems:
        raise IllegalAction(problems)
    _lay(state, pos, rng)
    return state


def describe(exc: ValidationError) -> str:
    """Every shape problem of a position on one line, each naming its key."""
    parts = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(p) for p in error["loc"])
        word = "is unknown" if error["type"] == "extra_forbidden" else f"{error['msg']} (got {error['input']!r:.40})"
        parts.append(f"position key {where!r} {word}")
    return "; ".join(parts)


def _problems(state: State, pos: Position) -> list[Problem]:
    cat = load()
    names = [p.name for p in state.players]
    found = _book_problems(cat, state, pos) + _curse_problems(cat, pos) + _madness_problems(cat, names, pos)
    found += _spell_problems(cat, names, pos)
    for who in [*pos.madness, *pos.spells, *pos.exhausted, *pos.out, *([pos.active] if pos.active else [])]:
        if who not in names:
            found.append(Problem("position-player", f"the position names {who!r}, who is not playing ({', '.join(names)})",
                                 who))
    if pos.active in pos.out or set(pos.out) >= set(names):
        found.append(Problem("position-out", f"the active player must still be in the game; out: {pos.out}", pos.active))
    for element, piles in pos.supply.items():
        if element not in cat.elements or any(k not in ("2", "3") or not 0 <= n <= cat.supply[int(k)] for k, n in piles.items()):
            found.append(Problem("position-supply", f"supply {element!r}: {piles!r} is not 0 to {cat.supply} cards of a "
                                 f"2- or 3-element pile of {', '.join(cat.elements)}", None, element))
    return found


def _book_problems(cat: Catalogue, state: State, pos: Position) -> list[Problem]:
    found = []
    if pos.page > len(state.book):
        found.append(Problem("position-page", f"page {pos.page} is past the grimoire's last page ({len(state.book)})",
                             None, str(pos.page)))
    before = list(state.book[:pos.page - 1])
    if not set(pos.banished) <= set(before):
        found.append(Problem("position-banished", f"banished pages {pos.banished} must be among the pages already turned "
                             f"{before}", None, ",".join(pos.banished)))
    if pos.round is not None and pos.round > pos.page:
        found.append(Problem("position-round", f"the round marker moves once per page: row {pos.round} cannot be reached "
                             f"by page {pos.page}", None, str(pos.round)))
    return found


def _curse_problems(cat: Catalogue, pos: Position) -> list[Problem]:
    found = []
    laid = Counter(c for curses in pos.fields.values() for c in curses)
    for field in pos.fields:
        if not field.isdigit() or int(field) not in cat.curse_fields:
            found.append(Problem("position-field", f"curses lie on fields {list(cat.curse_fields)}, not {field!r}", None, field))
    for curse, n in laid.items():
        if curse not in cat.curses:
            found.append(Problem("position-curse", f"{curse!r} is not a curse of the box (data/grimoire.json)", None, curse))
        elif n > 1:
            found.append(Problem("position-curse", f"curse {curse!r} lies {n} times; the box has one", None, curse))
    return found


def _madness_problems(cat: Catalogue, names: list[str], pos: Position) -> list[Problem]:
    total = cat.madness[len(names)]
    held = sum(m.hand + m.support for m in pos.madness.values())
    pile = total - held if pos.madness_pile is None else pos.madness_pile
    if pile < 0 or held + pile != total:
        return [Problem("position-madness", f"{held} madness cards held and {pile} in the pile make {held + pile}; "
                        f"{len(names)} players play with {total}", None, "madness")]
    return []


def _spell_problems(cat: Catalogue, names: list[str], pos: Position) -> list[Problem]:
    found = []
    learned = Counter(s for spells in pos.spells.values() for s in spells if s not in cat.basic_spells)
    for who, spells in pos.spells.items():
        if len(spells) > cat.max_spells or len(set(spells)) != len(spells):
            found.append(Problem("position-spells", f"{who} lays out {spells}: at most {cat.max_spells} different spells",
                                 who))
        found += [Problem("position-spells", f"{who}'s {s!r} is not a spell of the box", who, s)
                  for s in spells if s not in cat.spells]
    found += [Problem("position-spells", f"library spell {s!r} is laid out {n} times; the box has one", None, s)
              for s, n in learned.items() if n > 1]
    for who, spells in pos.exhausted.items():
        mine = pos.spells.get(who, list(cat.basic_spells))
        found += [Problem("position-exhausted", f"{who}'s exhausted {s!r} is not one of their spells", who, s)
                  for s in spells if s not in mine]
    return found


def _lay(state: State, pos: Position, rng: Random) -> None:
    cat = load()
    state.page, state.round, state.marker = pos.page - 1, (pos.round or pos.page) - 1, pos.marker
    assert state.marker != START
    state.fields = {f: tuple(pos.fields.get(str(f), ())) for f in cat.curse_fields}
    laid = set(state.curses_out)
    state.piles = {pile: setup.shuffled([c for c in ids if c not in laid], rng) for pile, ids in cat.piles.items()}
    before = state.book[:state.page]
    state.banished = tuple(p for p in before if p in pos.banished)
    state.escaped = tuple(p for p in before if p not in pos.banished)
    for player in state.players:
        m = pos.madness.get(player.name, Madness())
        player.madness_hand, player.madness_support = m.hand, m.support
        player.spells = tuple(pos.spells.get(player.name, cat.basic_spells))
        player.exhausted = frozenset(pos.exhausted.get(player.name, ()))
        player.out = player.name in pos.out
    state.madness_pile = cat.madness[len(state.players)] - sum(p.madness_hand + p.madness_support for p in state.players)
    learned = {s for p in state.players for s in p.spells}
    state.library = {e: tuple(s for s in ids if s not in learned) for e, ids in cat.library.items()}
    for element, piles in pos.supply.items():
        state.supply[element].update({int(k): n for k, n in piles.items()})
    state.curses_banished = pos.curses_banished
    if pos.active:
        state.active = [p.name for p in state.players].index(pos.active)
    elif state.current.out:
        state.active = next(i for i, p in enumerate(state.players) if not p.out)
    state.turn = 1

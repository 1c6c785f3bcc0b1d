"""Start from a described position: validated like an action (every card in one place, 28 crystals,
at most 3 spells and 2 familiars, what is assigned to a spell fits it, no witch at 20 magic yet);
every problem at once."""
from __future__ import annotations

from collections import Counter
from random import Random
from typing import Annotated, Any
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.engine.actions import check_bounds
from companion.errors import IllegalAction, MalformedAction, Problem
from companion.games.witchcraft.cards import INGREDIENT, JOKER, SPELL, card, load
from companion.games.witchcraft.cauldron import fits
from companion.games.witchcraft.magic import magic
from companion.games.witchcraft.setup import check_options, empty
from companion.games.witchcraft.state import State
from companion.games.witchcraft.turn import settle

STRUCTURAL = ("position", "witch", "card", "familiar", "spells", "ingredients")
CardId = Annotated[str, Field(min_length=1, max_length=8)]
Count = Annotated[int, Field(ge=0, le=99)]


class Described(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class WitchPosition(Described):
    witch: Annotated[str, Field(max_length=20)]
    crystals: Count
    spells: dict[CardId, list[CardId]] = Field(default_factory=dict, max_length=6)
    inventory: list[CardId] = Field(default_factory=list, max_length=40)
    familiars: list[Annotated[str, Field(max_length=12)]] = Field(default_factory=list, max_length=4)
    cast: list[CardId] = Field(default_factory=list, max_length=30)
    hare_casts: Count = 0
    snake: Annotated[str, Field(max_length=30)] | None = None
    goat_used: bool = False


class Position(Described):
    turn: Annotated[str, Field(max_length=40)]
    market: list[CardId | None] = Field(min_length=9, max_length=9)
    on_market: list[Count] = Field(default_factory=lambda: [0] * 9, min_length=9, max_length=9)
    players: dict[Annotated[str, Field(max_length=40)], WitchPosition] = Field(max_length=6)
    deck: list[CardId] | None = Field(default=None, max_length=95)  # top first; the rest go to the discards
    basic: list[CardId] | None = Field(default=None, max_length=12)  # the basic-spell stack, top first
    familiar_stack: list[Annotated[str, Field(max_length=12)]] | None = Field(default=None, max_length=10)


def parse(raw: Mapping[str, Any]) -> Position:
    check_bounds(raw, max_depth=5)
    try:
        return Position.model_validate(raw)
    except ValidationError as exc:
        said = "; ".join(f"key {'.'.join(map(str, e['loc']))!r}: {e['msg']}" for e in exc.errors(include_url=False))
        raise MalformedAction("position: " + said) from None


def from_position(players: Sequence[str], options: Mapping[str, Any], raw: Mapping[str, Any], rng: Random) -> State:
    check_options(players, options)
    pos = parse(raw)
    problems = problems_of(players, pos)
    if any(p.rule in STRUCTURAL for p in problems):
        raise IllegalAction(problems)  # cards or witches unknown: nothing more can be laid out
    state, unfit = build(players, pos, rng, options.get("draws") == "table")
    problems += unfit + [Problem("goal", f"{p} has {magic(state, p)} magic: the game would be over", p, "magic")
                         for p in players if magic(state, p) >= load().goal]
    if problems:
        raise IllegalAction(problems)
    return state


def problems_of(players: Sequence[str], pos: Position) -> list[Problem]:
    box = load()
    problems = []
    if sorted(pos.players) != sorted(players):
        problems.append(Problem("position", f"the position describes {sorted(pos.players)}, the table is "
                                f"{list(players)}", None, "players"))
    if pos.turn not in players:
        problems.append(Problem("position", f"{pos.turn!r} is not at the table", pos.turn, "turn"))
    witches = Counter(w.witch for w in pos.players.values())
    problems += [Problem("witch", f"{w!r} is not a witch ({', '.join(box.witches)})", None, w)
                 for w in witches if w not in box.witches]
    problems += [Problem("witch", f"{w} is played {n} times", None, w) for w, n in witches.items() if n > 1]
    problems += _cards(pos) + _crystals(pos)
    for name, me in pos.players.items():
        problems += _witch(name, me)
    return problems


def _cards(pos: Position) -> list[Problem]:
    box = load()
    where = [c for c in pos.market if c is not None] + (pos.deck or []) + (pos.basic or [])
    for me in pos.players.values():
        where += [*me.spells, *(c for cs in me.spells.values() for c in cs), *me.inventory, *me.cast]
    problems = [Problem("card", f"no card {c!r} in the box", None, c) for c in dict.fromkeys(where) if c not in box.cards]
    problems += [Problem("conservation", f"card {c} is in {n} places at once", None, c)
                 for c, n in Counter(where).items() if n > 1]
    familiars = Counter([f for me in pos.players.values() for f in me.familiars] + (pos.familiar_stack or []))
    problems += [Problem("familiar", f"no familiar {f!r} ({', '.join(box.familiars)})", None, f)
                 for f in familiars if f not in box.familiars]
    problems += [Problem("conservation", f"there is one {f}, not {n}", None, f) for f, n in familiars.items() if n > 1]
    return problems


def _crystals(pos: Position) -> list[Problem]:
    total = sum(me.crystals for me in pos.players.values()) + sum(pos.on_market)
    if total > load().crystals:
        return [Problem("conservation", f"{total} crystals with the witches and on the market; the box has "
                        f"{load().crystals}", None, "crystals")]
    return []


def _witch(name: str, me: WitchPosition) -> list[Problem]:
    box = load()
    problems = []
    if len(me.spells) > box.max_spells:
        problems.append(Problem("spell-limit", f"{name} has {len(me.spells)} spells; 3 at most", name, "spells"))
    if len(me.familiars) > box.max_familiars:
        problems.append(Problem("familiars", f"{name} has {len(me.familiars)} familiars; 2 at most", name, "familiars"))
    for cid in [*me.spells, *me.cast]:
        if cid in box.cards and card(cid).category != SPELL:
            problems.append(Problem("spells", f"{cid} is not a spell", name, cid))
    for cid in [c for cs in me.spells.values() for c in cs] + me.inventory:
        if cid in box.cards and card(cid).category not in (INGREDIENT, JOKER):
            problems.append(Problem("ingredients", f"{cid} is not an ingredient", name, cid))
    if me.snake is not None and (me.snake not in box.ingredients or "snake" not in me.familiars):
        problems.append(Problem("snake", f"{name}'s Snake ingredient {me.snake!r} needs the Snake and one of "
                                f"{', '.join(box.ingredients)}", name, me.snake))
    if me.hare_casts and "hare" not in me.familiars:
        problems.append(Problem("hare", f"{name} counts Hare casts without the Hare", name, "hare"))
    return problems


def build(players: Sequence[str], pos: Position, rng: Random, table: bool = False) -> tuple[State, list[Problem]]:
    """``table``: the group's own cards from here on (an empty market space waits for the card it turns up)."""
    state = empty(players, {p: me.witch for p, me in pos.players.items()})
    state.table_draws = table
    state.market, state.on_market = tuple(pos.market), tuple(pos.on_market)
    for p, me in pos.players.items():
        state.crystals[p], state.inventory[p], state.familiars[p] = me.crystals, tuple(me.inventory), tuple(me.familiars)
        state.spells[p], state.cast[p], state.hare_casts[p] = tuple(me.spells), tuple(me.cast), me.hare_casts
        state.assigned.update({s: () for s in me.spells})
        if me.snake is not None:
            state.snake[p] = me.snake
        if me.goat_used:
            state.goat_used = state.goat_used | {p}
    unfit = _assign_described(state, pos)
    state.supply = load().crystals - sum(state.crystals.values()) - sum(state.on_market)
    placed = {c for c in pos.market if c} | {c for p in players for c in (*state.inventory[p], *state.spells[p], *state.cast[p])}
    placed |= {c for cs in state.assigned.values() for c in cs}
    box = load()
    state.deck, state.discard = _pile([c for c in box.deck if c not in placed], pos.deck, rng)
    state.basic, _ = _pile([c for c in box.basic if c not in placed], pos.basic, rng)
    held = {f for p in players for f in state.familiars[p]}
    state.familiar_stack, state.familiar_discard = _pile([f for f in box.familiars if f not in held],
                                                         pos.familiar_stack, rng)
    state.turn = list(players).index(pos.turn)
    settle(state, rng)
    return state, unfit


def _pile(free: list[str], described: list[str] | None, rng: Random) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A stack as described (what it leaves out is discarded), or everything free, shuffled."""
    if described is not None:
        return tuple(described), tuple(c for c in free if c not in described)
    rng.shuffle(free)
    return tuple(free), ()


def _assign_described(state: State, pos: Position) -> list[Problem]:
    """What the position says is assigned must fit its spell, and leave it uncast."""
    problems = []
    for p, me in pos.players.items():
        for spell, cards in me.spells.items():
            for cid in cards:
                if not fits(state, p, spell, cid):
                    problems.append(Problem("assigned", f"{cid} ({card(cid).kind or 'joker'}) does not fit {spell} "
                                            f"({' + '.join(card(spell).recipe)}) or the spell would be cast", p, cid))
                    continue
                state.assigned[spell] = state.assigned[spell] + (cid,)
            if cards and len(state.assigned[spell]) == len(card(spell).recipe):
                problems.append(Problem("assigned", f"{spell} has every ingredient: it would have been cast", p, spell))
        problems += [Problem("assigned", f"{cid} in {p}'s inventory fits {spell}: it would have been assigned",
                             p, cid) for cid in me.inventory for spell in me.spells
                     if cid in load().cards and spell in state.assigned and fits(state, p, spell, cid)][:1]
    return problems

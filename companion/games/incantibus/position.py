"""A game started from a described position instead of the setup: a table set up by hand halfway, a
golden test that begins at the final battle, a game restored after the box was knocked over.

The position names kinds, never token ids (the companion gives each token its id as it lays it out):

```json
{"phase": "dungeon", "wands": {"Lera": 3, "Kirill": 1, "Katya": 4, "Rosa": 2},
 "satchels": {"Lera": ["ghost", "gold_2"], "Katya": ["blue_1"], "Kirill": [], "Rosa": ["spell"]},
 "moat": ["mistletoe"], "potions": ["green_1", null, "red_2"], "cards": ["RETIRO", "LOCUS", "FORTUNA"],
 "sorcerers": ["white_lady", "face_down", null, ...]}
```

It is checked like an action, every problem at once (``IllegalAction``): every kind known, no more
tokens of a kind than ``data/tokens.json`` holds, each player one of the wands in play, every satchel
able to hold what it is given, the sorcerer spaces of the player count, a room tile of the tower.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from random import Random
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.engine.actions import Word, describe
from companion.errors import IllegalAction, MalformedAction, Problem
from companion.games.incantibus import setup as box, tower
from companion.games.incantibus.satchel import fits
from companion.games.incantibus.state import State
from companion.games.incantibus.tokens import BOOK, CARD, POTION, ROOM, SECRET, SORCERER, VISIBLE, Catalogue, load

FACE_DOWN = "face_down"
Kinds = Annotated[list[Word], Field(max_length=80)]  # the most tokens in one place: the moat at the end


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class RoomPosition(_Model):
    """The room tile being examined: the kinds still face up on it, and how many lie face down."""

    name: Word
    visible: Annotated[list[Word], Field(max_length=16)] = []
    secret: Annotated[int, Field(ge=0, le=16)] = 0


class Position(_Model):
    phase: Literal["room", "dungeon"]
    wands: Annotated[dict[Word, int], Field(max_length=8)]
    satchels: Annotated[dict[Word, Kinds], Field(max_length=8)] = {}
    moat: Kinds = []
    room: RoomPosition | None = None
    rooms_left: Annotated[list[Word], Field(max_length=8)] = []  # room tiles still in the tower
    potions: Annotated[list[Word | None], Field(max_length=3)] = []
    books: Annotated[list[Word | None], Field(max_length=3)] = []
    sorcerers: Annotated[list[Word | None], Field(max_length=12)] = []  # a kind face up, "face_down", null: taken
    cards: Annotated[list[Word], Field(max_length=3)] = []  # the open spell cards
    cards_used: Annotated[list[Word], Field(max_length=12)] = []
    specials: Annotated[list[Word], Field(max_length=6)] | None = None  # default: those nobody holds

    def placed(self) -> list[str]:
        """Every kind the position puts on the table, in a satchel or in the moat (cards aside)."""
        sorcerers = [s for s in self.sorcerers if s is not None and s != FACE_DOWN]
        room = self.room.visible if self.room else []
        return [*(k for kinds in self.satchels.values() for k in kinds), *self.moat, *room, *sorcerers,
                *(p for p in self.potions if p), *(b for b in self.books if b)]


def parse(raw: Mapping[str, Any]) -> Position:
    try:
        return Position.model_validate(dict(raw))
    except ValidationError as exc:
        raise MalformedAction(describe(exc, what="position", tagged=False)) from None


def from_position(players: Sequence[str], options: Mapping[str, Any], raw: Mapping[str, Any], rng: Random) -> State:
    """The state ``raw`` describes; MalformedAction for its shape, IllegalAction with every problem."""
    box.check_options(players, options)
    position = parse(raw)
    problems = check(players, options, position)
    if problems:
        raise IllegalAction(problems)
    return build(players, options, position, rng)


# -- checks: every problem at once ----------------------------------------------------------

def check(players: Sequence[str], options: Mapping[str, Any], position: Position) -> list[Problem]:
    cat, expert = load(), bool(options.get("expert", False))
    found = _player_problems(cat, players, options, position)
    found += _kind_problems(cat, position, expert)
    if not found:  # counting needs known kinds
        found += _place_problems(cat, position) + _supply_problems(cat, position)
        found += _satchel_problems(players, options, position)
    found += _space_problems(cat, players, position, expert)
    return found + _room_problems(cat, players, position)


def _player_problems(cat: Catalogue, players: Sequence[str], options: Mapping[str, Any],
                     position: Position) -> list[Problem]:
    found = [Problem("position-wands", f"{p} holds no wand in the position", p) for p in players
             if p not in position.wands]
    found += [Problem("position-players", f"{name!r} is not playing", name) for name in
              [*position.wands, *position.satchels] if name not in players]
    strengths = sorted(position.wands.values())
    if not found and strengths != sorted(cat.wands[len(players)]):
        found.append(Problem("position-wands", f"the wands in play with {len(players)} players are "
                             f"{sorted(cat.wands[len(players)])}, not {strengths}"))
    if options.get("deal") and dict(options["deal"]) != position.wands:
        found.append(Problem("position-wands", "option 'deal' and the position's wands differ; give only one"))
    return found


def _kind_problems(cat: Catalogue, position: Position, expert: bool) -> list[Problem]:
    allowed = set(cat.kinds) - ({k for k in cat.pools[BOOK]} if not expert else set())
    found = [Problem("position-kind", f"{kind!r} is not a token of Incantibus (data/tokens.json)"
                     + ("; magic books are played only in expert mode" if kind in cat.pools[BOOK] else ""), None, kind)
             for kind in sorted(set(position.placed() + (position.specials or [])) - allowed)]
    found += [Problem("position-kind", f"{card!r} is not a spell card", None, card)
              for card in sorted(set(position.cards + position.cards_used) - set(cat.pools[CARD]))]
    return found


PLACES = {"sorcerers": "sorcerer", "potions": "potion", "books": "book", "specials": "special"}


def _place_problems(cat: Catalogue, position: Position) -> list[Problem]:
    """Each space holds only its own kind of token (a ghost is not a potion)."""
    found = [Problem("position-place", f"{kind!r} cannot lie in the {place}: only {category} tokens do", None, kind)
             for place, category in PLACES.items() for kind in getattr(position, place) or []
             if kind not in (None, FACE_DOWN) and cat.kinds[kind].category != category]
    if position.room:
        found += [Problem("position-place", f"{kind!r} is not a visible token of a room", None, kind)
                  for kind in position.room.visible if kind not in cat.pools[VISIBLE]]
    return found


def _supply_problems(cat: Catalogue, position: Position) -> list[Problem]:
    """No kind more often than the box holds it (a token twice, a third vampire)."""
    box_has = Counter(cat.pools[VISIBLE] + cat.pools[SECRET] + cat.pools[POTION] + cat.pools[BOOK]
                      + cat.pools[SORCERER] + cat.specials + cat.pools[CARD])
    placed = Counter(position.placed() + list(position.specials or ()) + position.cards + position.cards_used)
    found = [Problem("position-supply", f"{n} {kind!r} tokens are placed but the box holds {box_has[kind]}",
                     None, kind) for kind, n in sorted(placed.items()) if n > box_has[kind]]
    if position.specials is not None:
        accounted = Counter(k for k in placed.elements() if k in cat.specials)
        found += [Problem("position-supply", f"{n} {kind!r} special tokens are accounted for (special area, satchels, "
                          f"moat) but the box holds {Counter(cat.specials)[kind]}", None, kind)
                  for kind, n in sorted((Counter(cat.specials) - accounted).items())]
    visible = Counter(position.room.visible if position.room else [])
    found += [Problem("position-supply", f"{n} {kind!r} tokens lie face up in the room but the box holds "
                      f"{Counter(cat.pools[VISIBLE])[kind]} visible ones", None, kind)
              for kind, n in sorted(visible.items()) if n > Counter(cat.pools[VISIBLE])[kind]]
    return found


def _satchel_problems(players: Sequence[str], options: Mapping[str, Any], position: Position) -> list[Problem]:
    trial = box.setup_box(players, options)
    found = []
    for player, kinds in position.satchels.items():
        ids = [f"T{i}" for i in range(len(kinds))]
        trial.kinds.update(zip(ids, kinds))
        if player in players and not fits(trial, ids):
            found.append(Problem("position-satchel", f"{player}'s satchel cannot hold {kinds} (the "
                                 f"{'expert' if trial.expert else 'apprentice'} side's cells and purse)", player))
    return found


def _space_problems(cat: Catalogue, players: Sequence[str], position: Position, expert: bool) -> list[Problem]:
    found = _sorcerer_problems(cat, players, position)
    if len(position.potions) != cat.open_slots:
        found.append(Problem("position-potions", f"there are {cat.open_slots} potion spaces, not {len(position.potions)}"))
    if len(position.books) != (cat.open_slots if expert else 0):
        found.append(Problem("position-books", f"{cat.open_slots if expert else 0} magic book spaces in this mode, "
                             f"not {len(position.books)}"))
    return found


def _sorcerer_problems(cat: Catalogue, players: Sequence[str], position: Position) -> list[Problem]:
    """One entry per sorcerer space of the player count, and an empty space for each sorcerer taken."""
    found = []
    spaces = cat.sorcerer_spaces[len(players)]
    if len(position.sorcerers) != spaces:
        found.append(Problem("position-sorcerers", f"{len(players)} players fight over {spaces} sorcerer "
                             f"spaces, not {len(position.sorcerers)}"))
    taken = sum(1 for k in position.placed() if cat.kinds.get(k) and cat.kinds[k].category == "sorcerer")
    taken -= sum(1 for s in position.sorcerers if s not in (None, FACE_DOWN))
    if position.sorcerers.count(None) != taken:
        found.append(Problem("position-sorcerers", f"{position.sorcerers.count(None)} sorcerer spaces are empty "
                             f"but {taken} sorcerers are in satchels or the moat"))
    return found


def _room_problems(cat: Catalogue, players: Sequence[str], position: Position) -> list[Problem]:
    tiles = [r.name for r in cat.rooms.values() if r.symbol in cat.symbols_used[len(players)]]
    found = [Problem("position-room", f"{name!r} is not a room tile with {len(players)} players ({', '.join(tiles)})",
                     None, name) for name in position.rooms_left if name not in tiles or name == "roof"]
    if len(set(position.rooms_left)) != len(position.rooms_left):
        found.append(Problem("position-room", f"a room tile is left twice: {position.rooms_left}"))
    if position.phase == "dungeon":
        if position.room is not None or position.rooms_left:
            found.append(Problem("position-room", "in the dungeon no room is examined and no tile is left"))
        return found
    if position.room is None:
        return [*found, Problem("position-room", "a position in a room names the room being examined")]
    return found + _tile_problems(cat, tiles, position.room, position.rooms_left)


def _tile_problems(cat: Catalogue, tiles: list[str], room: RoomPosition, left: list[str]) -> list[Problem]:
    """The room being examined: a tile of the tower, holding no more than the tile lays out, and at
    least 2 tokens (with fewer the table has already left it)."""
    found = []
    if room.name not in tiles or room.name in left:
        found.append(Problem("position-room", f"{room.name!r} is not a room tile being examined", None, room.name))
    elif len(room.visible) > cat.rooms[room.name].visible or room.secret > cat.rooms[room.name].secret:
        found.append(Problem("position-room", f"the {room.name} tile holds at most {cat.rooms[room.name].visible} "
                             f"visible and {cat.rooms[room.name].secret} secret tokens", None, room.name))
    if len(room.visible) + room.secret < 2:
        found.append(Problem("position-room", "a room is left once fewer than 2 tokens remain in it", None, room.name))
    return found


# -- building the state ---------------------------------------------------------------------

def build(players: Sequence[str], options: Mapping[str, Any], position: Position, rng: Random) -> State:
    """Known tokens leave the box first (the room's face-up ones from the visible tokens, then the
    satchels, the moat and the spaces); the face-down ones are drawn from what is left, as at the table."""
    state = box.setup_box(players, options, rng)
    state.wands, state.phase = dict(position.wands), position.phase
    state.room = position.room.name if position.room else None
    visible = [state.new_token(VISIBLE, k, False) for k in (position.room.visible if position.room else [])]
    state.pools[ROOM] = tuple(position.rooms_left)
    for player in players:
        state.satchels[player] = tuple(_token(state, k) for k in position.satchels.get(player, []))
    state.moat = tuple(_token(state, k) for k in position.moat)
    state.potions = tuple(None if k is None else state.new_token(POTION, k, False) for k in position.potions)
    state.books = tuple(None if k is None else state.new_token(BOOK, k, False) for k in position.books)
    _specials(state, position)
    _sorcerers(state, position, rng)
    _cards(state, position)
    secret = [t for _ in range(position.room.secret if position.room else 0)
              if (t := tower.draw(state, SECRET, rng, True)) is not None]
    if position.room and len(secret) < position.room.secret:
        raise IllegalAction(Problem("position-supply", f"only {len(secret)} secret tokens are left in the box for "
                                    f"the {position.room.name}, not {position.room.secret}", None, position.room.name))
    state.slots = tuple(visible + secret)
    state.pending = tower.next_pending(state)
    return state


def _specials(state: State, position: Position) -> None:
    """The special area: as given, or every special token nobody holds."""
    if position.specials is None:
        return
    wanted = Counter(position.specials)
    kept = []
    for token in state.specials:
        if wanted[state.kinds[token] or ""] > 0:
            wanted[state.kinds[token] or ""] -= 1
            kept.append(token)
    state.specials = tuple(kept)


def _token(state: State, kind: str) -> str:
    """A token of ``kind`` out of the box: the special area's own, else a visible one before a secret one."""
    special = next((t for t in state.specials if state.kinds[t] == kind), None)
    if special is not None:
        state.specials = tuple(t for t in state.specials if t != special)
        return special
    pool = next(p for p in (VISIBLE, SECRET, POTION, BOOK, SORCERER) if kind in state.pools[p])
    return state.new_token(pool, kind, False)


def _sorcerers(state: State, position: Position, rng: Random) -> None:
    """Face-up sorcerers first (their kinds leave the box), then the face-down ones and those set aside
    are drawn from what is left, unseen, as at the setup."""
    spaces = [None if k in (None, FACE_DOWN) else state.new_token(SORCERER, k, False) for k in position.sorcerers]
    state.face_up = frozenset(i for i, k in enumerate(position.sorcerers) if k not in (None, FACE_DOWN))
    for i, k in enumerate(position.sorcerers):
        if k == FACE_DOWN:
            spaces[i] = tower.draw(state, SORCERER, rng, True)
    state.sorcerers = tuple(spaces)
    set_aside = len(load().pools[SORCERER]) - len(position.sorcerers)
    state.aside = tuple(tower.draw(state, SORCERER, rng, True) or "" for _ in range(set_aside))


def _cards(state: State, position: Position) -> None:
    state.cards = tuple(position.cards)
    state.cards_used = tuple(position.cards_used)
    deck = list(state.pools[CARD])
    for card in position.cards + position.cards_used:
        deck.remove(card)
    state.pools[CARD] = tuple(deck)

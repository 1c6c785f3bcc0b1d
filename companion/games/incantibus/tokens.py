"""The token catalogue: every kind of token, card, room and sorcerer, loaded from ``data/tokens.json``.

The file is the one place the owner of the physical game edits: numbers the rulebook does not print
carry ``"source": "gap"`` there and are playable placeholders. Loading checks that the counts add up
to the totals the rulebook does print, so a typo in the file is refused with the bad value named.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from collections.abc import Mapping
from typing import NotRequired, TypedDict

DATA = Path(__file__).with_name("data") / "tokens.json"

# Pools: where a physical token comes from. Each pool is a multiset of kinds not yet seen.
VISIBLE, SECRET, POTION, BOOK, SORCERER, CARD, ROOM = "J", "I", "C", "G", "O", "B", "R"
SPELL_CARDS = ("ALKIMIA", "RETIRO", "LOCUS", "ULTIMUS", "IMPERIUM", "OCULUS", "PHILOSOPHIA", "FORTUNA")


Need = int | str | tuple[int, ...]  # a count of tokens, a potion's colour, or the wand strengths that do


@dataclass(frozen=True)
class Kind:
    """One kind of physical token. ``cell`` is the satchel cell it goes in (``stack`` cells hold any number)."""

    name: str
    category: str  # ingredient weapon monster gold spell special potion book sorcerer
    cell: str
    points: int = 0
    catches: str | None = None  # weapons: the monster they catch
    colour: str | None = None  # potions
    recipe: tuple[str, ...] = ()  # potions: the ingredients, one entry per token needed
    condition: tuple[tuple[str, int], ...] = ()  # books: (what, how many)
    needs: tuple[tuple[str, Need], ...] = ()  # sorcerers: (what, how many, which colour or which wands)


class Total(TypedDict):
    total: int  # as the rulebook prints it


class KindEntry(TypedDict):
    category: str
    points: int
    visible: object  # counts, checked by _count
    secret: object
    catches: NotRequired[str]


class SpecialEntry(TypedDict):
    cell: str
    count: object
    points: NotRequired[int]


class PotionEntry(TypedDict):
    recipe: list[str]
    points: int
    colour: str


class BookEntry(TypedDict):
    points: int
    condition: dict[str, int]


class SorcererEntry(TypedDict):
    points: int
    count: object
    needs: dict[str, int | str | list[int]]


class TokensFile(TypedDict):
    """The sections of ``data/tokens.json`` the token kinds are read from."""

    kinds: dict[str, KindEntry]
    pools: dict[str, Total]
    specials: dict[str, SpecialEntry]
    specials_total: Total
    potions: dict[str, PotionEntry]
    potions_total: Total
    books: dict[str, BookEntry]
    sorcerers: dict[str, SorcererEntry]
    sorcerers_total: Total


@dataclass(frozen=True)
class Room:
    name: str
    visible: int
    secret: int
    symbol: str


@dataclass(frozen=True)
class Catalogue:
    kinds: dict[str, Kind]
    pools: dict[str, tuple[str, ...]]  # pool -> kinds with repetition, in catalogue order
    specials: tuple[str, ...]  # the special area's tokens, with repetition
    rooms: dict[str, Room]
    symbols_used: dict[int, tuple[str, ...]]
    sorcerer_spaces: dict[int, int]
    wands: dict[int, tuple[int, ...]]
    satchel: dict[str, dict[str, int]]  # side -> cell -> capacity
    open_slots: int = 3
    gaps: tuple[str, ...] = field(default=())


class CatalogueError(ValueError):
    """The token file is not consistent with the rulebook's printed totals."""


@lru_cache(maxsize=4)
def load(path: Path = DATA) -> Catalogue:
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    kinds: dict[str, Kind] = {}
    pools: dict[str, list[str]] = {VISIBLE: [], SECRET: [], POTION: [], BOOK: [], SORCERER: [], CARD: []}
    _load_table_tokens(raw, kinds, pools)
    specials = _load_specials(raw, kinds)
    _load_potions(raw, kinds, pools)
    _load_books(raw, kinds, pools)
    _load_sorcerers(raw, kinds, pools)
    for card, entry in raw["spell_cards"].items():
        pools[CARD] += [card] * _count(entry["count"], f"spell card {card!r}")
    rooms = {name: Room(name, r["visible"], r["secret"], r["symbol"]) for name, r in raw["rooms"].items()}
    _check_total(len(pools[CARD]), raw["spell_cards_total"]["total"], "spell cards")
    return Catalogue(
        kinds=kinds, pools={k: tuple(v) for k, v in pools.items()}, specials=tuple(specials), rooms=rooms,
        symbols_used={int(n): tuple(s) for n, s in raw["room_symbols_used"].items() if n.isdigit()},
        sorcerer_spaces={int(n): v for n, v in raw["sorcerer_spaces"].items() if n.isdigit()},
        wands={int(n): tuple(v) for n, v in raw["wands"].items() if n.isdigit()},
        satchel={side: {c: v for c, v in cells.items() if isinstance(v, int)} for side, cells in raw["satchel"].items()},
        open_slots=raw["open_potions"]["n"], gaps=tuple(gaps(raw)))


def _count(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CatalogueError(f"{what}: a count must be a non-negative integer, not {value!r}")
    return value


def _check_total(got: int, printed: int, what: str) -> None:
    if got != printed:
        raise CatalogueError(f"the rulebook prints {printed} {what} but data/tokens.json lists {got!r}")


def _load_table_tokens(raw: TokensFile, kinds: dict[str, Kind], pools: dict[str, list[str]]) -> None:
    for name, entry in raw["kinds"].items():
        kinds[name] = Kind(name, entry["category"], entry["category"], entry["points"], catches=entry.get("catches"))
        pools[VISIBLE] += [name] * _count(entry["visible"], f"visible {name!r}")
        pools[SECRET] += [name] * _count(entry["secret"], f"secret {name!r}")
    _check_total(len(pools[VISIBLE]), raw["pools"]["visible"]["total"], "visible tokens")
    _check_total(len(pools[SECRET]), raw["pools"]["secret"]["total"], "secret tokens")
    for k in kinds.values():
        if k.catches is not None and kinds.get(k.catches, None) is None:
            raise CatalogueError(f"weapon {k.name!r} catches unknown monster {k.catches!r}")


def _load_specials(raw: TokensFile, kinds: dict[str, Kind]) -> list[str]:
    specials: list[str] = []
    for name, s in raw["specials"].items():
        kinds[name] = Kind(name, "special", s["cell"], s.get("points", 0))
        specials += [name] * _count(s["count"], f"special {name!r}")
    _check_total(len(specials), raw["specials_total"]["total"], "special tokens")
    return specials


def _load_potions(raw: TokensFile, kinds: dict[str, Kind], pools: dict[str, list[str]]) -> None:
    for name, p in raw["potions"].items():
        for ingredient in p["recipe"]:
            if kinds.get(ingredient) is None or kinds[ingredient].category != "ingredient":
                raise CatalogueError(f"potion {name!r} needs unknown ingredient {ingredient!r}")
        kinds[name] = Kind(name, "potion", "potion", p["points"], colour=p["colour"], recipe=tuple(p["recipe"]))
        pools[POTION].append(name)
    _check_total(len(pools[POTION]), raw["potions_total"]["total"], "potion tokens")


def _load_books(raw: TokensFile, kinds: dict[str, Kind], pools: dict[str, list[str]]) -> None:
    for name, b in raw["books"].items():
        kinds["book_" + name] = Kind("book_" + name, "book", "book", b["points"],
                                     condition=tuple(b["condition"].items()))
        pools[BOOK].append("book_" + name)


def _load_sorcerers(raw: TokensFile, kinds: dict[str, Kind], pools: dict[str, list[str]]) -> None:
    for name, s in raw["sorcerers"].items():
        needs = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in s["needs"].items())
        kinds[name] = Kind(name, "sorcerer", "sorcerer", s["points"], needs=needs)
        pools[SORCERER] += [name] * _count(s["count"], f"sorcerer {name!r}")
    _check_total(len(pools[SORCERER]), raw["sorcerers_total"]["total"], "sorcerer tokens")


def gaps(raw: Mapping[str, object], where: str = "") -> list[str]:
    """Every field the file marks as a gap, as ``section.entry.field`` paths (for docs and tests)."""
    found: list[str] = []
    for key, value in raw.items():
        if not isinstance(value, dict):
            continue
        source = value.get("source")
        if source == "gap":
            found.append(f"{where}{key}")
        elif isinstance(source, dict):
            found += [f"{where}{key}.{f}" for f, s in source.items() if s == "gap"]
        found += gaps({k: v for k, v in value.items() if k != "source"}, f"{where}{key}.")
    return found

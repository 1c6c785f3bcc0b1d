"""The parts of the box the companion keeps, loaded from ``data/grimoire.json``.

The German rulebook gives the order of play but prints no card texts: every number it does not give
is a ``"source": "gap"`` placeholder in the file, for the owner of the box to correct from the cards.
Loading refuses a file that cannot be played (a curse without four elements, a page asking for a
pile that does not exist, a difficulty row of the wrong length), naming the bad value.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict

DATA = Path(__file__).with_name("data") / "grimoire.json"
START = 0  # the start field ↺ of the ritual circle; fields 1-5 follow it clockwise
FIELDS = 6
MIXED = "vier"  # the pile of 4-element curses the round marker asks for



@dataclass(frozen=True)
class Dose:
    """How many madness cards are dealt or cured, and to whom: the active player or each player still in."""

    who: Literal["active", "each"]
    n: int

    def as_json(self) -> dict[str, object]:
        return {"who": self.who, "n": self.n}


Effect = dict[Literal["madness", "cure"], Dose]  # as the data file writes it: {"madness": {"who": "each", "n": 1}}


def effect_json(effect: Effect) -> dict[str, object]:
    """An effect as the data file writes it, for the display."""
    return {kind: dose.as_json() for kind, dose in effect.items()}


class CursePile(TypedDict):
    """A pile of curse cards in the data file: the four elements each card shows."""

    cards: list[list[str]]


class PageEntry(TypedDict):
    """A page of the book in the data file."""

    de: str
    en: str
    last: NotRequired[bool]
    damage: dict[str, dict[str, object]]
    reward: dict[str, dict[str, object]]
    arrival: dict[str, dict[str, object]]
    curses: dict[str, int]


class SpellEntry(TypedDict):
    """A spell in the data file (library spells also carry their id and level)."""

    de: str
    element: str
    cost: dict[str, int]
    id: NotRequired[str]
    level: NotRequired[int]


class CharacterEntry(TypedDict):
    """A character sheet in the data file: its name and its 1-element cards by element."""

    de: str
    cards: dict[str, int]


class CatalogueError(ValueError):
    """The data file cannot be played as it stands."""


@dataclass(frozen=True)
class Page:
    """One page of the grimoire: the monster it opens, what it does on arrival, on escaping, when banished."""

    id: str
    de: str
    en: str
    last: bool
    damage: Effect
    reward: Effect
    arrival: Effect
    curses: dict[str, int]  # its own curses: pile -> how many


@dataclass(frozen=True)
class Spell:
    id: str
    de: str
    element: str
    level: int
    cost: dict[str, int]


@dataclass(frozen=True)
class Character:
    """A character sheet: the 1-element cards its player starts with, element -> how many."""

    id: str
    de: str
    cards: dict[str, int]


@dataclass(frozen=True)
class Catalogue:
    player_counts: tuple[int, ...]
    elements: dict[str, str]  # German -> English
    field_effects: dict[int, Effect]
    curse_fields: tuple[int, ...]
    curse_effect: Effect
    curses: dict[str, tuple[str, ...]]  # curse id -> its four elements
    piles: dict[str, tuple[str, ...]]  # pile -> curse ids in box order
    madness: dict[int, int]  # player count -> madness cards in the pile
    madness_out: int
    hand_size: int
    opening_hand: int
    characters: dict[str, Character]  # sheet id -> its 1-element cards
    max_spells: int
    learn_cost: int
    cure_cost: int
    supply: dict[int, int]  # 2 or 3 -> cards in each element's pile
    middle_pages: int
    pages: dict[str, Page]
    difficulty: dict[str, tuple[int, ...]]
    basic_spells: tuple[str, ...]
    library: dict[str, tuple[str, ...]]  # element -> spell ids, top (lowest level) first
    spells: dict[str, Spell]
    gaps: tuple[str, ...]

    def pile_of(self, curse: str) -> str:
        return curse.rsplit("-", 1)[0]

    @property
    def rounds(self) -> int:
        return self.middle_pages + 1


@lru_cache(maxsize=4)
def load(path: Path = DATA) -> Catalogue:
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    elements: dict[str, str] = raw["elements"]["value"]
    curses, piles = _curses(raw["curses"], elements)
    pages = {pid: _page(pid, p, piles) for pid, p in raw["pages"].items()}
    spells = _spells(raw["basic_spells"]["value"], raw["library"]["value"], elements)
    cat = Catalogue(
        player_counts=tuple(raw["player_counts"]["value"]), elements=elements,
        field_effects={int(f): _effect(v["effect"], f"field {f}") for f, v in raw["ritual_fields"].items()},
        curse_fields=tuple(raw["curse_fields"]["value"]), curse_effect=_effect(raw["curse_effect"]["value"], "curse_effect"),
        curses=curses, piles=piles, madness={int(n): v for n, v in raw["madness_pile"]["value"].items()},
        madness_out=raw["madness_out"]["value"], hand_size=raw["hand_size"]["value"],
        opening_hand=raw["opening_hand"]["value"], characters=_characters(raw["characters"]["value"], elements),
        max_spells=raw["max_spells"]["value"],
        learn_cost=raw["learn_cost"]["value"], cure_cost=raw["cure_cost"]["value"],
        supply={int(v): n for v, n in raw["supply"]["value"].items()}, middle_pages=raw["middle_pages_in_book"]["value"],
        pages=pages, difficulty={k: tuple(v) for k, v in raw["difficulty"]["value"].items()},
        basic_spells=tuple(raw["basic_spells"]["value"]),
        library={e: tuple(s["id"] for s in pile) for e, pile in raw["library"]["value"].items()}, spells=spells,
        gaps=tuple(_gaps(raw)))
    _check(cat)
    return cat


def _curses(raw: dict[str, CursePile], elements: dict[str, str]) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    curses: dict[str, tuple[str, ...]] = {}
    piles: dict[str, tuple[str, ...]] = {}
    for pile, entry in raw.items():
        ids = []
        for i, shown in enumerate(entry["cards"], start=1):
            if len(shown) != 4 or not set(shown) <= set(elements):
                raise CatalogueError(f"curse {i} of pile {pile!r} shows {shown!r}, not four of {sorted(elements)}")
            curses[f"{pile}-{i}"] = tuple(shown)
            ids.append(f"{pile}-{i}")
        piles[pile] = tuple(ids)
    return curses, piles


def _page(pid: str, raw: PageEntry, piles: dict[str, tuple[str, ...]]) -> Page:
    bad = [p for p in raw["curses"] if p not in piles]
    if bad:
        raise CatalogueError(f"page {pid!r} asks for curses of pile {bad[0]!r}; the piles are {sorted(piles)}")
    return Page(pid, raw["de"], raw["en"], bool(raw.get("last")), _effect(raw["damage"], pid), _effect(raw["reward"], pid),
                _effect(raw["arrival"], pid), dict(raw["curses"]))


def _effect(raw: Mapping[str, Mapping[str, object]], where: str) -> Effect:
    effect: Effect = {}
    for kind, what in raw.items():
        who, n = what.get("who"), what.get("n")
        if kind not in ("madness", "cure") or who not in ("active", "each") or not isinstance(n, int):
            raise CatalogueError(f"effect {kind}: {what!r} of {where!r} is not {{'madness'|'cure': {{'who': 'active'|'each', 'n': int}}}}")
        effect["madness" if kind == "madness" else "cure"] = Dose("active" if who == "active" else "each", n)
    return effect


def _spells(basic: dict[str, SpellEntry], library: dict[str, list[SpellEntry]], elements: dict[str, str]) -> dict[str, Spell]:
    out = {sid: Spell(sid, s["de"], s["element"], 0, dict(s["cost"])) for sid, s in basic.items()}
    for element, pile in library.items():
        for s in pile:
            out[s["id"]] = Spell(s["id"], s["de"], element, s["level"], dict(s["cost"]))
    for spell in out.values():
        if spell.element not in elements or not set(spell.cost) <= set(elements):
            raise CatalogueError(f"spell {spell.id!r} names an element that is not one of {sorted(elements)}")
    return out


def _characters(raw: dict[str, CharacterEntry], elements: dict[str, str]) -> dict[str, Character]:
    out = {}
    for cid, sheet in raw.items():
        cards = sheet["cards"]
        if not set(cards) <= set(elements) or not all(isinstance(n, int) and n >= 0 for n in cards.values()):
            raise CatalogueError(f"character sheet {cid!r} shows {cards!r}, not counts of 1-element cards of {sorted(elements)}")
        out[cid] = Character(cid, sheet["de"], dict(cards))
    return out


def _check(cat: Catalogue) -> None:
    lasts = [p.id for p in cat.pages.values() if p.last]
    if len(lasts) != 1:
        raise CatalogueError(f"the book has exactly one last page, not {lasts!r}")
    if len(cat.pages) - 1 < cat.middle_pages:
        raise CatalogueError(f"{cat.middle_pages} middle pages are drawn but the box holds {len(cat.pages) - 1}")
    for name, row in cat.difficulty.items():
        if len(row) != cat.rounds:
            raise CatalogueError(f"difficulty {name!r} has {len(row)} rounds, not {cat.rounds} (one per monster)")
    if sorted(cat.madness) != sorted(cat.player_counts):
        raise CatalogueError(f"madness_pile counts {sorted(cat.madness)} players, the game {list(cat.player_counts)}")


def _gaps(raw: Mapping[str, object]) -> list[str]:
    """Every entry of the file whose source is a gap (nested entries by their path)."""
    out = []
    for key, value in raw.items():
        if isinstance(value, dict) and value.get("source") == "gap":
            out.append(key)
        elif isinstance(value, dict):
            out += [f"{key}.{k}" for k, v in value.items() if isinstance(v, dict) and v.get("source") == "gap"]
    return out

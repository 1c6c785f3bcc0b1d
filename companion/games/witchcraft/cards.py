"""The cards of the box, loaded from ``data/cards.json``: ingredients, jokers, spells, familiars, witches.

Values the rulebook does not print carry ``"gap"`` in their ``source`` and are playable placeholders
(docs/witchcraft.md lists them). Each card has an id: ``I07`` an ingredient, ``J2`` a joker, ``S04`` a
spell of the deck, ``B11`` a basic spell, ``W03`` a starting spell; familiars are named (``owl``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import NotRequired, TypedDict

DATA = Path(__file__).with_name("data") / "cards.json"
INGREDIENT, JOKER, SPELL = "ingredient", "joker", "spell"


@dataclass(frozen=True)
class Card:
    id: str
    category: str  # ingredient | joker | spell
    kind: str | None = None  # an ingredient's kind
    recipe: tuple[str, ...] = ()  # a spell's ingredients, one entry per card needed
    magic: int = 0  # a spell's magic (stars)
    witch: str | None = None  # a starting spell's witch


@dataclass(frozen=True)
class Familiar:
    name: str
    kind: str  # action | benefit
    magic: int
    text: str
    recipe: tuple[str, ...] = ()  # the Hare's spell
    cast_magic: int = 0


@dataclass(frozen=True)
class Witch:
    name: str
    title: str
    magic: int
    benefit: str  # starts | ingredients | spell | crystals | familiar
    count: int
    text: str


@dataclass(frozen=True)
class Box:
    cards: dict[str, Card]
    deck: tuple[str, ...]  # the cards shuffled into the deck: ingredients, jokers, spells
    basic: tuple[str, ...]
    starting: dict[str, tuple[str, ...]]  # witch -> her two starting spells
    familiars: dict[str, Familiar]
    witches: dict[str, Witch]
    ingredients: tuple[str, ...]  # the kinds
    crystals: int
    each: int
    goal: int
    max_spells: int
    max_familiars: int
    max_buy: int
    player_counts: tuple[int, ...]


class SpellEntry(TypedDict):
    """A spell card in ``data/cards.json``."""

    recipe: list[str]
    magic: int
    witch: NotRequired[str]


def _spell(cid: str, raw: SpellEntry) -> Card:
    return Card(cid, SPELL, None, tuple(raw["recipe"]), int(raw["magic"]), raw.get("witch"))


def _ingredients(kinds: dict[str, int]) -> dict[str, Card]:
    ids = [kind for kind, n in kinds.items() for _ in range(n)]
    return {f"I{i:02d}": Card(f"I{i:02d}", INGREDIENT, kind) for i, kind in enumerate(ids, start=1)}


@lru_cache(maxsize=1)
def load() -> Box:
    raw = json.loads(DATA.read_text())
    cards = _ingredients(raw["ingredients"]["kinds"])
    cards |= {f"J{i}": Card(f"J{i}", JOKER) for i in range(1, raw["jokers"]["count"] + 1)}
    deck_spells = {cid: _spell(cid, s) for cid, s in raw["deck_spells"].items()}
    basic = {cid: _spell(cid, s) for cid, s in raw["basic_spells"].items()}
    starting = {cid: _spell(cid, s) for cid, s in raw["starting_spells"].items()}
    deck = tuple(cards) + tuple(deck_spells)
    cards |= deck_spells | basic | starting
    familiars = {n: Familiar(n, f["kind"], int(f["magic"]), f["text"], tuple(f.get("recipe", ())),
                             int(f.get("cast_magic", 0))) for n, f in raw["familiars"].items()}
    witches = {n: Witch(n, w["title"], int(w["magic"]), w["benefit"], int(w.get("count", 0)), w["text"])
               for n, w in raw["witches"].items()}
    limits = raw["limits"]
    by_witch = {w: tuple(c for c, s in starting.items() if s.witch == w) for w in witches}
    return Box(cards=cards, deck=deck, basic=tuple(basic), starting=by_witch, familiars=familiars, witches=witches,
               ingredients=tuple(raw["ingredients"]["kinds"]), crystals=int(raw["crystals"]["total"]),
               each=int(raw["crystals"]["each"]), goal=int(raw["goal"]["magic"]), max_spells=int(limits["spells"]),
               max_familiars=int(limits["familiars"]), max_buy=int(limits["buy"]),
               player_counts=tuple(raw["player_counts"]["counts"]))


def card(cid: str) -> Card:
    return load().cards[cid]

"""The parts of the box the companion keeps, loaded from ``data/ravenskeep.json``.

The rulebook gives the moves and the goal but not the board, the setup, the deck or the spells: those
are ``"source": "gap"`` placeholders in the file. Loading refuses a file that cannot be played, naming
the bad value.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).with_name("data") / "ravenskeep.json"
MOVES = ("wizard", "tower", "either")


class CatalogueError(ValueError):
    """The data file cannot be played as it stands."""


@dataclass(frozen=True)
class Spell:
    id: str
    name: str
    cost: int
    moves: str
    steps: tuple[int, ...]
    note: str


@dataclass(frozen=True)
class DeckCard:
    """A card of the deck: it moves a wizard, a tower or either, by its ``steps`` or by rolling its ``dice``."""

    moves: str
    steps: int | None
    dice: int | None


@dataclass(frozen=True)
class Catalogue:
    player_counts: tuple[int, ...]
    spaces: int
    shield_spaces: frozenset[int]
    towers: tuple[str, ...]
    shield_towers: frozenset[str]
    tower_start: dict[str, int]
    ravenskeep_start: int
    wizards: int
    bottles: int
    cards_per_turn: int
    per_place: int
    die: tuple[int, ...]
    deck: tuple[DeckCard, ...]  # one entry per card
    spells: dict[str, Spell]
    gaps: tuple[str, ...]


@lru_cache(maxsize=4)
def load(path: Path = DATA) -> Catalogue:
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    v = {k: e["value"] for k, e in raw.items() if isinstance(e, dict) and "value" in e}
    deck = tuple(DeckCard(card["moves"], card.get("steps"), card.get("dice")) for card in v["deck"] for _ in range(card["count"]))
    spells = {sid: Spell(sid, s["name"], s["cost"], s["moves"], tuple(s["steps"]), s["note"]) for sid, s in v["spells"].items()}
    cat = Catalogue(
        player_counts=tuple(v["player_counts"]), spaces=v["spaces"], shield_spaces=frozenset(v["shield_spaces"]),
        towers=tuple(f"T{i}" for i in range(1, v["towers"] + 1)), shield_towers=frozenset(v["shield_towers"]),
        tower_start=dict(v["tower_start"]), ravenskeep_start=v["ravenskeep_start"], wizards=v["wizards_per_player"],
        bottles=v["bottles"], cards_per_turn=v["cards_per_turn"], per_place=v["wizards_per_place"], die=tuple(v["die"]),
        deck=deck, spells=spells, gaps=tuple(k for k, e in raw.items() if isinstance(e, dict) and e.get("source") == "gap"))
    _check(cat)
    return cat


def _check(cat: Catalogue) -> None:
    if sorted(cat.tower_start) != sorted(cat.towers):
        raise CatalogueError(f"tower_start places {sorted(cat.tower_start)}, the box has {list(cat.towers)}")
    bad = [s for s in [*cat.tower_start.values(), cat.ravenskeep_start, *cat.shield_spaces] if not 0 <= s < cat.spaces]
    if bad:
        raise CatalogueError(f"space {bad[0]!r} is not on the board of {cat.spaces} spaces")
    for card in cat.deck:
        if card.moves not in MOVES or (card.steps is None) == (card.dice is None):
            raise CatalogueError(f"card {card!r} moves one of {MOVES} by 'steps' or by 'dice'")
    for spell in cat.spells.values():
        if spell.moves not in ("wizard", "tower") or not spell.steps:
            raise CatalogueError(f"spell {spell.id!r} moves a 'wizard' or a 'tower' some 'steps'")

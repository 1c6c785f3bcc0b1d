"""The portal catalogue and the box's other numbers, loaded from ``data/portals.json``.

The file is the one place the owner of the physical game edits: values the rulebook does not print
carry ``"gap"`` in their ``source`` and are playable placeholders (docs/via-magica.md lists them).
Each design has two copies; a copy's id is the design's id and ``a`` or ``b`` (``P07a``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import NotRequired, TypedDict

from companion.engine.views import JsonObject

DATA = Path(__file__).with_name("data") / "portals.json"
ANIMUS = ("Air", "Water", "Earth", "Life", "Fire", "Shadow")
WILDCARD = "Wildcard"
COLOURS = ("yellow", "green", "blue", "purple")
COPIES = ("a", "b")


@dataclass(frozen=True)
class PortalEffect:
    """What a yellow, blue or green portal does, as printed (``data/portals.json``).

    kind: ``stockpile``, ``place_any``, ``place_indicated``, ``rearrange``, ``open_another``,
      ``two_portals``, ``wildcard``, ``per_animus`` or ``per_colour``.
    animus: the Animus it names (one for a wildcard or a green portal's count, two for placing).
    count: crystals gained or placed; points and colour: what a green portal scores.
    printed: the effect as the data file has it, which the display is shown unchanged.
    """

    kind: str
    animus: tuple[str, ...]
    count: int
    points: int
    colour: str | None
    printed: JsonObject

    @classmethod
    def read(cls, raw: JsonObject) -> PortalEffect:
        animus, count, points, colour = raw.get("animus", ()), raw.get("count", 0), raw.get("points", 0), raw.get("colour")
        names = (animus,) if isinstance(animus, str) else tuple(str(a) for a in animus) if isinstance(animus, list) else ()
        if not isinstance(count, int) or not isinstance(points, int) or not (colour is None or isinstance(colour, str)):
            raise ValueError(f"{DATA.name}: a portal's effect has a bad count, points or colour: {raw!r}")
        return cls(str(raw["kind"]), names, count, points, colour, dict(raw))


@dataclass(frozen=True)
class Portal:
    design: str
    colour: str
    spaces: tuple[str, ...]  # the Animus spaces across the top of the card, left to right
    points: int  # printed points (green portals score by their effect instead)
    effect: PortalEffect | None

    @property
    def effect_kind(self) -> str | None:
        return None if self.effect is None else self.effect.kind


@dataclass(frozen=True)
class Reward:
    name: str
    category: str  # colour | number
    points: int
    colour: str | None = None  # colour rewards: three of this colour (None: one of each colour)
    count_needed: int = 0  # colour rewards: how many portals of that colour
    stars: int = 0  # number rewards: the exact number of open portals


@dataclass(frozen=True)
class Catalogue:
    portals: dict[str, Portal]  # by copy id
    bag: dict[str, int]
    stockpile: int
    row_size: int
    dealt: int
    kept: int
    seven: int
    player_counts: tuple[int, ...]
    rewards: dict[str, Reward]
    per_colour: dict[str, int]
    per_animus: dict[str, int]

    def design(self, portal: str) -> str:
        return self.portals[portal].design

    def bag_tokens(self) -> tuple[str, ...]:
        return tuple(kind for kind, n in self.bag.items() for _ in range(n))


class PortalEntry(TypedDict):
    """A portal design in ``data/portals.json``."""

    colour: str
    spaces: list[str]
    points: int
    effect: NotRequired[JsonObject]


class RewardEntry(TypedDict):
    """A Bonus reward in ``data/portals.json``."""

    category: str
    points: int
    colour: NotRequired[str]
    count: NotRequired[int]
    stars: NotRequired[int]


def _portal(design: str, raw: PortalEntry) -> Portal:
    effect = raw.get("effect")
    portal = Portal(design, raw["colour"], tuple(raw["spaces"]), int(raw["points"]),
                    None if effect is None else PortalEffect.read(effect))
    if portal.colour not in COLOURS or not 2 <= len(portal.spaces) <= 6 or set(portal.spaces) - set(ANIMUS):
        raise ValueError(f"{DATA.name}: portal {design!r} has a bad colour or Animus spaces: {raw!r}")
    return portal


def _reward(name: str, raw: RewardEntry) -> Reward:
    return Reward(name, raw["category"], int(raw["points"]), raw.get("colour"), int(raw.get("count", 0)),
                  int(raw.get("stars", 0)))


@lru_cache(maxsize=1)
def load() -> Catalogue:
    raw = json.loads(DATA.read_text())
    portals = {design + copy: _portal(design, p) for design, p in raw["portals"].items() for copy in COPIES}
    green = raw["green_points"]
    return Catalogue(
        portals=portals, bag=dict(raw["bag"]["tokens"]), stockpile=int(raw["crystals"]["stockpile"]),
        row_size=int(raw["row"]["size"]), dealt=int(raw["deal"]["dealt"]), kept=int(raw["deal"]["kept"]),
        seven=int(raw["seven"]["portals"]), player_counts=tuple(raw["player_counts"]["counts"]),
        rewards={n: _reward(n, r) for n, r in raw["rewards"].items()},
        per_colour=dict(green["per_colour"]), per_animus=dict(green["per_animus"]))

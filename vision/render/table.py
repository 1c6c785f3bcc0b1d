"""Where Incantibus puts its tokens: the room tile, potion spaces, magic book spaces, sorcerer spaces."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TABLE_W_MM = 1000.0
TABLE_D_MM = 800.0
TOKEN_RADIUS_MM = 15.0
ROOM_PITCH_MM = 45.0
ROOM_CENTRE = (500.0, 420.0)

# Printed cardboard: colourful, but far from the saturation of fluorescent tip paint.
TOKEN_COLOURS_BGR = [(60, 90, 150), (150, 120, 70), (80, 140, 90), (140, 80, 130), (70, 150, 170),
                     (170, 170, 160), (50, 60, 70), (120, 150, 200), (160, 110, 110), (90, 110, 60)]


@dataclass(frozen=True)
class Token:
    """A 30 mm disc lying on the table; ``kind`` is room, potion, book or sorcerer."""

    id: str
    kind: str
    x_mm: float
    y_mm: float
    radius_mm: float
    colour: tuple[int, int, int]
    mark: tuple[int, int, int]

    def candidate(self) -> dict[str, float | str]:
        """The engine's form of a legal target."""
        return {"id": self.id, "x_mm": self.x_mm, "y_mm": self.y_mm, "radius_mm": self.radius_mm}


@dataclass(frozen=True)
class Layout:
    """Every token on the table, and which of them are legal targets now."""

    tokens: tuple[Token, ...]
    legal: tuple[str, ...]

    def token(self, token_id: str) -> Token:
        return next(t for t in self.tokens if t.id == token_id)

    def candidates(self) -> list[dict[str, float | str]]:
        return [self.token(i).candidate() for i in self.legal]


def _colour(rng: np.random.Generator) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    a, b = rng.choice(len(TOKEN_COLOURS_BGR), size=2, replace=False)
    return TOKEN_COLOURS_BGR[a], TOKEN_COLOURS_BGR[b]


def _row(rng: np.random.Generator, kind: str, start: tuple[float, float], step: tuple[float, float],
         count: int) -> list[Token]:
    return [Token(f"{kind}{i + 1}", kind, start[0] + i * step[0], start[1] + i * step[1], TOKEN_RADIUS_MM,
                  *_colour(rng)) for i in range(count)]


def room_tokens(rng: np.random.Generator, count: int) -> list[Token]:
    """Up to 7 tokens on a jittered 45 mm grid on the room tile (the densest cluster of the game)."""
    cells = [(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1)]
    chosen = rng.choice(len(cells), size=count, replace=False)
    out = []
    for n, c in enumerate(sorted(chosen)):
        i, j = cells[c]
        x = ROOM_CENTRE[0] + i * ROOM_PITCH_MM + rng.uniform(-5, 5)
        y = ROOM_CENTRE[1] + j * ROOM_PITCH_MM + rng.uniform(-5, 5)
        out.append(Token(f"room{n + 1}", "room", x, y, TOKEN_RADIUS_MM, *_colour(rng)))
    return out


def incantibus_layout(rng: np.random.Generator, dungeon: bool = False, expert: bool | None = None) -> Layout:
    """A casting's table: room tokens (or sorcerers in the dungeon), 3 potions, and in expert mode 3 books.

    Every token is a legal target unless the engine says otherwise; here potions and books are legal
    with probability 0.7 each (the player may lack the ingredients)."""
    expert = bool(rng.random() < 0.5) if expert is None else expert
    sorcerers = _row(rng, "sorcerer", (330.0, 250.0), (38.0, 0.0), 10)
    potions = _row(rng, "potion", (690.0, 350.0), (0.0, 55.0), 3)
    books = _row(rng, "book", (310.0, 350.0), (0.0, 55.0), 3) if expert else []
    room = [] if dungeon else room_tokens(rng, int(rng.integers(3, 8)))
    main = sorcerers[: int(rng.integers(3, 11))] if dungeon else room
    legal = [t.id for t in main] + [t.id for t in potions + books if rng.random() < 0.7]
    return Layout(tuple(room + sorcerers + potions + books), tuple(legal))

"""Where Incantibus puts its tokens: the room tile, potion spaces, magic book spaces, sorcerer spaces."""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from collections.abc import Callable, Sequence

import cv2
import numpy as np

# The game's own layout, written once in the game's data and read here as a file: vision sits below
# the games and imports none of them (tests/assembly/test_imports.py).
BOARD_FILE = Path(__file__).resolve().parents[2] / "companion" / "games" / "incantibus" / "data" / "board.json"


@dataclass(frozen=True)
class Board:
    token_radius_mm: float
    places: dict[str, tuple[float, float]]


def _board() -> Board:
    try:
        raw = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"the Incantibus board ({str(BOARD_FILE)!r}) is missing") from None
    return Board(float(raw["token_radius_mm"]), {n: (float(p[0]), float(p[1])) for n, p in raw["places"].items()})


BOARD = _board()
TABLE_W_MM = 1000.0
TABLE_D_MM = 800.0
TOKEN_RADIUS_MM = BOARD.token_radius_mm

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


Colours = tuple[tuple[int, int, int], tuple[int, int, int]]


def printed_colours(rng: np.random.Generator) -> Colours:
    """Muted printed cardboard: a face colour and a mark colour."""
    a, b = rng.choice(len(TOKEN_COLOURS_BGR), size=2, replace=False)
    return TOKEN_COLOURS_BGR[a], TOKEN_COLOURS_BGR[b]


def _hsv_bgr(h: float, s: float, v: float) -> tuple[int, int, int]:
    hsv = np.array([[[int(h) % 180, int(s), int(v)]]], np.uint8)
    b, g, r = (int(c) for c in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    return b, g, r


def bright_colours(paint_hues: Sequence[float], near_share: float) -> Callable[[np.random.Generator], Colours]:
    """Tokens as real games print them, brightly: random hues and saturations, and with probability
    ``near_share`` a face within 8 hue steps of one of the wands' paints, as saturated as paint."""
    def draw(rng: np.random.Generator) -> Colours:
        if rng.random() < near_share:
            face = _hsv_bgr(rng.choice(paint_hues) + rng.uniform(-8, 8), rng.uniform(170, 255), rng.uniform(150, 250))
        else:
            face = _hsv_bgr(rng.uniform(0, 180), rng.uniform(40, 255), rng.uniform(90, 240))
        return face, _hsv_bgr(rng.uniform(0, 180), rng.uniform(0, 200), rng.uniform(30, 240))
    return draw




def _row(rng: np.random.Generator, kind: str, count: int, colours: Callable[[np.random.Generator], Colours]) -> list[Token]:
    return [Token(f"{kind[0]}{i}", kind, *BOARD.places[f"{kind[0]}{i}"], TOKEN_RADIUS_MM, *colours(rng)) for i in range(count)]


def room_tokens(rng: np.random.Generator, count: int,
                colours: Callable[[np.random.Generator], Colours] = printed_colours) -> list[Token]:
    """Up to 7 tokens on a jittered 45 mm grid on the room tile (the densest cluster of the game), named
    by the game's places (``r0`` near row left ... ``r8`` far row right)."""
    cells = [(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1)]
    chosen = rng.choice(len(cells), size=count, replace=False)
    out = []
    for c in sorted(chosen):
        i, j = cells[c]
        place = f"r{(j + 1) * 3 + i + 1}"
        x = BOARD.places[place][0] + rng.uniform(-5, 5)
        y = BOARD.places[place][1] + rng.uniform(-5, 5)
        out.append(Token(place, "room", x, y, TOKEN_RADIUS_MM, *colours(rng)))
    return out


def placed_by_hand(layout: Layout, rng: np.random.Generator, jitter_mm: float) -> Layout:
    """Every token moved up to ``jitter_mm`` from its nominal place, as hands lay them; tokens never
    overlap."""
    moved: list[Token] = []
    for t in layout.tokens:
        for _ in range(30):
            a, r = rng.uniform(0, 2 * np.pi), jitter_mm * np.sqrt(rng.random())
            c = replace(t, x_mm=t.x_mm + r * np.cos(a), y_mm=t.y_mm + r * np.sin(a))
            if all(np.hypot(c.x_mm - o.x_mm, c.y_mm - o.y_mm) >= c.radius_mm + o.radius_mm + 2 for o in moved):
                break
        else:
            c = t
        moved.append(c)
    return replace(layout, tokens=tuple(moved))


def incantibus_layout(rng: np.random.Generator, dungeon: bool = False, expert: bool | None = None,
                      colours: Callable[[np.random.Generator], Colours] | None = None) -> Layout:
    """A casting's table: room tokens (or sorcerers in the dungeon), 3 potions, and in expert mode 3 books.

    Every token is a legal target unless the engine says otherwise; here potions and books are legal
    with probability 0.7 each (the player may lack the ingredients). ``colours`` draws each token's
    colours (default: muted printed cardboard)."""
    colours = colours or printed_colours
    expert = bool(rng.random() < 0.5) if expert is None else expert
    sorcerers = _row(rng, "sorcerer", 10, colours)
    potions = _row(rng, "potion", 3, colours)
    books = _row(rng, "book", 3, colours) if expert else []
    room = [] if dungeon else room_tokens(rng, int(rng.integers(3, 8)), colours)
    main = sorcerers[: int(rng.integers(3, 11))] if dungeon else room
    legal = [t.id for t in main] + [t.id for t in potions + books if rng.random() < 0.7]
    return Layout(tuple(room + sorcerers + potions + books), tuple(legal))


def nominal_places() -> dict[str, tuple[float, float]]:
    """Every place of Incantibus on this table (the game's names: r0-r8, p0-p2, b0-b2, s0-s11), where the
    board prints it."""
    return dict(BOARD.places)


def recoloured(layout: Layout, colours: Callable[[np.random.Generator], Colours], rng: np.random.Generator) -> Layout:
    """The same tokens in other colours."""
    tokens = []
    for t in layout.tokens:
        colour, mark = colours(rng)
        tokens.append(replace(t, colour=colour, mark=mark))
    return replace(layout, tokens=tuple(tokens))

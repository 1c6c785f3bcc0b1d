"""Setting up the box: the grimoire of five random middle pages and the last, the curse piles each
shuffled, the madness pile by player count, four basic spells each; with tracked hands each player's
character sheet cards shuffled into a deck and six drawn; then the first turn begins (its monster
phase opens the first page). With table draws and no ``book`` given, each page is entered as it opens."""
from __future__ import annotations

from random import Random
from typing import Any
from collections.abc import Mapping, Sequence

from companion.errors import MalformedAction
from companion.games.grimoire import hands, turn
from companion.games.grimoire.catalogue import Catalogue, load
from companion.games.grimoire.state import Player, State

OPTIONS = {"draws": "'companion' (default: Incanto shuffles and draws the curses) or 'table' (the table draws and enters them)",
           "difficulty": "the round marker's row: " + ", ".join(load().difficulty) + " (default normal)",
           "book": "the five middle pages as laid in the grimoire, in order (default: drawn at random)",
           "first": "the starting player (default: drawn at random)",
           "hands": "'confirm' (default: hands stay secret, each payer confirms on the tablet) or 'tracked' (Incanto "
                    "keeps every hand, deck and discard pile and refuses what a hand cannot pay)",
           "characters": "each player's character sheet, {player: sheet} (default: the sheets in order, by seat)"}


def check_options(players: Sequence[str], options: Mapping[str, Any]) -> None:
    cat = load()
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise MalformedAction(f"unknown Grimoire option {unknown[0]!r}; options are {', '.join(OPTIONS)}")
    difficulty = options.get("difficulty", "normal")
    if not isinstance(difficulty, str) or difficulty not in cat.difficulty:  # a list is no row name (and unhashable)
        raise MalformedAction(f"option 'difficulty' is one of {', '.join(cat.difficulty)}, not {options['difficulty']!r}")
    if options.get("draws", "companion") not in ("companion", "table"):
        raise MalformedAction(f"option 'draws' is 'companion' or 'table', not {options['draws']!r}")
    if "first" in options and options["first"] not in players:
        raise MalformedAction(f"option 'first' names a player of {list(players)}, not {options['first']!r}")
    if "book" in options:
        check_book(cat, options["book"])
    if options.get("hands", "confirm") not in ("confirm", "tracked"):
        raise MalformedAction(f"option 'hands' is 'confirm' or 'tracked', not {options['hands']!r}")
    if "characters" in options:
        check_characters(cat, players, options["characters"])


def check_characters(cat: Catalogue, players: Sequence[str], chosen: Any) -> None:
    if (not isinstance(chosen, dict) or not set(chosen) <= set(players) or not set(map(str, chosen.values())) <= set(cat.characters)
            or len(set(chosen.values())) != len(chosen)):
        raise MalformedAction(f"option 'characters' gives players of {list(players)} each a different sheet of "
                              f"{list(cat.characters)}, not {chosen!r}")


def sheets(players: Sequence[str], options: Mapping[str, Any]) -> dict[str, str]:
    """Each player's character sheet: the ones chosen, the others in the file's order by seat."""
    chosen = dict(options.get("characters", {}))
    free = [c for c in load().characters if c not in chosen.values()]
    return {p: chosen.get(p) or free.pop(0) for p in players}


def check_book(cat: Catalogue, book: Any) -> None:
    middle = [p for p, page in cat.pages.items() if not page.last]
    if (not isinstance(book, list) or not all(isinstance(p, str) for p in book) or len(book) != cat.middle_pages
            or len(set(book)) != len(book) or not set(book) <= set(middle)):
        raise MalformedAction(f"option 'book' lists {cat.middle_pages} different middle pages of {middle}, not {book!r}")


def setup(players: Sequence[str], options: Mapping[str, Any], rng: Random) -> State:
    check_options(players, options)
    state = empty(players, options, rng, pages_at_table=True)
    if options.get("hands") == "tracked":
        hands.deal(state, sheets(players, options), rng)
    turn.begin(state)
    return state


def empty(players: Sequence[str], options: Mapping[str, Any], rng: Random, pages_at_table: bool = False) -> State:
    """The table after setup, before the first turn: the marker on ↺, the grimoire closed. With table
    draws and ``pages_at_table`` the middle pages are unknown ("") until each opens."""
    cat = load()
    last = next(p for p, page in cat.pages.items() if page.last)
    middle = options.get("book") or (
        [""] * cat.middle_pages if pages_at_table and options.get("draws") == "table"
        else rng.sample(sorted(p for p in cat.pages if p != last), cat.middle_pages))
    names = list(players)
    first = names.index(options["first"]) if "first" in options else rng.randrange(len(names))
    return State(
        players=tuple(Player(p, spells=cat.basic_spells) for p in players),
        difficulty=options.get("difficulty", "normal"), book=(*middle, last), page=-1, round=0, marker=0,
        fields={f: () for f in cat.curse_fields}, piles={pile: shuffled(ids, rng) for pile, ids in cat.piles.items()},
        madness_pile=cat.madness[len(players)],
        supply={e: dict(cat.supply) for e in cat.elements}, library=dict(cat.library),
        banished=(), escaped=(), curses_banished=0, spells_gone=(),
        active=first,
        turn=0, outcome=None, why=None, table_draws=options.get("draws") == "table")


def shuffled(items: Sequence[str], rng: Random) -> tuple[str, ...]:
    out = list(items)
    rng.shuffle(out)
    return tuple(out)

"""Setting up the box for 2, 3 or 4 players (and the expert side of the satchels)."""
from __future__ import annotations

from random import Random
from typing import Any
from collections.abc import Mapping, Sequence

from companion.errors import MalformedAction
from companion.games.incantibus import tower
from companion.games.incantibus.state import State
from companion.games.incantibus.steps import AwaitCast
from companion.games.incantibus.tokens import BOOK, CARD, POTION, ROOM, SECRET, SORCERER, VISIBLE, Catalogue, load

OPTIONS = {"expert": "bool: play the expert side with magic books and the wand bonus",
           "draws": "'companion' (default: the companion draws rooms, faces and cards) or 'table'",
           "deal": "{player: wand strength}: the wands as dealt at the table (default: dealt at random)"}


def check_options(players: Sequence[str], options: Mapping[str, Any]) -> None:
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise MalformedAction(f"unknown Incantibus option {unknown[0]!r}; options are {', '.join(OPTIONS)}")
    if not isinstance(options.get("expert", False), bool):
        raise MalformedAction(f"option 'expert' is true or false, not {options['expert']!r}")
    if options.get("draws", "companion") not in ("companion", "table"):
        raise MalformedAction(f"option 'draws' is 'companion' or 'table', not {options['draws']!r}")
    if "deal" in options:
        _check_deal(players, options["deal"])


def _check_deal(players: Sequence[str], deal: Any) -> None:
    strengths = sorted(load().wands[len(players)])
    if not isinstance(deal, dict) or sorted(deal) != sorted(players) or sorted(deal.values()) != strengths:
        raise MalformedAction(f"option 'deal' gives each of {list(players)} one of the wands {strengths}, "
                              f"not {deal!r}")


def setup(players: Sequence[str], options: Mapping[str, Any], rng: Random) -> State:
    check_options(players, options)
    cat = load()
    n = len(players)
    state = _empty(cat, players, options, rng)
    for _ in range(cat.sorcerer_spaces[n]):
        state.sorcerers += (tower.draw(state, SORCERER, rng, True),)
    for _ in range(len(cat.pools[SORCERER]) - cat.sorcerer_spaces[n]):
        state.aside += (tower.draw(state, SORCERER, rng, True) or "",)
    tower.turn_next_sorcerer(state)
    state.potions = tuple(tower.draw(state, POTION, rng, False) for _ in range(cat.open_slots))
    if state.expert:
        state.books = tuple(tower.draw(state, BOOK, rng, False) for _ in range(cat.open_slots))
    state.cards = tuple(_first_card(state, rng) for _ in range(cat.open_slots))
    if not state.table_draws:
        tower.lay_out(state, "roof", rng)
    state.notes = ()
    state.pending = tower.next_pending(state)
    return state


def setup_box(players: Sequence[str], options: Mapping[str, Any], rng: Random | None = None) -> State:
    """The box before anything is laid out: every pool full, the special area, empty satchels."""
    return _empty(load(), players, options, rng or Random(0))


def _empty(cat: Catalogue, players: Sequence[str], options: Mapping[str, Any], rng: Random) -> State:
    n = len(players)
    strengths = list(cat.wands[n])
    rng.shuffle(strengths)
    wands = dict(options.get("deal") or zip(players, strengths))
    rooms = tuple(r.name for r in cat.rooms.values() if r.symbol in cat.symbols_used[n])
    expert = bool(options.get("expert", False))
    pools = {VISIBLE: cat.pools[VISIBLE], SECRET: cat.pools[SECRET], POTION: cat.pools[POTION],
             BOOK: cat.pools[BOOK] if expert else (), SORCERER: cat.pools[SORCERER], CARD: cat.pools[CARD],
             ROOM: rooms}
    specials = {f"N{i + 1}": kind for i, kind in enumerate(cat.specials)}
    return State(
        players=tuple(players), expert=expert, table_draws=options.get("draws") == "table", wands=wands,
        satchels={p: () for p in players}, kinds=dict(specials), secret=frozenset(), pools=pools, room="roof",
        slots=(), potions=(), books=(), sorcerers=(), face_up=frozenset(), cards=(), cards_used=(),
        specials=tuple(specials), moat=(), aside=(), held=(), phase="room", queue=(),
        pending=AwaitCast(), spell_takers=(), wands_down=(), next_id=1, casting=0, last_cast=None, notes=())


def _first_card(state: State, rng: Random) -> str | None:
    if state.table_draws:
        return None
    deck = state.pools[CARD]
    card = deck[rng.randrange(len(deck))]
    state.pools[CARD] = tuple(c for i, c in enumerate(deck) if i != deck.index(card))
    return card

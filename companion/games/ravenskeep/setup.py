"""Setting up the board (a gap of the rulebook, from the data file): towers on their spaces,
Ravenskeep on its space, every player's wizards round the shield spaces, five empty bottles each."""
from __future__ import annotations

from random import Random
from typing import Any
from collections.abc import Mapping, Sequence

from companion.errors import MalformedAction
from companion.games.ravenskeep.catalogue import load
from companion.games.ravenskeep.state import RAVENSKEEP, Player, State, wizard

OPTIONS = {"first": "the starting player (default: drawn at random)",
           "dice": "who rolls the die cards' die: 'table' (the real die; its face is entered) or 'companion' (Incanto "
                   "rolls; the default, so games stored before the option replay as they were)"}
DICE = ("table", "companion")


def check_options(players: Sequence[str], options: Mapping[str, Any]) -> None:
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise MalformedAction(f"unknown Ravenskeep option {unknown[0]!r}; options are {', '.join(OPTIONS)}")
    if "first" in options and options["first"] not in players:
        raise MalformedAction(f"option 'first' names a player of {list(players)}, not {options['first']!r}")
    if options.get("dice", "companion") not in DICE:
        raise MalformedAction(f"option 'dice' is 'table' or 'companion', not {options['dice']!r}")


def setup(players: Sequence[str], options: Mapping[str, Any], rng: Random) -> State:
    check_options(players, options)
    cat = load()
    spaces: list[tuple[str, ...]] = [() for _ in range(cat.spaces)]
    for tower, space in cat.tower_start.items():
        spaces[space] += (tower,)
    spaces[cat.ravenskeep_start] += (RAVENSKEEP,)
    shields = sorted(cat.shield_spaces)
    for k in range(cat.wizards * len(players)):
        spaces[shields[k % len(shields)]] += (wizard(players[k % len(players)]),)
    first = list(players).index(options["first"]) if "first" in options else rng.randrange(len(players))
    return State(players=tuple(Player(p, empty=cat.bottles) for p in players), spaces=tuple(spaces), first=first,
                 active=first, turn=1, cards_played=0, forwent=False, spell_cast=False, roll=None, ending=False, over=False,
                 table_dice=options.get("dice") == "table")

"""What the host sets before a game: each option a game's setup accepts, as a control for the night page.

The engine's setups say which options they take (each game's ``setup.OPTIONS``, checked by its
``check_options``); this module describes them for people: a label in the rulebook's words, the kind of
control, the choices and the rulebook's default (which is what the setup does when the option is left
out, so the page sends an option only when the host changed it). ``NOT_OFFERED`` names the options a
setup accepts that the page does not show, and why; a test keeps both lists complete.

The draw options (``DRAWS``: cards turned up, dice rolled, tokens drawn, decks shuffled) default to the
table's on this page, since the group owns the box; a setup left without one keeps Incanto's, so a game
stored before the option replays as it was. Those controls carry ``"sent": True``: the page's start
(``started_with``) always names them, the default included.

Kinds of control: ``choice`` (one of ``choices``), ``bool``, ``player`` (one of the seated players,
tapped; ``role: "first"`` marks the one who starts), ``assign`` (each seated player gets a different one
of ``values``, or ``values_by_count`` for the number of players).
"""
from __future__ import annotations

import importlib
from typing import Any

DRAWS = {"key": "draws", "label": "Draws", "kind": "choice", "default": "table", "sent": True,
         "choices": [{"value": "table", "label": "by the table"}, {"value": "companion", "label": "by Incanto"}]}


def _incantibus() -> list[dict[str, Any]]:
    from companion.games.incantibus.tokens import load
    return [
        {"key": "expert", "label": "Expert mode (magic books, the wand bonus)", "kind": "bool", "default": False},
        {**DRAWS, "label": "Rooms, faces and cards drawn"},
        {"key": "deal", "label": "Wands", "kind": "assign", "default": None, "default_label": "dealt at random",
         "values_by_count": {str(n): list(s) for n, s in load().wands.items()}},
    ]


def _grimoire() -> list[dict[str, Any]]:
    from companion.games.grimoire.catalogue import load
    rows = list(load().difficulty)
    names = {"leicht": "leicht (easy)", "normal": "normal", "schwer": "schwer (hard)"}
    return [
        {"key": "difficulty", "label": "Schwierigkeit (difficulty)", "kind": "choice", "default": "normal",
         "choices": [{"value": r, "label": names.get(r, r)} for r in rows]},
        {**DRAWS, "label": "Curses, pages and element cards drawn"},
        {"key": "first", "label": "Startspieler (first player)", "kind": "player", "role": "first", "default": None,
         "default_label": "drawn at random"},
        {"key": "hands", "label": "Handkarten (hands)", "kind": "choice", "default": "confirm",
         "choices": [{"value": "confirm", "label": "secret: each payer confirms"},
                     {"value": "tracked", "label": "open: Incanto keeps every hand"}]},
        {"key": "characters", "label": "Charakterbögen (character sheets, tracked hands)", "kind": "assign",
         "default": None, "default_label": "in order, by seat",
         "values": [{"value": c.id, "label": c.de} for c in load().characters.values()]},
    ]


def _ravenskeep() -> list[dict[str, Any]]:
    return [{**DRAWS, "key": "dice", "label": "The die of the die cards rolled"},
            {"key": "first", "label": "Starting player", "kind": "player", "role": "first", "default": None,
             "default_label": "drawn at random"}]


def _via_magica() -> list[dict[str, Any]]:
    return [
        {**DRAWS, "label": "Animus tokens drawn from the bag"},
        {**DRAWS, "key": "portals", "label": "Portal cards dealt and turned up"},
        {"key": "deal", "label": "Starting portals", "kind": "choice", "default": "choose",
         "choices": [{"value": "choose", "label": "six dealt, keep three"},
                     {"value": "random", "label": "three each (first game)"}]},
        {"key": "catcher", "label": "First Catcher (the oldest player)", "kind": "player", "role": "first",
         "default": None, "default_label": "the first seat"},
    ]


def _witchcraft() -> list[dict[str, Any]]:
    from companion.games.witchcraft.cards import load
    return [
        {**DRAWS, "label": "Deck shuffled, market and stacks turned up, witches drawn"},
        {"key": "witches", "label": "Witches", "kind": "assign", "default": None, "default_label": "drawn at random",
         "values": [{"value": n, "label": w.title} for n, w in load().witches.items()]},
        {"key": "first", "label": "Starts when nobody is the Brave (the last to have cast a spell)", "kind": "player",
         "role": "first", "default": None, "default_label": "the first seat"},
    ]


OFFERED = {"incantibus": _incantibus, "grimoire": _grimoire, "ravenskeep": _ravenskeep,
           "via_magica": _via_magica, "witchcraft": _witchcraft}

# Options a setup accepts that the night page does not offer, and why.
NOT_OFFERED = {"grimoire": {"book": "the five middle pages in order: only for replaying a described grimoire"}}


def options(game: str) -> list[dict[str, Any]]:
    """The controls for ``game``'s options, in the order the page shows them (none for a game it does
    not describe, such as a test's game)."""
    made = OFFERED.get(game)
    return made() if made else []


def started_with(game: str, chosen: dict[str, Any]) -> dict[str, Any]:
    """The options a game starts with from the night page: what the host chose, and the page's default
    for each ``sent`` control left alone (the table's draws)."""
    return {**{o["key"]: o["default"] for o in options(game) if o.get("sent")}, **chosen}


def accepted(game: str) -> set[str]:
    """The option keys ``game``'s setup accepts (its ``setup.OPTIONS``)."""
    from companion import games
    module = importlib.import_module(games.MODULES[game] + ".setup")
    return set(getattr(module, "OPTIONS", {}))

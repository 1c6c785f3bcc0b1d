"""The games Incanto knows. Each is a module exposing ``RULES``, an object with the hooks of
``companion.engine.rules.Rules``; modules are imported only when a game is asked for."""
from __future__ import annotations

import importlib

from typing import Any

from companion.engine.rules import Rules
from companion.errors import UnknownGame, short_repr

MODULES = {
    "incantibus": "companion.games.incantibus",
    "grimoire": "companion.games.grimoire",
    "ravenskeep": "companion.games.ravenskeep",
    "via_magica": "companion.games.via_magica",
    "witchcraft": "companion.games.witchcraft",
}


def names() -> list[str]:
    return list(MODULES)


def get(name: str) -> Rules[Any, Any]:  # the game is chosen by name at run time
    try:
        module = MODULES[name]
    except KeyError:
        raise UnknownGame(f"no game called {short_repr(name)}; Incanto knows {', '.join(MODULES)}") from None
    return importlib.import_module(module).RULES  # type: ignore[no-any-return]

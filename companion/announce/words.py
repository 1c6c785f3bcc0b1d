"""What the speaker says, from what the table publishes: the display's push messages (a game's view
after each event, the table side's notices). ``Words`` remembers the last view it saw, so it speaks
of what changed: a new casting, the ritual marker moving, a curse escaping, the game ending.

    words = Words()
    words.heard({"type": "event", "game": view, ...})   # -> ["Casting 3. Katya wins the spell from Lera. ..."]
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

POTION = re.compile(r"^(green|red|blue)_\d$")
GOLD = re.compile(r"^gold_(\d)$")


class Words:
    def __init__(self) -> None:
        self._last: dict[str, Any] | None = None  # the view last seen

    def heard(self, message: Mapping[str, Any]) -> list[str]:
        """The sentences for one published message (none for most)."""
        kind = message.get("type")
        if kind == "notice":
            return notice(message.get("notice") or {})
        if kind not in ("event", "snapshot") or not isinstance(message.get("game"), dict):
            return []
        view, before = message["game"], self._last if self._last is not None else {}
        self._last = view
        if kind == "snapshot" or before.get("game", view.get("game")) != view.get("game") or _older(view, before):
            return []  # a page's resync, a new game, or an undo: nothing new happened at the table
        return [*casting(before, view), *ritual(before, view), *escapes(before, view), *ending(before, view)]


def notice(said: Mapping[str, Any]) -> list[str]:
    """The table side's notices worth saying aloud: who won a race."""
    if said.get("kind") == "race" and said.get("message"):
        return [f"{str(said['message']).rstrip('.')}!"]
    return []


def casting(before: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """Incantibus: each claim of a new casting, and the wands that change hands."""
    cast, was = view.get("last_cast"), before.get("last_cast")
    if not cast or (was and was.get("casting") == cast.get("casting")):
        return []
    said = [f"Casting {cast['casting']}."]
    for claim in cast.get("claims", []):
        thing = token_words(claim.get("kind") or "")
        losers = claim.get("losers") or []
        if claim.get("winner") and losers:
            said.append(f"{claim['winner']} wins {thing} from {_and(losers)}.")
        elif claim.get("winner"):
            said.append(f"{claim['winner']} takes {thing}.")
        if claim.get("swap"):
            said.append(f"{_and(claim['swap'])} swap wands.")
    if len(said) == 1:
        said.append("Nobody takes anything.")
    return [" ".join(said)]


def ritual(before: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """Das Grimoire des Wahnsinns: the ritual marker moving on."""
    now, was = (view.get("ritual") or {}).get("marker"), (before.get("ritual") or {}).get("marker")
    if now is None or now == was or view.get("over"):
        return []
    return ["The ritual marker goes back to the start." if now == 0 else f"The ritual marker moves to {now}."]


def escapes(before: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """Das Grimoire des Wahnsinns: curses escaping the ritual."""
    now, was = len(view.get("escaped") or []), len(before.get("escaped") or [])
    if now <= was:
        return []
    fled = now - was
    return [f"{'A curse escapes' if fled == 1 else f'{fled} curses escape'}! {now} escaped so far."]


def ending(before: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """The end of a game and who won, with the points, in the game's way of winning."""
    if not view.get("over") or before.get("over"):
        return []
    if view.get("outcome") in ("won", "lost"):  # the Grimoire: the table plays together
        return ["The game is over. The table has beaten the Grimoire!" if view["outcome"] == "won"
                else "The game is over. The Grimoire has won this time."]
    winners = view.get("winner")
    winners = [winners] if isinstance(winners, str) else list(winners or [])
    points = (view.get("scores") or {}).get(winners[0]) if winners else None
    with_points = f" with {points} points" if isinstance(points, int) else ""
    if not winners:
        return ["The game is over."]
    if len(winners) == 1:
        return [f"The game is over. {winners[0]} wins{with_points}!"]
    return [f"The game is over. {_and(winners)} share the win{with_points}!"]


def join_code_words(code: str, where: str) -> str:
    """The join code as the speaker says it: digit by digit, twice, with where to go."""
    digits = ", ".join(code)
    spoken_where = where.replace(".", " dot ").replace(":", " port ")
    return f"To join the table, open {spoken_where}, and type the code {digits}. Again: {digits}."


def token_words(kind: str) -> str:
    """An Incantibus token as the rulebook names it: a green potion, 2 gold, Lady Goblin, a wand net."""
    if POTION.match(kind):
        return f"a {kind.split('_')[0]} potion"
    if gold := GOLD.match(kind):
        return f"{gold.group(1)} gold"
    spaced = kind.replace("_", " ")
    if kind in sorcerers():
        return "the Archmage" if kind == "archmage" else spaced.title()
    return f"the {spaced}" if kind in ("wand_net", "satchel") else f"an {spaced}" if spaced[:1] in "aeiou" else f"a {spaced}"


@cache
def sorcerers() -> frozenset[str]:
    data = resources.files("companion.games.incantibus") / "data" / "tokens.json"
    return frozenset(json.loads(data.read_text())["sorcerers"])


def _and(names: Sequence[str]) -> str:
    names = [str(n) for n in names]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _older(view: Mapping[str, Any], before: Mapping[str, Any]) -> bool:
    return isinstance(view.get("version"), int) and isinstance(before.get("version"), int) and view["version"] < before["version"]

"""What the speaker says, from what the table publishes: the display's push messages (a game's view
after each event, the table side's notices). ``Words`` remembers the last view it saw, so it speaks
of what changed: a new casting, the ritual marker moving, a curse escaping, the game ending. It speaks
the speaker's language (``companion.words``: ``announce.*`` in the catalogue, the games' terms).

    words = Words()                                     # or Words(lambda: "de")
    words.heard({"type": "event", "game": view, ...})   # -> ["Casting 3. Katya wins the spell from Lera. ..."]
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from companion.words import say, sentence, term

POTION = re.compile(r"^(green|red|blue)_\d$")
GOLD = re.compile(r"^gold_(\d)$")


class Words:
    """``language``: asked at every message, so a voice changed on the tablet speaks its own language
    from the next sentence on."""

    def __init__(self, language: Callable[[], str] = lambda: "en") -> None:
        self.language = language
        self._last: dict[str, Any] | None = None  # the view last seen

    def heard(self, message: Mapping[str, Any]) -> list[str]:
        """The sentences for one published message (none for most)."""
        kind, lang = message.get("type"), self.language()
        if kind == "notice":
            return notice(message.get("notice") or {}, lang)
        if kind not in ("event", "snapshot") or not isinstance(message.get("game"), dict):
            return []
        view, before = message["game"], self._last if self._last is not None else {}
        self._last = view
        if kind == "snapshot" or before.get("game", view.get("game")) != view.get("game") or _older(view, before):
            return []  # a page's resync, a new game, or an undo: nothing new happened at the table
        return [*casting(before, view, lang), *ritual(before, view, lang), *escapes(before, view, lang),
                *ending(before, view, lang)]


def notice(said: Mapping[str, Any], lang: str = "en") -> list[str]:
    """The table side's notices worth saying aloud: who won a race."""
    if said.get("kind") == "race" and said.get("message"):
        return [f"{sentence(said.get('words'), lang, str(said['message'])).rstrip('.')}!"]
    return []


def casting(before: Mapping[str, Any], view: Mapping[str, Any], lang: str = "en") -> list[str]:
    """Incantibus: each claim of a new casting, and the wands that change hands."""
    cast, was = view.get("last_cast"), before.get("last_cast")
    if not cast or (was and was.get("casting") == cast.get("casting")):
        return []
    said = [say(lang, "announce.casting", number=cast["casting"])]
    for claim in cast.get("claims", []):
        thing = token_words(claim.get("kind") or "", lang)
        losers = claim.get("losers") or []
        if claim.get("winner") and losers:
            said.append(say(lang, "announce.wins_from", player=claim["winner"], thing=thing, losers=_and(losers, lang)))
        elif claim.get("winner"):
            said.append(say(lang, "announce.takes", player=claim["winner"], thing=thing))
        if claim.get("swap"):
            said.append(say(lang, "announce.swap", players=_and(claim["swap"], lang)))
    if len(said) == 1:
        said.append(say(lang, "announce.nobody_takes"))
    return [" ".join(said)]


def ritual(before: Mapping[str, Any], view: Mapping[str, Any], lang: str = "en") -> list[str]:
    """Das Grimoire des Wahnsinns: the ritual marker moving on."""
    now, was = (view.get("ritual") or {}).get("marker"), (before.get("ritual") or {}).get("marker")
    if now is None or now == was or view.get("over"):
        return []
    return [say(lang, "announce.marker_start") if now == 0 else say(lang, "announce.marker_moves", field=now)]


def escapes(before: Mapping[str, Any], view: Mapping[str, Any], lang: str = "en") -> list[str]:
    """Das Grimoire des Wahnsinns: curses escaping the ritual."""
    now, was = len(view.get("escaped") or []), len(before.get("escaped") or [])
    if now <= was:
        return []
    fled = now - was
    return [say(lang, "announce.curse_escapes" if fled == 1 else "announce.curses_escape", fled=fled, total=now)]


def ending(before: Mapping[str, Any], view: Mapping[str, Any], lang: str = "en") -> list[str]:
    """The end of a game and who won, with the points, in the game's way of winning."""
    if not view.get("over") or before.get("over"):
        return []
    if view.get("outcome") in ("won", "lost"):  # the Grimoire: the table plays together
        return [say(lang, "announce.grimoire_beaten" if view["outcome"] == "won" else "announce.grimoire_won")]
    winners = view.get("winner")
    winners = [winners] if isinstance(winners, str) else list(winners or [])
    points = (view.get("scores") or {}).get(winners[0]) if winners else None
    if not winners:
        return [say(lang, "announce.over")]
    key = "announce.winner" if len(winners) == 1 else "announce.winners"
    if isinstance(points, int):
        key += "_points"
    return [say(lang, key, names=_and(winners, lang), points=points)]


def join_code_words(code: str, where: str, lang: str = "en") -> str:
    """The join code as the speaker says it: digit by digit, twice, with where to go."""
    digits = ", ".join(code)
    spoken_where = where.replace(".", f" {say(lang, 'announce.dot')} ").replace(":", f" {say(lang, 'announce.port')} ")
    return say(lang, "announce.join_code", where=spoken_where, digits=digits)


def token_words(kind: str, lang: str = "en") -> str:
    """An Incantibus token as the rulebook names it: a green potion, 2 gold, Lady Goblin, a wand net
    (in German the token's name alone: its article would need its gender)."""
    if lang != "en":
        return term(lang, "incantibus", f"token.{kind}", fallback=kind.replace("_", " "))
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


def _and(names: Sequence[str], lang: str = "en") -> str:
    names = [str(n) for n in names]
    return names[0] if len(names) == 1 else say(lang, "announce.and", first=", ".join(names[:-1]), last=names[-1])


def _older(view: Mapping[str, Any], before: Mapping[str, Any]) -> bool:
    return isinstance(view.get("version"), int) and isinstance(before.get("version"), int) and view["version"] < before["version"]

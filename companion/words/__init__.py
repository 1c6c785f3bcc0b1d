"""The table's words: every sentence a player reads or hears, in each language the table speaks.

One catalogue per language (``en.json``, ``de.json`` beside this file), keys named for what they say
(``board.no_game``, ``history.cast``), values with named placeholders (``{player} takes {thing}``).
Each game's terms (its tokens, cards, places) live in its own ``data/words.json``, both languages side
by side, and join the catalogue under the game's name (``incantibus.token.lady_goblin``).

    say("de", "announce.casting", number=3)      # -> "Beschwörung 3."
    language("de-DE,de;q=0.9,en;q=0.8")          # -> "de"

The server says notices, refusals and announcements with ``say``; the pages fetch the same catalogue
from ``/api/words/<language>`` and apply it with ``t()`` (``static/js/words.js``). How to add words:
``docs/words.md``.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

LANGUAGES = ("en", "de")
DEFAULT = "en"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
GAMES = ("incantibus", "via_magica", "grimoire", "witchcraft", "ravenskeep")  # whose data/words.json join in


class UnknownWords(KeyError):
    """A key that no catalogue has: a sentence was written in code but never in the catalogues."""


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """Every key of one language: the shared catalogue and each game's terms."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalogue for language {lang!r}; there are {', '.join(LANGUAGES)}")
    words: dict[str, str] = json.loads((resources.files(__package__) / f"{lang}.json").read_text("utf-8"))
    for game, terms in game_terms().items():
        words.update({f"{game}.{key}": text for key, text in terms.get(lang, {}).items()})
    return MappingProxyType(words)


@cache
def game_terms() -> Mapping[str, Mapping[str, Mapping[str, str]]]:
    """Each game's ``data/words.json``: ``{language: {term key: words}}``. Read as files, so the games'
    code is not imported (the rules know nothing of the words shown above them)."""
    games = resources.files("companion") / "games"
    found: dict[str, Mapping[str, Mapping[str, str]]] = {}
    for game in GAMES:
        file = games / game / "data" / "words.json"
        if file.is_file():
            found[game] = json.loads(file.read_text("utf-8"))
    return found


def say(lang: str, key: str, **values: Any) -> str:
    """The sentence ``key`` in ``lang`` with its placeholders filled (English where the language lacks it,
    which the catalogue test forbids)."""
    text = catalogue(lang if lang in LANGUAGES else DEFAULT).get(key)
    if text is None:
        text = catalogue(DEFAULT).get(key)
    if text is None:
        raise UnknownWords(f"no words for {key!r} in {lang!r}")
    return fill(text, values, lang)


def fill(text: str, values: Mapping[str, Any], lang: str = DEFAULT) -> str:
    """Placeholders filled by name; one with no value stays as written, so a slip shows and never raises.
    A value that names its own words ({key, values}: a colour) is said in ``lang`` too."""
    return PLACEHOLDER.sub(lambda m: _value(values[m.group(1)], lang) if m.group(1) in values else m.group(0), text)


def _value(value: Any, lang: str) -> str:
    if isinstance(value, Mapping) and isinstance(value.get("key"), str):
        return say(lang, value["key"], **dict(value.get("values") or {}))
    if isinstance(value, Mapping) and isinstance(value.get("in"), Mapping):  # written in each language (a data file's)
        return str(value["in"][lang] if lang in value["in"] else value["in"].get(DEFAULT, ""))
    return str(value)


def term(lang: str, game: str, key: str, fallback: str | None = None) -> str:
    """A game's term (``term("de", "incantibus", "token.lady_goblin")``); ``fallback`` for one not listed."""
    text = catalogue(lang if lang in LANGUAGES else DEFAULT).get(f"{game}.{key}")
    if text is None and fallback is not None:
        return fallback
    return say(lang, f"{game}.{key}")


def language(accept: str | None, chosen: str | None = None) -> str:
    """The language for one tablet: the one it chose (its switch), else the first of its browser's
    ``Accept-Language`` the table speaks, else English."""
    if chosen in LANGUAGES:
        return str(chosen)
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        ranked.append((-q, i, tag.strip().lower().split("-")[0]))
    for _, _, tag in sorted(ranked):
        if tag in LANGUAGES:
            return tag
    return DEFAULT


def sentence(words: Mapping[str, Any] | None, lang: str, fallback: str = "") -> str:
    """A ``{"key", "values"}`` carried by a notice or a refusal, said in ``lang``."""
    if not words or not isinstance(words.get("key"), str):
        return fallback
    try:
        return say(lang, words["key"], **dict(words.get("values") or {}))
    except UnknownWords:
        return fallback


__all__ = ["DEFAULT", "LANGUAGES", "UnknownWords", "catalogue", "fill", "game_terms", "language", "say", "sentence",
           "term"]

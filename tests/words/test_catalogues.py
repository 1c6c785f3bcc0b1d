"""Every sentence in both languages: the catalogues have the same keys, no empty value, the same
placeholders; each game's terms too. And the lookup: placeholders by name, the tablet's language."""
from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from companion import words

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_both_catalogues_have_the_same_keys() -> None:
    english, german = words.catalogue("en"), words.catalogue("de")
    assert sorted(set(english) - set(german)) == [], "said in English only"
    assert sorted(set(german) - set(english)) == [], "said in German only"


@pytest.mark.parametrize("lang", words.LANGUAGES)
def test_no_sentence_is_empty(lang: str) -> None:
    assert [k for k, v in words.catalogue(lang).items() if not v.strip()] == []


def test_each_sentence_has_the_same_placeholders_in_both() -> None:
    english, german = words.catalogue("en"), words.catalogue("de")
    differ = {k: (english[k], german[k]) for k in english
              if set(PLACEHOLDER.findall(english[k])) != set(PLACEHOLDER.findall(german[k]))}
    assert differ == {}


@pytest.mark.parametrize("game", words.GAMES)
def test_each_games_terms_come_in_both_languages(game: str) -> None:
    file = resources.files("companion") / "games" / game / "data" / "words.json"
    terms = json.loads(file.read_text("utf-8"))
    assert set(terms["en"]) == set(terms["de"]) and terms["en"], game
    assert all(v.strip() for lang in words.LANGUAGES for v in terms[lang].values())


def test_placeholders_are_filled_by_name() -> None:
    assert words.say("de", "history.setup", players="Lera und Katya") == "Das Spiel beginnt mit Lera und Katya."
    assert words.say("en", "parts.token_at", name="goblin", place="room", slot=3) == "goblin, room 3"
    assert words.fill("{a} and {b}", {"a": 1}) == "1 and {b}"  # a slip shows; it never raises


def test_a_game_term_in_each_language() -> None:
    assert words.term("de", "incantibus", "token.goblin") == "Kobold"
    assert words.term("en", "incantibus", "token.goblin") == "goblin"
    assert words.term("de", "incantibus", "token.unheard_of", fallback="unheard of") == "unheard of"


def test_an_unknown_key_names_itself() -> None:
    with pytest.raises(words.UnknownWords, match="no.such.key"):
        words.say("en", "no.such.key")


@pytest.mark.parametrize(("accept", "chosen", "lang"), [
    ("de-DE,de;q=0.9,en;q=0.8", None, "de"), ("en-GB,en;q=0.9", None, "en"), ("fr-FR,fr;q=0.9,de;q=0.5", None, "de"),
    ("fr;q=0.9, en;q=0.4, de;q=0.8", None, "de"), ("", None, "en"), (None, None, "en"), ("de", "en", "en"),
    ("en", "de", "de"), ("en", "xx", "en"), ("de;q=nonsense", None, "de"),
])
def test_the_tablets_language(accept: str | None, chosen: str | None, lang: str) -> None:
    assert words.language(accept, chosen) == lang

"""Every "no" the rules can say has a sentence in both languages: the games' and the engine's source
is read for each rule name a ``Problem`` carries, and the names built in f-strings are expanded to the
values they take, so a German tablet never falls back to "Die Regeln erlauben das nicht."."""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from companion import games, words
from companion.engine.dispatch import type_of
from companion.games.incantibus.spells import PICKS

SOURCE = Path(__file__).resolve().parents[2] / "companion"
FOLDERS = (SOURCE / "games", SOURCE / "engine")
# ``Problem("rule", …)`` and Ravenskeep's ``_p("rule", …)``, also split over lines.
LITERAL = re.compile(r'\b(?:Problem|_p)\(\s*"([a-z][a-z0-9-]*)"')
FORMED = re.compile(r'\b(?:Problem|_p)\(\s*f"([^"]*)"')
# Where a helper is handed the rule it reports with: that argument is a rule name too.
HANDED = {"check_pay": re.compile(r'\bcheck_pay\((?:[^()]|\([^()]*\))*?"([a-z]+)"'),
          "space_problems": re.compile(r'\bspace_problems\([^()]*"([a-z]+)"\)'),
          "_supply_problems": re.compile(r'\b_supply_problems\((?:[^()]|\([^()]*\))*?"([a-z]+)"\)')}


def source() -> str:
    return "\n".join(f.read_text("utf-8") for folder in FOLDERS for f in sorted(folder.rglob("*.py")))


def action_types() -> set[str]:
    return {type_of(h.model) for name in games.names() for h in games.get(name).handlers}  # type: ignore[attr-defined]


def handed(helper: str) -> set[str]:
    return set(HANDED[helper].findall(source()))


# Each f-string rule name, and the values its placeholder takes.
EXPANSIONS: dict[str, Callable[[], set[str]]] = {
    "{kind}-shape": lambda: {f"{t}-shape" for t in action_types()},
    "{rule}-pay": lambda: {f"{r}-pay" for r in handed("check_pay")},
    "{what}-supply": lambda: {f"{w}-supply" for w in handed("_supply_problems")},
    "spell-{card.lower()}": lambda: {f"spell-{c.lower()}" for c in PICKS},
}


def rule_names() -> set[str]:
    text = source()
    found = set(LITERAL.findall(text)) | handed("space_problems")
    for formed in FORMED.findall(text):
        found |= EXPANSIONS[formed]()
    return found


def test_every_f_string_rule_name_is_expanded() -> None:
    assert sorted(set(FORMED.findall(source())) - set(EXPANSIONS)) == [], "a rule name built here has no expansion"


def test_the_scan_finds_the_rule_names_of_every_kind() -> None:
    names = rule_names()
    assert {"pending", "action-type", "position-towers", "wand-down"} <= names  # literal, engine, replay, _p
    assert {"banish-pay", "cast-pay", "cast-shape", "take_familiar-shape", "visible-supply", "spell-oculus"} <= names
    assert {"effect", "crystallize", "move"} <= names  # handed to a helper
    assert len(names) > 150


@pytest.mark.parametrize("lang", words.LANGUAGES)
def test_every_rule_name_has_a_sentence(lang: str) -> None:
    said = words.catalogue(lang)
    assert sorted(r for r in rule_names() if f"problem.{r}" not in said) == [], f"rules without a {lang} sentence"


def test_a_rule_about_a_player_names_them_in_both() -> None:
    english, german = words.catalogue("en"), words.catalogue("de")
    assert "{player}" in english["problem.turn"] and "{player}" in german["problem.turn"]
    assert words.say("de", "problem.turn", player="Lera") == "Lera ist nicht am Zug."

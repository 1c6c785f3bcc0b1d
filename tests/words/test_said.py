"""A sentence the calibration tool or a route says in English names its catalogue entry (``Said``): the
English it says is the catalogue's own English, and a German tablet has the same sentence in German."""
from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from companion.words import catalogue
from companion.words.said import Said, words_of

ROOT = Path(__file__).resolve().parents[2]
SAYERS = ["calibration/desk.py", "calibration/validation.py", "calibration/tip_check.py",
          "calibration/chant_recording.py", "companion/web/routers/calibration.py", "companion/tableside/hub.py",
          "companion/web/disk.py", "companion/status.py", "calibration/drift.py", "calibration/profiles.py",
          "calibration/steps.py", "calibration/layout.py", "calibration/table.py", "calibration/status.py",
          "calibration/wands.py", "calibration/__main__.py"]


def said_in(path: Path) -> list[tuple[str, str]]:
    """Every (key, English) a file says: ``Said("key", "English", ...)`` and its ``Words`` pairs."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Said" and len(node.args) >= 2:
            key, english = node.args[0], node.args[1]
            if isinstance(key, ast.Constant) and isinstance(english, ast.Constant):
                found.append((str(key.value), str(english.value)))
        if isinstance(node, ast.Tuple) and len(node.elts) == 2 and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
            key_node, english_node = node.elts
            assert isinstance(key_node, ast.Constant) and isinstance(english_node, ast.Constant)
            if str(key_node.value).startswith("calibration."):
                found.append((str(key_node.value), str(english_node.value)))
    return found


@pytest.mark.parametrize("path", SAYERS)
def test_each_sentence_said_is_the_catalogues_own(path: str) -> None:
    english, german = catalogue("en"), catalogue("de")
    said = said_in(ROOT / path)
    assert said, f"{path} says nothing with its catalogue words"
    for key, sentence in said:
        assert english.get(key) == sentence, f"{key}: {path} says {sentence!r}, the catalogue {english.get(key)!r}"
        assert key in german, f"{key} has no German"
        names = {n for _, n, _, _ in string.Formatter().parse(sentence) if n}
        assert {n for _, n, _, _ in string.Formatter().parse(german[key]) if n} == names


def test_a_refusal_raised_with_its_words_keeps_them() -> None:
    said = Said("calibration.said.places_saved", "{places} places and {seats} seats saved", places=3, seats=4)
    assert said == "3 places and 4 seats saved"
    assert words_of(ValueError(said)) == {"key": "calibration.said.places_saved", "values": {"places": 3, "seats": 4}}
    assert words_of(ValueError("plain words")) is None and words_of("plain words") is None


def test_a_copied_sentence_keeps_its_words() -> None:
    import copy
    said = Said("status.hub.hello", "wand hub on {port}: saying hello", port="/dev/ttyACM0")
    again = copy.deepcopy(said)
    assert again == "wand hub on /dev/ttyACM0: saying hello" and words_of(again) == said.words

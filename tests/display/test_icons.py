"""The games' pictures: every token, card and place named in a game's data has a picture in
static/icons/icons.json, and every picture is a file of the package that parses as a drawn SVG with a name."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

ICONS = Path(__file__).resolve().parents[2] / "companion" / "web" / "static" / "icons"
DATA = Path(__file__).resolve().parents[2] / "companion" / "games"
SVG = "{http://www.w3.org/2000/svg}"


def data(game: str, file: str) -> Any:
    return json.loads((DATA / game / "data" / file).read_text())


def pictures() -> dict[str, dict[str, dict[str, str]]]:
    return json.loads((ICONS / "icons.json").read_text())["games"]  # type: ignore[no-any-return]


def named_in_the_data() -> list[tuple[str, str, str]]:
    """(game, section of icons.json, name) for every entry the games' data files list, read from the data."""
    inc, vm = data("incantibus", "tokens.json"), data("via_magica", "portals.json")
    wc, rk, gr = data("witchcraft", "cards.json"), data("ravenskeep", "ravenskeep.json"), data("grimoire", "grimoire.json")
    sections: list[tuple[str, str, Any]] = [
        ("incantibus", "tokens", [*inc["kinds"], *inc["specials"]]), ("incantibus", "potions", inc["potions"]),
        ("incantibus", "books", inc["books"]), ("incantibus", "sorcerers", inc["sorcerers"]),
        ("incantibus", "spell_cards", inc["spell_cards"]), ("incantibus", "rooms", inc["rooms"]),
        ("incantibus", "unseen", ["secret", "face_down_sorcerer"]),
        ("via_magica", "animus", vm["bag"]["tokens"]),
        ("via_magica", "portal_colours", {p["colour"] for p in vm["portals"].values()}),
        ("witchcraft", "ingredients", [*wc["ingredients"]["kinds"], "joker"]), ("witchcraft", "familiars", wc["familiars"]),
        ("witchcraft", "witches", wc["witches"]),
        ("witchcraft", "spells", [*wc["starting_spells"], *wc["basic_spells"], *wc["deck_spells"]]),
        ("ravenskeep", "bottles", ["bottle"]), ("ravenskeep", "die", [str(face) for face in rk["die"]["value"]]),
        ("grimoire", "elements", gr["elements"]["value"]),
    ]
    return [(game, section, name) for game, section, names in sections for name in names]


def test_every_token_card_and_place_in_the_games_data_has_a_picture() -> None:
    shown = pictures()
    missing = [f"{game} {section} {name!r}" for game, section, name in named_in_the_data()
               if name not in shown.get(game, {}).get(section, {}) and "*" not in shown.get(game, {}).get(section, {})]
    assert missing == [], f"no picture for: {missing}"


def every_file() -> list[str]:
    return sorted({file for game in pictures().values() for section in game.values() for file in section.values()})


@pytest.mark.parametrize("file", every_file())
def test_every_picture_is_a_named_svg_of_the_package(file: str) -> None:
    path = ICONS / file
    assert path.resolve().is_relative_to(ICONS.resolve()) and path.is_file(), f"{file} is not in static/icons"
    root = ElementTree.parse(path).getroot()
    assert root.tag == f"{SVG}svg" and root.get("viewBox"), f"{file} is not an SVG with a viewBox"
    title = root.find(f"{SVG}title")
    assert title is not None and (title.text or "").strip(), f"{file} has no name (<title>)"
    assert len([e for e in root.iter() if e.tag.removeprefix(SVG) in DRAWN]) >= 2, f"{file} draws next to nothing"
    assert "href" not in path.read_text(), f"{file} reaches outside itself"  # nothing fetched from elsewhere


DRAWN = {"path", "circle", "ellipse", "rect", "text", "line", "polyline", "polygon"}


def test_the_pictures_say_who_drew_them_and_their_licence() -> None:
    assert "MIT" in json.loads((ICONS / "icons.json").read_text())["about"]
    for file in every_file():
        assert "Drawn for Incanto; MIT licence" in (ICONS / file).read_text(), file

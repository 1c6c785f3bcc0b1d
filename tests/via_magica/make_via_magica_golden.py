"""Writes the golden game scripts (tests/via_magica/golden/*.jsonl) from the rulebook's worked examples.

Run it after changing an example: ``.venv/bin/python tests/via_magica/make_via_magica_golden.py``. Each script
starts from a described position (the setup's ``position``, docs/replay.md) with the real bag at the
table (``"draws": "table"``), so every Animus drawn is entered as the table saw it.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).with_name("golden")
Line = dict[str, Any]
ROW = ["P20a", "P21a", "P22a", "P23a", "P24a"]


def setup(players: list[str], position: dict[str, Any]) -> Line:
    return {"type": "setup", "game": "via_magica", "players": players,
            "options": {"draws": "table"}, "seed": 1, "position": position}


def draw(animus: str) -> Line:
    return {"type": "draw", "animus": animus}


def crystal(player: str, portal: str, space: int, moved_from: tuple[str, int] | None = None) -> Line:
    line: Line = {"type": "crystal", "player": player, "to": {"portal": portal, "space": space}}
    if moved_from:
        line["moved_from"] = {"portal": moved_from[0], "space": moved_from[1]}
    return line


def incantatum(first: str, *tie: str) -> Line:
    line: Line = {"type": "incantatum", "first": first}
    if tie:
        line["tie"] = list(tie)
    return line


def take(player: str, portal: str) -> Line:
    return {"type": "portal", "player": player, "take": portal}


def reward(player: str, claim: bool) -> Line:
    return {"type": "reward", "player": player, "claim": claim}


def paola_45_points() -> list[Line]:
    """The final score: 8 (a portal of each colour) + 5 yellow + 10 purple + 8 blue + 14 for two green
    portals (10 for her 5 Earth spaces, 4 for her 1 blue portal) = 45. She opens both green portals in
    the last two turns; Tom opens his seventh portal in the last one, so the game ends with that turn."""
    position = {
        "catcher": "Tom", "out": [], "row": ROW,
        "players": {
            "Paola": {"stockpile": 5, "achieved": ["P01a", "P02a", "P03a"], "rewards": [],
                      "area": {"P04a": [0, 1], "P05a": [0, 1]}},
            "Tom": {"stockpile": 5, "achieved": ["P06b", "P11b", "P13b", "P34b", "P36b", "P37b"],
                    "rewards": ["three_yellow", "three_purple"], "area": {"P40b": [0, 1, 2, 3]}},
        }}
    return [setup(["Paola", "Tom"], position),
            draw("Earth"), crystal("Paola", "P04a", 2), incantatum("Paola"),
            take("Paola", "P20a"), reward("Paola", False),
            draw("Fire"), crystal("Paola", "P05a", 2), crystal("Tom", "P40b", 4),
            incantatum("Tom", "Paola", "Tom"),  # the same instant: Tom is the Catcher, so Tom plays first
            take("Tom", "P22a"), take("Paola", "P21a"), reward("Paola", False)]


def paola_fire() -> list[Line]:
    """'Fire!': Paola has Fire spaces on her purple and blue portals, three crystals in her stockpile and
    four on portals; she moves one of the four to the blue portal's Fire space."""
    position = {
        "catcher": "Tom", "out": ["Air", "Water"], "row": ROW,
        "players": {
            "Paola": {"stockpile": 3, "area": {"P02b": [0, 1], "P03b": [0, 1], "P34a": []}},
            "Tom": {"stockpile": 7, "area": {"P36a": [], "P37a": [], "P38a": []}},
        }}
    return [setup(["Paola", "Tom"], position), draw("Fire"), crystal("Paola", "P03b", 3, ("P02b", 1))]


def paola_water() -> list[Line]:
    """Paola has opened the blue portal that treats Water as a Wildcard: a Water is drawn and she places
    her crystal on a Life space instead."""
    position = {
        "catcher": "Paola", "out": [], "row": ROW,
        "players": {
            "Paola": {"stockpile": 7, "achieved": ["P03a"], "area": {"P02b": [], "P34a": []}},
            "Tom": {"stockpile": 7, "area": {"P36a": [], "P37a": [], "P38a": []}},
        }}
    return [setup(["Paola", "Tom"], position), draw("Water"), crystal("Paola", "P02b", 2),
            crystal("Tom", "P36a", 0)]


def paola_green_portals() -> list[Line]:
    """The green examples: with two green portals open, the 'per green portal' one scores 2 x 3 = 6; with
    five Life spaces on her open portals, the 'per Life space' one scores 5 x 2 = 10. Paola opens her
    second green portal (Air Water Life) when a Life is drawn."""
    position = {
        "catcher": "Paola", "out": [], "row": ["P25a", "P26a", "P27a", "P28a", "P29a"],
        "players": {
            "Paola": {"stockpile": 7, "achieved": ["P02a", "P06a", "P20a"], "area": {"P24a": [0, 1]}},
            "Tom": {"stockpile": 7, "area": {"P36a": [], "P37a": [], "P38a": []}},
        }}
    return [setup(["Paola", "Tom"], position), draw("Life"), crystal("Paola", "P24a", 2), incantatum("Paola"),
            take("Paola", "P25a"), reward("Paola", False)]


SCRIPTS = {"paola_45_points": paola_45_points, "paola_fire": paola_fire, "paola_water": paola_water,
           "paola_green_portals": paola_green_portals}

if __name__ == "__main__":
    for name, make in SCRIPTS.items():
        (GOLDEN / f"{name}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in make()))

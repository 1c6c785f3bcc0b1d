"""Writes the golden game scripts (tests/witchcraft/golden/*.jsonl) from the rulebook's rules stated
as examples: the crystal rule of a buy, the two-player market shift, the Owl's 3 magic ending the game
at 20. Run it after changing an example: ``.venv/bin/python tests/witchcraft/make_witchcraft_golden.py``. Each
script starts from a described position (the setup's ``position``, docs/replay.md).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).with_name("golden")
Line = dict[str, Any]
# Ingredient ids: I01-I10 moonflower, I11-20 toadstool, I21-30 mandrake, I31-40 raven feather,
# I41-50 bat wing, I51-60 frog, I61-70 nightshade, I71-80 spider.
MARKET = ["I41", "I42", "I43", "I71", "J1", "I01", "I51", "I52", "I53"]
DECK = ["I11", "I12", "I13", "I14", "I15", "I16"]


def setup(position: dict[str, Any]) -> Line:
    return {"type": "setup", "game": "witchcraft", "players": ["Ann", "Ben"], "seed": 1, "position": position}


def table(on_market: list[int], ann: dict[str, Any], familiars: list[str] | None = None) -> dict[str, Any]:
    position: dict[str, Any] = {
        "turn": "Ann", "market": MARKET, "on_market": on_market, "deck": DECK,
        "players": {"Ann": {"witch": "brave", "crystals": 4, "spells": {"W01": [], "W02": []}, **ann},
                    "Ben": {"witch": "honest", "crystals": 8, "spells": {"W09": [], "W10": []}}}}
    if familiars:
        position["familiar_stack"] = familiars
    return position


def buy_three_in_a_row() -> list[Line]:
    """Ann buys the middle row: the joker already has 2 crystals on it, so she pays only for the spider
    and the moonflower, one crystal on each of two cards she does not buy (spaces 0 and 8), and takes
    the 2 crystals with the joker. The spider and the moonflower cast her Moonflower-Spider spell; the
    joker goes to her other spell."""
    return [setup(table([0, 0, 0, 0, 2, 0, 0, 0, 0], {})),
            {"type": "buy", "witch": "Ann", "cards": [3, 4, 5], "pay": [0, 8]}]


def two_player_round() -> list[Line]:
    """Two witches: after both turns the bottom row is discarded, the others move down, a new top row is
    dealt, and the crystal on the discarded row goes onto the new row; the rest stay on their cards."""
    return [setup(table([0, 2, 0, 0, 0, 0, 0, 1, 0], {})),
            {"type": "take_crystals", "witch": "Ann"}, {"type": "take_crystals", "witch": "Ben"}]


def owl_reaches_20() -> list[Line]:
    """Ann has 17 magic (three cast spells 15, the Brave 1, her Bat 1); she takes the Owl from the top of
    the familiar stack, worth 3, and wins at once with 20."""
    ann = {"cast": ["S03", "S07", "S08"], "familiars": ["bat"]}
    return [setup(table([0] * 9, ann, ["owl", "cat", "magpie"])), {"type": "take_familiar", "witch": "Ann"}]


SCRIPTS = {"buy_three_in_a_row": buy_three_in_a_row, "two_player_round": two_player_round,
           "owl_reaches_20": owl_reaches_20}

if __name__ == "__main__":
    for name, make in SCRIPTS.items():
        (GOLDEN / f"{name}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in make()))

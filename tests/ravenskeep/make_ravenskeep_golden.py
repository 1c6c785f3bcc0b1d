"""Writes the golden scripts: the rulebook's examples as game scripts (docs/replay.md).

    PYTHONPATH=. python tests/ravenskeep/make_ravenskeep_golden.py

The setup (a gap of the rulebook, data/ravenskeep.json) puts the towers T1-T9 on spaces 1, 3, 4, 6,
7, 9, 10, 12, 13, Ravenskeep on 0, and two players' wizards on the shields: Lera on 2, 8, 14 and
Kirill on 5, 11, 2.
"""
from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

from companion.engine.game import Game
from companion.games import get

HERE = Path(__file__).with_name("golden")
SETUP = {"type": "setup", "game": "ravenskeep", "players": ["Lera", "Kirill"], "options": {"first": "Lera"}, "seed": 5}
L, K = {"player": "Lera"}, {"player": "Kirill"}

SCRIPTS: dict[str, tuple[str, list[dict[str, Any]]]] = {
    "fill_and_spend": ("Easy peasy: a tower placed on wizards fills one potion bottle; the potion is spent on a spell "
                       "in the middle, the bottle goes back to the box, and the game moves on.", [
        {"type": "play", **L, "card": {"moves": "tower", "steps": 1}, "tower": "T1"},
        {"type": "spell", **L, "spell": "hop", "steps": 1, "wizard": 8},
        {"type": "play", **L, "card": {"moves": "wizard", "steps": 2}, "wizard": 14},
        {"type": "end_turn", **L}]),
    "into_ravenskeep": ("A wizard moved onto Ravenskeep drops in; Ravenskeep moves on clockwise to the next raven "
                        "shield with no wizards on it (T1's top on space 1) and the turn ends.", [
        {"type": "play", **L, "card": {"moves": "wizard", "steps": 1}, "wizard": 14}]),
    "die_rerolls": ("A tower card with three dice: Incanto rolls, the card allows two rerolls, each forfeits the roll "
                    "before; only then is the tower chosen, and the last roll counts.", [
        {"type": "roll", **L, "moves": "tower", "dice": 3},
        {"type": "reroll", **L},
        {"type": "reroll", **L},
        {"type": "play", **L, "tower": "T9"}]),
}


def write(name: str, comment: str, setup: dict[str, Any], actions: list[dict[str, Any]], folder: Path = HERE) -> None:
    game = Game.start(get("ravenskeep"), setup["players"], setup["options"], seed=setup["seed"],
                      position=setup.get("position"))
    for action in actions:
        game.propose(action)
    lines = [f"// {comment}", json.dumps(setup), *(json.dumps(a) for a in actions)]
    (folder / f"{name}.jsonl").write_text("\n".join(lines) + "\n")


def whole_game(seed: int) -> list[dict[str, Any]]:
    rules = get("ravenskeep")
    game = Game.start(rules, ["Lera", "Kirill", "Katya"], {"first": "Lera"}, seed=seed)
    rng, actions = Random(seed), []
    while (action := rules.random_action(game.state, rng)) is not None:
        game.propose(action)
        actions.append(action)
    return actions


TOWERS = dict(zip(["1", "3", "4", "6", "7", "9", "10", "12", "13"], [[f"T{i}"] for i in range(1, 10)]))
LAST_ROUND = {**SETUP, "position": {
    "spaces": {"0": ["R"], **TOWERS, "11": ["Kirill"], "14": ["Lera"]},
    "players": {"Lera": {"full": 4, "spent": 1, "keep": 2}, "Kirill": {"full": 5, "keep": 2}}, "active": "Lera"}}
LAST_WIZARDS = [
    {"type": "play", **L, "card": {"moves": "wizard", "steps": 1}, "wizard": 14},
    {"type": "play", **K, "card": {"moves": "tower", "steps": 1}, "tower": "T5"},
    {"type": "play", **K, "card": {"moves": "wizard", "steps": 5}, "wizard": 11}]


def main(folder: Path = HERE) -> None:
    def out(*args: Any) -> None:
        write(*args, folder=folder)

    for name, (comment, actions) in SCRIPTS.items():
        out(name, comment, SETUP, actions)
    out("last_round", "Started from a described position: Lera drops her last wizard into Ravenskeep with no empty "
          "bottle left, so the round is finished; Kirill, last in the round, drops his in too, and his five full "
          "bottles beat her four (one spent).", LAST_ROUND, LAST_WIZARDS)
    three = {**SETUP, "players": ["Lera", "Kirill", "Katya"], "seed": 32}
    out("whole_game", "A whole game: someone has every bottle full and every wizard in Ravenskeep, the round is "
          "finished, and among those who reached both goals the most unspent bottles win; here two tie and share "
          "the victory.", three, whole_game(32))


if __name__ == "__main__":
    main()

"""Writes the golden scripts: the rulebook's course of play as game scripts (docs/replay.md).

    PYTHONPATH=. python tests/grimoire/make_grimoire_golden.py

The German rulebook has no worked examples with numbers; these scripts play what it describes step
by step: a monster escaping at ↺, a monster banished, the whole grimoire to the last page.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.engine.game import Game
from companion.games import get

HERE = Path(__file__).with_name("golden")
BOOK = ["a", "b", "c", "d", "e"]


def write(name: str, comment: str, setup: dict[str, Any], policy: Any, folder: Path = HERE) -> None:
    rules = get("grimoire")
    game = Game.start(rules, setup["players"], setup["options"], seed=setup["seed"], position=setup.get("position"))
    lines = [f"// {comment}", json.dumps({"type": "setup", "game": "grimoire", **setup}, ensure_ascii=False)]
    for action in policy(game):
        game.propose(action)
        lines.append(json.dumps(action, ensure_ascii=False))
    (folder / f"{name}.jsonl").write_text("\n".join(lines) + "\n")


def end_turns(n: int) -> Any:
    def policy(game: Game) -> Any:
        for _ in range(n):
            yield {"type": "end_turn", "player": game.state.current.name}
    return policy


def banish_every_curse(turns: int | None = None) -> Any:
    rewards = ["feuer", "wasser", "erde", "luft"]

    def policy(game: Game) -> Any:
        n = 0
        while game.state.outcome is None and (turns is None or n < turns):
            for curse in list(game.state.curses_out):
                left = game.state.supply
                reward = next((r for r in rewards[n % 4:] + rewards[:n % 4] if left[r][2]), None)
                yield {"type": "banish", "player": game.state.current.name, "curse": curse, "reward": reward}
            yield {"type": "end_turn", "player": game.state.current.name}
            n += 1
    return policy


def main(folder: Path = HERE) -> None:
    def out(*args: Any) -> None:
        write(*args, folder=folder)

    two = {"players": ["Lera", "Kirill"], "options": {"book": BOOK, "first": "Lera", "difficulty": "normal"}, "seed": 3}
    out("monster_escapes", "Curses still lie on the circle when the marker reaches ↺: each player takes the damage, "
          "the monster escapes, the curses go under their piles; field 1, page 2 opens, the round marker moves on.",
          two, end_turns(5))
    out("monster_banished", "Every curse is banished before the marker reaches ↺: the monster is banished and each "
          "player gets the reward.", two, banish_every_curse(5))
    table = {"players": ["Lera", "Kirill"], "options": {"book": BOOK, "first": "Lera", "draws": "table"}, "seed": 3}
    out("table_draws", "The table draws the curses from its own piles: the companion asks for the 4-element curse and "
          "page A's fire curse, the table enters what the cards show, and they are laid on fields 2 and 3.", table,
          lambda game: iter([{"type": "curses_drawn", "curses": [["feuer", "wasser", "erde", "luft"],
                                                                 ["feuer", "feuer", "wasser", "luft"]]},
                             {"type": "end_turn", "player": "Lera"}]))
    last = {**two, "position": {"page": 6, "round": 6, "marker": 4, "fields": {"4": ["feuer-1"], "5": ["vier-2"]},
                                "banished": ["a", "c", "e"], "active": "Lera"}}
    out("last_page", "Started from a described position: the last page is open, two curses lie on fields 4 and 5; "
          "Lera banishes both, Kirill casts and ends his turn, the marker reaches ↺ with no curse left and the "
          "group wins.", last, lambda game: iter([
              {"type": "banish", "player": "Lera", "curse": "feuer-1", "reward": "wasser"},
              {"type": "banish", "player": "Lera", "curse": "vier-2", "reward": "luft"},
              {"type": "end_turn", "player": "Lera"}, {"type": "cast", "player": "Kirill", "spell": "feuer_basis"},
              {"type": "end_turn", "player": "Kirill"}]))
    four = {"players": ["Lera", "Kirill", "Katya", "Rosa"], "options": {"book": BOOK, "first": "Katya",
                                                                       "difficulty": "leicht"}, "seed": 11}
    out("whole_grimoire", "The table banishes every curse each turn and leafs through the whole grimoire: the last "
          "monster is banished and the group wins.", four, banish_every_curse())


if __name__ == "__main__":
    main()

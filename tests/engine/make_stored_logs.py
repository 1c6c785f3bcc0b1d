"""Writes the store and the final views that ``test_stored_logs.py`` replays: a real SQLite store of
every game played a little through the real engine (bots' moves, an undo and a redo), and the final
public view of that store's games and of every golden script, as the code of the day shows them.

It was run once, with the code from before the games' actions and states were typed, so the test
proves that what Incanto stored then still reads back to the same views. Run it again only to
refresh the files on purpose: ``.venv/bin/python tests/engine/make_stored_logs.py``.
"""
from __future__ import annotations

import json
from pathlib import Path
from random import Random

from companion import games
from companion.night import Night
from companion.replay import play
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "stored_logs"
STORE = DATA / "night.sqlite"
VIEWS = DATA / "views.json"
PLAYERS = {"incantibus": ["Lera", "Kirill", "Katya"], "grimoire": ["Lera", "Kirill", "Katya"],
           "ravenskeep": ["Lera", "Kirill"], "via_magica": ["Paola", "Tom", "Ann"],
           "witchcraft": ["Ann", "Ben", "Cleo"]}
MOVES = 40  # each game played this far (or to its end): every phase of a turn, not a whole night


def golden_scripts() -> list[Path]:
    return sorted(ROOT.glob("tests/*/golden/*.jsonl"))


def play_store(store: Store) -> None:
    night = Night.resume_or_start(store, "Stored before typed actions")
    for n, name in enumerate(games.names()):
        rng = Random(n)
        game = night.start_game(name, PLAYERS[name], seed=100 + n)
        for move in range(MOVES):
            action = game.rules.random_action(game.state, rng)
            if action is None:
                break
            game.propose(action, action_id=f"{name}-{move}")
            if move == MOVES // 2:  # the log keeps undo and redo as entries: replay them too
                game.undo()
                game.redo()
                game.undo()


def main() -> None:
    STORE.unlink(missing_ok=True)
    with Store(STORE) as store:
        play_store(store)
        night = Night.resume_or_start(store)
        views = {f"store/{game.rules.name}": game.view() for _, game in night.played()}
    for script in golden_scripts():
        with Store(":memory:") as scratch:
            game, refusal = play(script, scratch)
            assert refusal is None, (script, refusal)
            views[str(script.relative_to(ROOT))] = game.view()
    VIEWS.write_text(json.dumps(views, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()

"""`python -m companion bench engine [--json]`: how fast the rules engine plays, replays and undoes.

    games_per_s          full random games (bots, 4 players, in-memory log) per second
    replay_events_per_s  entries per second when a 10,000-entry log is read back from the SQLite
                         store and folded into the live state (as on a restart)
    undo_ms              median time of one undo through the SQLite store, durable commit included
    undo_ms_memory       the same with an in-memory log (the engine alone)
    games_per_s_<game>   for every game Incanto knows (``python -m companion games``): full random
                         games per second with 4 players, or the game's largest player count
                         (null, with the reason on stderr, if a game's bots cannot finish a game)
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from random import Random
from typing import Any

from companion import games
from companion.engine.game import Game
from companion.engine.rules import Rules
from companion.figures import print_figures
from companion.night import Night
from companion.store import Store

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]


def play_to_end(game: Game, rng: Random, limit: int = 10_000) -> int:
    """Bots play until the game is over; returns the number of actions proposed."""
    for n in range(limit):
        action = game.rules.random_action(game.state, rng)
        if action is None:
            return n
        game.propose(action)
    raise RuntimeError(f"{game.rules.name}: no end after {limit} actions")


def players_for(rules: Rules) -> list[str]:
    """Four players, or as many as the game takes at the most."""
    return PLAYERS[:4] if 4 in rules.player_counts else [f"P{i + 1}" for i in range(max(rules.player_counts))]


def games_per_s(rules: Rules, seconds: float) -> tuple[float, float]:
    played = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game.start(rules, players_for(rules), seed=played)
        actions += play_to_end(game, Random(played))
        played += 1
    elapsed = time.perf_counter() - start
    return played / elapsed, actions / max(played, 1)


def long_log(game: Game, entries: int, seed: int = 1) -> Game:
    """A single game log of ``entries`` entries: bots play, undo and redo, and when the game ends
    the table undoes back to an earlier entry and plays on differently (as a long argument would)."""
    rng, rules = Random(seed), game.rules
    while game.version < entries - 1:
        action = rules.random_action(game.state, rng)
        if action is None:
            applied = [h["seq"] for h in game.history() if h["in_effect"]]
            game.undo_to(rng.choice([0, *applied[: len(applied) // 2]]))
        elif rng.random() < 0.1 and game.view()["can_undo"]:
            game.undo()
            if rng.random() < 0.5:
                game.redo()
        else:
            game.propose(action)
    return game


def replay_events_per_s(rules: Rules, folder: Path, entries: int) -> float:
    with Store(folder / "replay.sqlite") as store:
        live = long_log(stored_game(store, rules, 1), entries)
        game_id = store.games(store.latest_night() or 0)[-1]["id"]
    with Store(folder / "replay.sqlite") as store:
        start = time.perf_counter()
        replayed = Game(rules, store.log(game_id))
        elapsed = time.perf_counter() - start
    if replayed.view() != live.view():
        raise RuntimeError("replayed state differs from the live state")
    return (replayed.version + 1) / elapsed


def stored_game(store: Store, rules: Rules, seed: int) -> Game:
    """A new game in ``store``, started as the table starts one."""
    return Night(store, store.new_night("bench")).start_game(rules.name, players_for(rules), seed=seed)


def undo_ms(game: Game, samples: int) -> float:
    rng, rules = Random(7), game.rules
    for _ in range(40):  # into the middle of a game, past a few checkpoints
        if (action := rules.random_action(game.state, rng)) is None:
            break
        game.propose(action)
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        game.undo()
        times.append((time.perf_counter() - start) * 1000)
        game.redo()
    return statistics.median(times)


def measure(game: str = "incantibus", seconds: float = 5.0, entries: int = 10_000) -> dict[str, Any]:
    """The figures of ``game``, then ``games_per_s_<game>`` for every game (``seconds`` of play each)."""
    rules = games.get(game)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rate, actions_per_game = games_per_s(rules, seconds)
        with Store(folder / "undo.sqlite") as store:
            stored_undo = undo_ms(stored_game(store, rules, 7), 200)
        figures = {
            "game": rules.name,
            "games_per_s": round(rate, 1),
            "actions_per_game": round(actions_per_game, 1),
            "replay_events_per_s": round(replay_events_per_s(rules, folder, entries)),
            "replay_log_entries": entries,
            "undo_ms": round(stored_undo, 3),
            "undo_ms_memory": round(undo_ms(Game.start(rules, players_for(rules), seed=7), 500), 3),
        }
    return figures | every_game(seconds, {rules.name: rate})


def every_game(seconds: float, known: dict[str, float]) -> dict[str, float | None]:
    """``games_per_s_<game>`` for every game in the registry, so games added later appear unasked."""
    figures: dict[str, float | None] = {}
    for name in games.names():
        try:
            rate = known[name] if name in known else games_per_s(games.get(name), seconds)[0]
        except Exception as e:  # one game's broken bots must not hide the other games' figures
            print(f"bench engine: {name}: {type(e).__name__}: {e}", file=sys.stderr)
            figures[f"games_per_s_{name}"] = None
            continue
        figures[f"games_per_s_{name}"] = round(rate, 1)
    return figures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion bench engine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--game", default="incantibus")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play random games")
    args = parser.parse_args(argv)
    figures = measure(args.game, args.seconds)
    print_figures(figures, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""A night at the table: a sequence of games with the same group, kept in one store.

This is what the display and the inputs talk to: the current game, starting the next one, and the
standings across the games played. After a restart it resumes the latest night and game exactly.
"""
from __future__ import annotations

import threading
from typing import Any
from collections.abc import Mapping, Sequence

from companion import games
from companion.engine.game import Game, prepare
from companion.errors import UnknownGame
from companion.store import Store


class Night:
    def __init__(self, store: Store, night_id: int) -> None:
        self.store = store
        self.id = night_id
        self._lock = threading.Lock()
        self._games: dict[int, Game] = {}
        self.current: Game | None = None
        for row in store.games(night_id):
            self.current = self._load(row["id"], row["game"])

    @classmethod
    def resume_or_start(cls, store: Store, name: str = "Game night") -> Night:
        """The latest night in the store, or a new one if there is none."""
        night_id = store.latest_night()
        return cls(store, night_id if night_id is not None else store.new_night(name))

    def start_game(self, game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
                   seed: int | None = None, position: Mapping[str, Any] | None = None) -> Game:
        """The next game of the night. Everything is checked first; then the game and its setup entry
        are stored in one transaction, so a refused start leaves no trace in the store."""
        if not isinstance(game, str):
            raise UnknownGame(f"a game is named by a string from 'python -m companion games', not {game!r}")
        rules = games.get(game)
        setup, initial = prepare(rules, players, options, seed, position)
        with self._lock:
            game_id = self.store.new_game(self.id, rules.name, setup)
            self.current = Game(rules, self.store.log(game_id), initial)
            self._games[game_id] = self.current
            return self.current

    def played(self) -> list[tuple[int, Game]]:
        return list(self._games.items())

    def standings(self) -> list[dict[str, Any]]:
        """Across every game of the night: wins, place points (one for each player who finished below)
        and the sum of points, best first. Unfinished games count only once they are over."""
        table: dict[str, dict[str, Any]] = {}
        for game in self._games.values():
            if not game.rules.is_over(game.state):
                continue
            groups = places(game)
            scores = game.rules.score(game.state)
            for place, group in enumerate(groups):
                below = sum(len(g) for g in groups[place + 1:])
                for player in group:
                    row = table.setdefault(player, {"player": player, "games": 0, "wins": 0, "place_points": 0,
                                                    "points": 0})
                    row["games"] += 1
                    row["wins"] += place == 0
                    row["place_points"] += below
                    row["points"] += scores.get(player, 0)
        return sorted(table.values(), key=lambda r: (-r["wins"], -r["place_points"], -r["points"], r["player"]))

    def _load(self, game_id: int, name: str) -> Game:
        game = Game(games.get(name), self.store.log(game_id))
        self._games[game_id] = game
        return game


def places(game: Game) -> list[list[str]]:
    """The players of a finished game grouped by place, best first. A game whose rulebook lets players
    share a place says so with an optional ``places`` hook (tied winners in one group; a co-operative
    game's whole group, with an empty first place when the game beat them); otherwise each player of
    its ranking has a place of their own."""
    shared = getattr(game.rules, "places", None)
    if shared is not None:
        return shared(game.state)  # type: ignore[no-any-return]
    return [[player] for player in game.rules.ranking(game.state)]

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
from companion.errors import MalformedAction, UnknownGame
from companion.store import Store

# The night's points for first, second, third and fourth place in any game (fifth and below: none).
# Tied players share the better place; a co-operative game the group lost gives nobody a place.
POINTS_PER_PLACE = (5, 3, 2, 1)


class CannotResume(MalformedAction):
    """The game asked for is not an unfinished game of this night."""


class Night:
    def __init__(self, store: Store, night_id: int) -> None:
        self.store = store
        self.id = night_id
        self._lock = threading.Lock()
        self._games: dict[int, Game] = {}
        self.current: Game | None = None
        for row in store.games(night_id):
            self.current = self._load(row["id"], row["game"])
        self.current = self._resumed() or self.current

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
        """Across every finished game of the night, ranked by the night's points for each place
        (``POINTS_PER_PLACE``), never by a game's own points: the five games count on different scales.
        Each row: ``night_points``, ``wins``, ``places`` (the place in each game, in the order played),
        ``place_points`` (one for each player who finished below) and ``games``. Ties go to more wins,
        then the name. Unfinished games count only once they are over."""
        table: dict[str, dict[str, Any]] = {}
        for game in self._games.values():
            if not game.rules.is_over(game.state):
                continue
            for player, place, below in placings(places(game)):
                row = table.setdefault(player, {"player": player, "games": 0, "wins": 0, "night_points": 0,
                                                "place_points": 0, "places": []})
                row["games"] += 1
                row["wins"] += place == 1
                row["night_points"] += night_points(place)
                row["place_points"] += below
                row["places"].append(place)
        return sorted(table.values(), key=lambda r: (-r["night_points"], -r["wins"], r["player"]))

    def resume(self, game_id: int) -> Game:
        """Make an unfinished game of this night the current one again (it was left when another was
        started). Remembered in the store, so a restart comes back to it while no newer game is started."""
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                raise CannotResume(f"game {game_id!r} is not one of tonight's games ({sorted(self._games)})")
            if game.rules.is_over(game.state):
                raise CannotResume(f"game {game_id} ({game.rules.title}) is over; start a new one instead")
            self.store.set_meta(self._resumed_key, f"{game_id} {max(self._games)}")
            self.current = game
            return game

    def current_id(self) -> int | None:
        return next((gid for gid, g in self._games.items() if g is self.current), None)

    @property
    def _resumed_key(self) -> str:
        return f"night {self.id} resumed"

    def _resumed(self) -> Game | None:
        """The game resumed last, if no game was started after it."""
        kept = self.store.meta(self._resumed_key)
        if not kept or not self._games:
            return None
        try:
            game_id, newest = (int(n) for n in kept.split())
        except ValueError:  # not written by this Incanto: follow the latest game, as before any resume
            return None
        return self._games.get(game_id) if newest == max(self._games) else None

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


def placings(groups: list[list[str]]) -> list[tuple[str, int, int]]:
    """(player, place, players below) for each player of ``places``' groups. A group shares the place of
    its best member (two tied winners are both first, the next player third); players behind an empty
    first place (the game beat the group) have no place at all (0)."""
    beaten = bool(groups) and not groups[0]
    found: list[tuple[str, int, int]] = []
    ahead, total = 0, sum(len(g) for g in groups)
    for group in groups:
        for player in group:
            found.append((player, 0 if beaten else ahead + 1, total - ahead - len(group)))
        ahead += len(group)
    return found


def night_points(place: int) -> int:
    return POINTS_PER_PLACE[place - 1] if 0 < place <= len(POINTS_PER_PLACE) else 0

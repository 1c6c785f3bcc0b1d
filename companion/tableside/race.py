"""The race a game asks for, run on the button wands: armed when its prompt opens, its result the game's action.

A game says in its legal actions that a race is open with one game-neutral key (Via Magica's
INCANTATUM! while a portal is full):

    "race": {"action": "incantatum", "order": ["Tom", "Paola", "Lera"]}

``action`` is the type of the action the result becomes; ``order`` names the players in the order that
breaks a tie of the same hub microsecond (Via Magica: the Catcher, then each one's left). The table
side arms one race on the hub (or on the GPIO referee, which runs the hub's own race code) with those
players' wands in that order, and turns the hub's result, decided by the hub's timestamps, into
``{"type": action, "first": winner, "tie": [every player of the same microsecond, winner first]}``
(``tie`` only when there was one). It is the engine that decides whether that is legal.

Who holds which wand: the view's ``wands`` (player -> wand) where the game has them (Incantibus), else
the seat: the first player of ``players`` holds wand 1, the next wand 2, and so on round the table.

One race per open prompt: the same race still asked for (a crystal placed meanwhile) is not armed
again. A result the engine refuses (a wand pressed by someone who may not call) arms a new race, so
the right caller can still press. A result heard twice (the hub's lines asked for again after a
glitch) has the same action id, so it applies once.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import IncantoError, StaleAction
from companion.inputs.events import RaceWon
from companion.tableside.notices import Notices
from companion.tableside.table import Table
from companion.threads import Background

log = logging.getLogger("incanto.tableside")
LOOK_EVERY_S = 0.1  # how often the game's version is looked at for a race opening or closing
STALE_RETRIES = 3  # a result that met an action entered on a tablet in the same instant is tried again

Arm = Callable[[int, tuple[int, ...]], None]  # race id, wands in tie-break order
Disarm = Callable[[int], None]


@dataclass(frozen=True)
class RaceAsked:
    """A view's ``legal["race"]``: the action the race decides and the players' tie-break order."""

    action: str
    order: tuple[str, ...]

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> RaceAsked | None:
        race = (view.get("legal") or {}).get("race")
        if not isinstance(race, Mapping):
            return None
        return cls(str(race["action"]), tuple(str(p) for p in race["order"]))


def holders(view: Mapping[str, Any]) -> dict[int, str]:
    """Wand number -> the player holding it: the view's ``wands`` if the game has them, else by seat."""
    wands = view.get("wands")
    if isinstance(wands, Mapping) and wands:
        return {int(wand): str(player) for player, wand in wands.items()}
    names = [p["name"] if isinstance(p, Mapping) else p for p in view.get("players", [])]
    return {seat: str(name) for seat, name in enumerate(names, start=1)}


@dataclass
class Armed:
    """A race on the wands for one prompt; ``version``: the game's when armed, part of the action id."""

    race: int
    asked: RaceAsked
    wands: dict[int, str]
    game: object
    version: int
    decided: bool = False

    @property
    def action_id(self) -> str:
        return f"race-{self.version}-{self.race}"

    def action(self, won: RaceWon) -> dict[str, Any]:
        """The result as the game's action; KeyError for a winning wand nobody at the table holds."""
        action: dict[str, Any] = {"type": self.asked.action, "first": self.wands[won.wand]}
        tie = [self.wands[w] for w in won.tie if w in self.wands]
        if len(tie) > 1:
            action["tie"] = tie
        return action


class RaceCaller(Background):
    """Arms the race a prompt asks for and proposes its result; ``won`` is fed every ``RaceWon``."""

    def __init__(self, table: Table, arm: Arm, disarm: Disarm, notices: Notices) -> None:
        super().__init__("race-caller", join_s=2)
        self.table, self._arm, self._disarm, self.notices = table, arm, disarm, notices
        self.armed: Armed | None = None
        self._lock = threading.RLock()
        self._seen: tuple[int, int] | None = None
        self._races = 0

    def _run(self) -> None:
        while not self._stop.wait(LOOK_EVERY_S):
            try:
                self.look()
            except Exception:  # a race that cannot be armed must not stop the table: the tablet still works
                log.exception("looking for a race to arm failed")

    # -- arming --------------------------------------------------------------------------------

    def look(self) -> None:
        """Arm or close the race when the game moved on (a new version or a new game)."""
        try:
            game = self.table.game
            seen = (id(game), game.version)
        except IncantoError:
            return
        with self._lock:
            if seen == self._seen:
                return
            self._seen = seen
            self.follow(game, self.table.view())

    def follow(self, game: object, view: Mapping[str, Any]) -> None:
        asked = RaceAsked.of(view)
        with self._lock:
            armed = self.armed
            if armed is not None and armed.game is game and armed.asked == asked:
                return  # one race per open prompt
            self._close()
            if asked is not None:
                self._open(asked, game, view)

    def _open(self, asked: RaceAsked, game: object, view: Mapping[str, Any]) -> None:
        wands = holders(view)
        by_player = {player: wand for wand, player in wands.items()}
        order = tuple(by_player[p] for p in asked.order if p in by_player)
        self._races += 1
        armed = Armed(self._races, asked, wands, game, int(view["version"]))
        try:
            self._arm(armed.race, order)
        except IncantoError as e:  # the hub is unplugged: try again at the next look
            self._seen = None
            log.info("race for %r not armed: %s", asked.action, e)
            return
        self.armed = armed

    def _close(self) -> None:
        armed, self.armed = self.armed, None
        if armed is not None and not armed.decided:
            try:
                self._disarm(armed.race)
            except IncantoError as e:
                log.info("race %d not disarmed: %s", armed.race, e)

    # -- the result ----------------------------------------------------------------------------

    def won(self, event: RaceWon) -> bool:
        """True when the race was one armed here (its result proposed, or heard before)."""
        with self._lock:
            armed = self.armed
            if armed is None or armed.race != event.race:
                return False
            if not armed.decided:
                self._decide(armed, event)
            return True

    def _decide(self, armed: Armed, event: RaceWon) -> None:
        armed.decided = True
        try:
            action = armed.action(event)
        except KeyError:
            self._again(armed, f"wand {event.wand} won the race, but nobody at the table holds it")
            return
        try:
            self._propose(action, armed)
        except IncantoError as e:
            self._again(armed, f"{action['first']} won the race, but the game refused it: {e}")

    def _propose(self, action: dict[str, Any], armed: Armed) -> None:
        for attempt in range(STALE_RETRIES):
            view = self.table.view()
            if RaceAsked.of(view) != armed.asked:
                self.notices.say("race_result", f"{action['first']} won the race after it had closed: not proposed")
                return
            try:
                self.table.propose(action, armed.action_id, int(view["version"]))
                return
            except StaleAction:
                if attempt == STALE_RETRIES - 1:
                    raise

    def _again(self, armed: Armed, why: str) -> None:
        """The result did not stand: say why and arm a new race for the same prompt."""
        self.notices.say("race_result", f"{why}; the race is armed again", race=armed.race)
        if self.armed is armed:
            self.armed = None
            self._seen = None

"""What the display sees of the table: the night, its current game, the devices and open questions.

This is the one door the routes go through. It holds no rule: every change is a proposal to the
engine, and every view is the engine's own. It also tells the push hub about each change, from
whichever thread made it.
"""
from __future__ import annotations

import threading
from typing import Any
from collections.abc import Callable, Mapping, Sequence

from companion.engine.events import Event
from companion.engine.game import Game
from companion.night import POINTS_PER_PLACE, Night
from companion.status import DeviceStatus, StatusBoard
from companion.web.errors import NoGame
from companion.question import CastQuestion
from companion.web.questions import OpenQuestion, Questions

Publish = Callable[[dict[str, Any]], None]


def entry(event: Event) -> dict[str, Any]:
    return {"seq": event.seq, "kind": event.kind, "payload": event.payload, "action_id": event.action_id,
            "at": event.at}


class Table:
    def __init__(self, night: Night, status: StatusBoard) -> None:
        self.night = night
        self.status = status
        self.questions = Questions()
        self._night_row = night.store.night(night.id)  # read once: pages ask for it on every connect
        self._lock = threading.Lock()
        self._answering = threading.Lock()
        self._publish: Publish | None = None
        self._followed: Game | None = None
        self._unsubscribe: Callable[[], None] | None = None

    # -- reading ---------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        if self.night.current is None:
            raise NoGame("no game is being played yet: start one from the night page")
        return self.night.current

    def view(self) -> dict[str, Any]:
        return self.game.view()

    def history(self) -> list[dict[str, Any]]:
        return self.game.history()

    def night_view(self) -> dict[str, Any]:
        games = [{"id": gid, "game": g.rules.name, "title": g.rules.title, "players": g.players,
                  "options": g.options, "over": g.rules.is_over(g.state), "scores": g.rules.score(g.state),
                  "version": g.version,
                  "current": g is self.night.current} for gid, g in self.night.played()]
        return {**self._night_row, "games": games, "standings": self.night.standings(),
                "points_per_place": list(POINTS_PER_PLACE)}

    def snapshot(self) -> dict[str, Any]:
        """Everything a page needs to draw itself from nothing."""
        self.follow_current()
        game = self.night.current
        return {"game": game.view() if game else None, "history": game.history() if game else [],
                "night": self.night_view(), "status": self.status.snapshot(),
                "questions": self.questions.open()}

    # -- changing --------------------------------------------------------------------------

    def propose(self, action: dict[str, Any], action_id: str | None, base: int | None) -> Event:
        return self.game.propose(action, action_id, base)

    def answer(self, question_id: str, targets: Mapping[str, str | None], action_id: str | None) -> Event | OpenQuestion:
        """A tap on a camera question: the wands it answers are marked; once every asked wand is, the
        answers become the cast the camera could not make (the event). Until then, the question as
        marked, and a later tap may change a mark."""
        action_id = action_id or f"answer-{question_id}"
        with self._answering:  # two tablets completing one question at once: one cast
            if (done := self.game.log.find(action_id)) is not None:
                return done  # a retried answer: the question was closed by the first one
            marked = self.questions.mark(question_id, targets)
            if not marked.complete:
                return marked
            event = self.game.propose(marked.question.cast(marked.marks), action_id, marked.base)
            self.questions.close(question_id)
            return event

    def ask(self, question: CastQuestion) -> OpenQuestion:
        """Put the camera's question to the table (see ``companion.web.questions``); a question already
        open for this casting is returned instead: a second cue joins it."""
        self.follow_current()  # a game started elsewhere: its questions must not be withdrawn as old
        return self.questions.ask(question)

    def asking(self) -> OpenQuestion | None:
        """The camera's question open for the current casting, if any."""
        self.follow_current()
        return self.questions.asking(self.game.version)

    def start_game(self, name: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
                   seed: int | None = None) -> Game:
        game = self.night.start_game(name, players, options, seed)
        if self.follow_current() and self._publish:
            self._publish({"type": "snapshot", **self.snapshot()})
        return game

    def resume(self, game_id: int) -> Game:
        """An unfinished game of the night becomes the current one again; every page redraws for it."""
        game = self.night.resume(game_id)
        if self.follow_current() and self._publish:
            self._publish({"type": "snapshot", **self.snapshot()})
        return game

    # -- telling the hub -------------------------------------------------------------------

    def tell(self, publish: Publish) -> None:
        """Send every change to ``publish`` from now on (from any thread)."""
        self._publish = publish
        self.status.subscribe(self._on_status)
        self.questions.subscribe(lambda qs: publish({"type": "questions", "questions": qs}))
        self.follow_current()

    def follow_current(self) -> bool:
        """Listen to the night's current game; True when that changed (someone started a game)."""
        with self._lock:
            current = self.night.current
            if current is self._followed:
                return False
            if self._unsubscribe:
                self._unsubscribe()
            before, self._followed = self._followed, current
            self._unsubscribe = current.subscribe(self._on_event) if current else None
        if before is not None:
            self.questions.withdraw_all()  # the camera's doubts were about the game before
        return True

    def _on_event(self, game: Game, event: Event) -> None:
        # The engine tells each entry in order, after its commit, with the game as that entry left it,
        # so the view is exactly the state this event made.
        history = game.history()
        message = {"type": "event", "event": entry(event), "game": game.view(),
                   "in_effect": [e["seq"] for e in history if e["in_effect"]],
                   "standings": self.night.standings() if game.rules.is_over(game.state) else None}
        if self._publish:
            self._publish(message)
        self.questions.withdraw_older_than(event.seq)

    def _on_status(self, status: DeviceStatus) -> None:
        if self._publish:
            self._publish({"type": "status", "status": self.status.snapshot()})

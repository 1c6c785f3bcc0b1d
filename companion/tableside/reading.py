"""The casting reading: from a cue to a proposal the engine validates, or a question for the table.

On a cue the frames from the cue's instant on go through the vision pipeline, with the places the
rules say may be pointed at as its candidates. Every wand sure: the casting is proposed, keyed by
player (the view's ``wands`` says who holds which strength). Any wand unsure or not seen, or a target
the rules refuse for its holder: the table is asked on the tablets, with the camera's best guesses
first. It never guesses. A camera lost around the cue (unplugged, or no pictures after it) asks the
table about every wand. With no camera or no calibration there is no reading: the status page says
why, and the casting is entered on the tablet as ever.
"""
from __future__ import annotations

import logging
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.cue import Cue
from companion.errors import IllegalAction, IncantoError, StaleAction
from companion.tableside.camera import TableCamera
from companion.tableside.config import TableSideError
from companion.tableside.notices import Notices
from companion.tableside.places import TablePlaces
from companion.tableside.proposal import CastProposal
from companion.tableside.table import Table
from vision.decide import CastingResult, WandReading
from vision.pipeline import TABLE_BEFORE_S, read_casting
from vision.proposal import cast_proposal
from vision.touch import TipSwitches

log = logging.getLogger("incanto.tableside")
SLACK_S = 1.5  # past the pipeline's own give-up time: frames still on their way from the camera
LOST_AROUND_CUE_S = 2.0  # a camera whose last picture is this recent was seeing when the casting began


@dataclass(frozen=True)
class Reading:
    """What came of one cue: "cast" (proposed), "asked" (a question is open), or why nothing did
    ("blind", "not_casting", "no_game", "stale", "busy", "unknown_place")."""

    outcome: str
    message: str
    reading: dict[str, Any] | None = None
    action: dict[str, Any] | None = None
    question_id: str | None = None
    details: dict[str, Any] = field(default_factory=dict)


class CastingReader:
    """``tips``: the wands' tip switches (the hub's, ``WandHub.tips``), asked as each wand is read;
    None: the camera alone."""

    def __init__(self, table: Table, camera: TableCamera, places: TablePlaces, notices: Notices,
                 tips: TipSwitches | None = None) -> None:
        self.table, self.camera, self.places, self.notices = table, camera, places, notices
        self.tips = tips
        self._busy = threading.Lock()
        self.last: Reading | None = None
        self.finished = threading.Condition()
        self.count = 0  # readings finished, for whoever waits on ``finished``
        self.outcomes: Counter[str] = Counter()

    def on_cue(self, cue: Cue) -> None:
        """Read in a thread of its own: the cue's thread (the hub link, the microphone) goes on."""
        if not self._busy.acquire(blocking=False):
            self._tell(Reading("busy", f"cue from {cue.source} heard while a casting was being read: ignored"))
            return
        threading.Thread(target=self._read_and_release, args=(cue,), name="casting-reading", daemon=True).start()

    def _read_and_release(self, cue: Cue) -> None:
        try:
            self._tell(self.read(cue))
        except Exception:  # a reading that fails must never take the table down: the tablet still works
            log.exception("reading the casting after %r failed", cue)
            self._tell(Reading("failed", "the camera's reading failed: enter the casting on the tablet"))
        finally:
            self._busy.release()

    def _tell(self, reading: Reading) -> None:
        self.notices.say("reading", reading.message, outcome=reading.outcome, question=reading.question_id)
        with self.finished:
            self.last = reading
            self.count += 1
            self.outcomes[reading.outcome] += 1
            self.finished.notify_all()

    # -- one reading -------------------------------------------------------------------------

    def read(self, cue: Cue) -> Reading:
        try:
            view = self.table.view()
        except IncantoError:
            return Reading("no_game", "cue heard, but no game is being played")
        legal = view["legal"]
        if legal.get("kind") != "cast":
            return Reading("not_casting", f"cue heard from {cue.source}, but the table is not casting now")
        blind = self.camera.why_blind()
        if blind is not None and self._lost_around(cue):
            return self._ask_everyone(view, f"cue heard from {cue.source}, but {blind}")
        if blind is not None:
            return Reading("blind", f"cue heard from {cue.source}; {blind}, so enter the casting on the tablet")
        try:
            candidates = self.places.candidates(t for ids in legal["targets"].values() for t in ids)
        except TableSideError as e:
            return Reading("unknown_place", f"{e}: enter the casting on the tablet")
        return self._decide(cue, view, candidates)

    def _decide(self, cue: Cue, view: dict[str, Any], candidates: list[dict[str, Any]]) -> Reading:
        strengths = [view["wands"][p] for p in view["legal"]["players"]]
        pipeline = self.camera.pipeline
        assert pipeline is not None
        timeout = pipeline.cfg.decide.give_up_ms / 1000 + SLACK_S
        with self.camera.pipeline_lock:
            result = read_casting(pipeline, self.camera.frames_since(cue.t_end - TABLE_BEFORE_S, timeout), cue.t_end, strengths,
                                  candidates, tips=self.tips)
        if result is None:
            return self._ask_everyone(view, "the camera sent no pictures after the cue")
        reading = cast_proposal(result)
        details: dict[str, Any] = {"wands": result.as_dicts()}
        if reading["unsure"]:
            return self._ask(view, reading, set(reading["unsure"]), details, result)
        return self._propose(cue, view, reading, details, result)

    def _propose(self, cue: Cue, view: dict[str, Any], reading: dict[str, Any], details: dict[str, Any],
                 result: CastingResult) -> Reading:
        holders = {strength: player for player, strength in view["wands"].items()}
        proposal = CastProposal.from_reading(reading["targets"], holders, view["version"], cue)
        action = proposal.action()
        try:
            self.table.propose(action, proposal.action_id, proposal.base)
        except StaleAction:
            return Reading("stale", "the casting was entered on a tablet while the camera read it", reading, action)
        except IllegalAction as e:
            # Seen clearly, but not a target its holder may take: the table says what was meant.
            refused = {view["wands"][p.player] for p in e.problems if p.player in view["wands"]}
            return self._ask(view, reading, refused or set(holders), {**details, "refused": str(e)}, result)
        return Reading("cast", f"the camera read the casting: {proposal.said()}", reading, action, details=details)

    def _ask(self, view: dict[str, Any], reading: dict[str, Any], unsure: set[int], details: dict[str, Any],
             result: CastingResult) -> Reading:
        if self.table.view()["version"] != view["version"]:
            return Reading("stale", "the casting was entered on a tablet while the camera read it", reading)
        holders = {strength: player for player, strength in view["wands"].items()}
        legal = view["legal"]["targets"]
        choices = {s: _choices(result.wands[s], legal.get(holders[s], [])) for s in sorted(unsure)}
        question = self.table.ask({**reading, "unsure": sorted(unsure)}, choices)
        names = ", ".join(f"{holders[s]} (wand {s})" for s in sorted(unsure))
        return Reading("asked", f"the camera is not sure of {names}: answer on the tablet", reading,
                       question_id=question.id, details=details)


    def _lost_around(self, cue: Cue) -> bool:
        """The camera sent pictures until just before the cue and then stopped: lost mid-casting (a
        camera missing for a while is on the status page already, and the table enters by hand)."""
        latest = self.camera.ring.latest()
        return (self.camera.spec != "none" and self.camera.pipeline is not None and latest is not None
                and cue.t_end - latest.t <= LOST_AROUND_CUE_S)

    def _ask_everyone(self, view: dict[str, Any], why: str) -> Reading:
        """No pictures to read: every wand is put to the table, with every target its holder may take."""
        legal = view["legal"]
        strengths = sorted(view["wands"][p] for p in legal["players"])
        holders = {strength: player for player, strength in view["wands"].items()}
        reading = {"type": "cast", "source": "camera", "targets": {str(s): None for s in strengths},
                   "unsure": strengths, "why": {str(s): "no_pictures" for s in strengths}}
        choices: dict[int, list[str | None]] = {s: list(legal["targets"].get(holders[s], [])) for s in strengths}
        question = self.table.ask(reading, choices)
        return Reading("asked", f"{why}: who pointed where? answer on the tablet", reading, question_id=question.id,
                       details={"camera_lost": True})


def _choices(wand: WandReading, legal: list[str]) -> list[str | None]:
    """The camera's best guess and runner-up that the holder may take, best first; every legal target
    when the camera has no idea (a wand not seen)."""
    guesses = [t for t in (wand.best, wand.runner_up) if t is not None and t in legal]
    return list(dict.fromkeys(guesses)) or list(legal)

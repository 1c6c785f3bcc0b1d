"""The casting reading: from a cue to a proposal the engine validates, or a question for the table.

On a cue the frames from the cue's instant on go through the vision pipeline, with the places the
rules say may be pointed at as its candidates. Every wand sure: the casting is proposed, keyed by
player (the view's ``wands`` says who holds which strength). Any wand unsure or not seen, or a target
the rules refuse for its holder: the table is asked on the tablets (``companion.tableside.asking``),
with the camera's best guesses first and its picture of each such wand. It never guesses. A cue
while the camera's question is open joins it: one casting, one question. A camera lost around the
cue (unplugged, or no pictures after it) asks the table about every wand. With no camera or no
calibration there is no reading: the status page says why, and the casting is entered on the
tablet as ever.
"""
from __future__ import annotations

import contextlib
import logging
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.cue import Cue
from companion.errors import IllegalAction, IncantoError, StaleAction
from companion.tableside.camera import TableCamera
from companion.tableside.lights import CastingWatcher
from companion.tableside.notices import Notices
from companion.tableside.places import TablePlaces, UnknownPlace
from companion.tableside.asking import cast_question, place_names, seen_targets, unsure_wands
from companion.tableside.proposal import CastProposal
from companion.tableside.recording import TableRecording
from companion.tableside.table import Table
from vision.decide import CastingResult
from vision.frames import FrameSource
from vision.targets import Candidate
from vision.moment import Moment, read_casting_at
from vision.pipeline import TABLE_BEFORE_S
from vision.touch import TipSwitches

log = logging.getLogger("incanto.tableside")
SLACK_S = 1.5  # past the pipeline's own give-up time: frames still on their way from the camera
LOST_AROUND_CUE_S = 2.0  # a camera whose last picture is this recent was seeing when the casting began


@dataclass(frozen=True)
class Reading:
    """What came of one cue: "cast" (proposed), "asked" (a question is open), "joined" (a question
    was already open for this casting: the cue joins it), or why nothing did ("blind", "not_casting",
    "no_game", "stale", "busy", "unknown_place")."""

    outcome: str
    message: str
    targets: dict[int, str | None] | None = None  # by wand strength: what the camera read (None: not read)
    action: dict[str, Any] | None = None
    question_id: str | None = None
    details: dict[str, Any] = field(default_factory=dict)


class CastingReader:
    """``tips``: the wands' tip switches (the hub's, ``WandHub.tips``), asked as each wand is read;
    None: the camera alone. ``watcher``: told as each casting's reading begins and closes (the wands'
    LEDs, the tip switches' record: ``WandHub.watch``)."""

    def __init__(self, table: Table, camera: TableCamera, places: TablePlaces, notices: Notices,
                 tips: TipSwitches | None = None, watcher: CastingWatcher | None = None,
                 record: Path | None = None) -> None:
        self.table, self.camera, self.places, self.notices = table, camera, places, notices
        self.tips = tips
        self.watcher = watcher
        self.record = record  # a folder: every casting's frames, cue and answer kept there (``recording``)
        self.recording: TableRecording | None = None
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
        self.notices.say("reading", reading.message, outcome=reading.outcome, question=reading.question_id,
                         words=(f"notice.reading.{reading.outcome}", {}))
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
        self.settle()
        legal = view["legal"]
        if legal.get("kind") != "cast":
            return Reading("not_casting", f"cue heard from {cue.source}, but the table is not casting now")
        if (open_ := self.table.asking()) is not None:
            # A second "In-can-to!" while the table answers: the same casting, the same question.
            return Reading("joined", f"cue heard from {cue.source} while the camera's question is open: answer it "
                                     "on the tablet", question_id=open_.id)
        blind = self.camera.why_blind()
        if blind is not None and self._lost_around(cue):
            return self._ask_everyone(view, f"cue heard from {cue.source}, but {blind}")
        if blind is not None:
            return Reading("blind", f"cue heard from {cue.source}; {blind}, so enter the casting on the tablet")
        try:
            candidates = self.places.candidates(t for ids in legal["targets"].values() for t in ids)
        except UnknownPlace as e:
            return Reading("unknown_place", f"{e}: enter the casting on the tablet")
        return self._decide(cue, view, candidates)

    def _decide(self, cue: Cue, view: dict[str, Any], candidates: list[Candidate]) -> Reading:
        strengths = [view["wands"][p] for p in view["legal"]["players"]]
        pipeline = self.camera.pipeline
        assert pipeline is not None
        timeout = pipeline.cfg.decide.give_up_ms / 1000 + SLACK_S
        # From a moment before the cue: the pipeline remembers the table as it was (``vision.bare_table``).
        frames: FrameSource = self.camera.frames_since(cue.t_end - TABLE_BEFORE_S, timeout)
        if (recording := self._recording()) is not None:
            frames = recording.casting(cue.t_end, strengths, [c.id for c in candidates], frames)
        watch = self.watcher.began(strengths) if self.watcher is not None else None
        read = None
        try:
            with self.camera.pipeline_lock:
                read = read_casting_at(pipeline, frames, cue.t_end, strengths, candidates, tips=self.tips, watch=watch)
        finally:
            if self.watcher is not None:
                self.watcher.closed(read[0] if read is not None else None)
        if read is None:
            return self._ask_everyone(view, "the camera sent no pictures after the cue")
        result, moment = read
        details: dict[str, Any] = {"wands": result.as_dicts()}
        if unsure := unsure_wands(result):
            return self._ask(view, result, unsure, details, moment)
        return self._propose(cue, view, result, details, moment)

    def _propose(self, cue: Cue, view: dict[str, Any], result: CastingResult, details: dict[str, Any],
                 moment: Moment) -> Reading:
        holders = {strength: player for player, strength in view["wands"].items()}
        targets = seen_targets(result)
        proposal = CastProposal.from_reading(targets, holders, view["version"], cue)
        action = proposal.action()
        try:
            self.table.propose(action, proposal.action_id, proposal.base)
        except StaleAction:
            return Reading("stale", "the casting was entered on a tablet while the camera read it", targets, action)
        except IllegalAction as e:
            # Seen clearly, but not a target its holder may take: the table says what was meant.
            refused = {view["wands"][p.player] for p in e.problems if p.player in view["wands"]}
            return self._ask(view, result, sorted(refused or holders), {**details, "refused": str(e)}, moment)
        if self.recording is not None:
            self.recording.read_as_seen(cue.t_end, targets)
        said = proposal.said(place_names(view, [t for t in targets.values() if t is not None]))
        return Reading("cast", f"the camera read the casting: {said}", targets, action, details=details)

    def _ask(self, view: dict[str, Any], result: CastingResult, unsure: list[int], details: dict[str, Any],
             moment: Moment) -> Reading:
        if self.table.view()["version"] != view["version"]:
            return Reading("stale", "the casting was entered on a tablet while the camera read it", seen_targets(result))
        holders = {strength: player for player, strength in view["wands"].items()}
        question = self.table.ask(cast_question(view, result, unsure, moment))
        if self.recording is not None:
            self.recording.asked(result.cue_at, view["version"], view["wands"], unsure)
        names = ", ".join(f"{holders[s]} (wand {s})" for s in unsure)
        return Reading("asked", f"the camera is not sure of {names}: answer on the tablet", seen_targets(result),
                       question_id=question.id, details=details)

    def _recording(self) -> TableRecording | None:
        """The night's recording, begun at the first casting read (the table is calibrated by then)."""
        if self.recording is None and self.record is not None:
            try:
                self.recording = TableRecording(self.record, self.camera, self.places, self.camera.calibration_path)
            except (OSError, ValueError) as e:  # the casting is still read; the tablets hear why it is not kept
                self.notices.say("reading", f"the night cannot be recorded in {str(self.record)!r}: {e}", outcome="failed")
                self.record = None
        return self.recording

    def settle(self) -> None:
        """The answer to a casting the table was asked about, into the recording once the game has it."""
        if self.recording is not None:
            with contextlib.suppress(IncantoError):
                self.recording.settle(self.table.game)

    def close(self) -> None:
        self.settle()
        if self.recording is not None:
            self.recording.close()

    def _lost_around(self, cue: Cue) -> bool:
        """The camera sent pictures until just before the cue and then stopped: lost mid-casting (a
        camera missing for a while is on the status page already, and the table enters by hand)."""
        latest = self.camera.ring.latest()
        return (self.camera.spec != "none" and self.camera.pipeline is not None and latest is not None
                and cue.t_end - latest.t <= LOST_AROUND_CUE_S)

    def _ask_everyone(self, view: dict[str, Any], why: str) -> Reading:
        """No pictures to read: every wand is put to the table, with every target its holder may take."""
        strengths = sorted(view["wands"][p] for p in view["legal"]["players"])
        question = self.table.ask(cast_question(view, None, strengths, None, why="no_pictures"))
        return Reading("asked", f"{why}: who pointed where? answer on the tablet", {s: None for s in strengths},
                       question_id=question.id, details={"camera_lost": True})


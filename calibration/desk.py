"""The guided flow's back-end: the steps of the tool done on the live camera picture, as the tablet
asks for them. The web layer only forwards; every rule and every word is here.

    camera      photos of a printed chessboard held under the camera -> the camera's intrinsics
    table       find the markers in the live picture -> the table's pose
    layout      taps on the live picture -> the game's places file
    wands       a picture of the empty table, then the wands held in view -> paints, warnings
    cue         the group's "In-can-to!" recorded from the Pi's microphone -> the cue's templates
    validation  "point at the highlighted token" -> hits, and what went wrong
    tips        "press each tip on the table", then "lift them all" -> which tip switches work
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from calibration.boards import parse_board
from calibration.chant_recording import ChantRecorder, Opener, as_wav
from calibration.camera import board_view
from calibration.cue_step import HEADER_BYTES, MAX_RECORDING_BYTES, cue_folder, enrol_recording, wav_problem
from calibration.feed import LatestSource, LiveFeed, NoPicture
from calibration.geometry import table_to_pixels
from calibration.layout import game_places, read_places
from calibration.model import CalibrationError
from companion.words.said import Said, words_of
from calibration.profiles import changes, load_kept, note, rollback, save, versions
from calibration.status import describe
from calibration.steps import board_suggestions, calibrate, find_table, learn_wand_paints, place_taps, places_path
from calibration.sheet import draw_sheet, sheet_bytes
from calibration.table import DEFAULT_LAYOUT, TableLayout
from calibration.tip_check import TipCheck
from calibration.validation import ListSource, Validation
from companion.cue.microphone import Microphone
from vision.config import load_config
from vision.frames import Frame
from vision.pipeline import Pipeline, read_casting
from vision.touch import TipSwitches
from vision.profile import Profile


BOARD_PHOTOS = 10  # what the camera step asks for: enough angles to pin the lens down
MIN_BOARD_PHOTOS = 5


@dataclass
class Recording:
    """A recording arriving in parts (the display takes small request bodies)."""

    data: bytearray = field(default_factory=bytearray)

    def add(self, offset: int, part: bytes) -> int:
        if offset != len(self.data):
            raise CalibrationError(f"recording part at byte {offset} but {len(self.data)} bytes have arrived: record again")
        if len(self.data) + len(part) > MAX_RECORDING_BYTES:
            raise CalibrationError(f"the recording is over {MAX_RECORDING_BYTES} bytes: keep it to a few chants")
        head = bytes(self.data[:HEADER_BYTES]) + part[:HEADER_BYTES]
        if len(self.data) < HEADER_BYTES <= len(head) and (problem := wav_problem(head)) is not None:
            raise CalibrationError(f"{problem}: record again")  # refused at the edge, before any work
        self.data += part
        return len(self.data)


class CalibrationDesk:
    def __init__(self, profile: Path, feed: LiveFeed, game: str = "incantibus", layout: Path = DEFAULT_LAYOUT,
                 tips: TipSwitches | None = None, microphone: Opener = Microphone) -> None:
        """``microphone``: opens the Pi's microphone (the cue's sound seam) to record the chant."""
        self.profile_path, self.feed, self.layout_path = Path(profile), feed, layout
        self.chant = ChantRecorder(microphone)
        self.tips = tips  # the wands' tip switches: validation reads as play does
        self.game = game_places(game)
        self.empty_table: np.ndarray | None = None
        self.recordings: dict[str, Recording] = {}  # each tablet's own, so one never wipes another's
        self.by = "the tablet"  # who asks for the step being done (the display says), for the change log
        self.given_up = threading.Event()  # set when the display gave up the step in hand: it stops watching
        self.validation: Validation | None = None
        self.tip_check: TipCheck | None = None
        self.board_photos: list[np.ndarray] = []
        self._lock = threading.Lock()  # one step at a time: each reads and writes the one profile

    # -- what the page shows --------------------------------------------------------------------
    def profile(self) -> tuple[Profile | None, str | None]:
        """The profile in use and, if the file was refused, why (then the last good one is in use)."""
        resolution = self._resolution()
        try:
            return load_kept(self.profile_path, resolution)
        except CalibrationError as e:
            return None, str(e) if self.profile_path.exists() else None

    def _resolution(self) -> tuple[int, int] | None:
        try:
            h, w = self.feed.latest().image.shape[:2]
        except ValueError:
            return None
        return w, h

    def state(self, paths: bool = True) -> dict[str, Any]:
        """What the page shows; without ``paths`` (a tablet that has not joined), no file's full path:
        where the Pi keeps its files is nobody's business on the LAN."""
        profile, refused = self.profile()
        lines = describe(self.profile_path, self._resolution())
        state = {"profile": str(self.profile_path), "refused": refused, "refused_words": words_of(refused),
                 "lines": lines, "lines_words": [words_of(line) for line in lines],
                "image": dict(zip(("width", "height"), self._resolution() or (0, 0))),
                "game": self.game.game, "places": [{"name": n, "words": self.game.describe(n), "say": self._place(n)} for n in self.game.names],
                "steps": self._steps(profile), "places_px": self._places_px(profile),
                "validation": self.validation.summary() if self.validation else None,
                "changes": changes(self.profile_path), "versions": versions(self.profile_path)}
        return state if paths else _without_paths(state, self.profile_path.parent)

    def _steps(self, profile: Profile | None) -> dict[str, dict[str, Any]]:
        """Each step of the guided setup: done or not, and what was found, in the table's words."""
        table = profile is not None and profile.table is not None
        wands = sorted(profile.wands) if profile is not None and profile.wands else []
        places = places_path(self.profile_path, self.game.game).exists()
        return {
            "camera": _step(profile is not None, Said("calibration.found.camera", "the camera is measured")
                            if profile is not None else Said("calibration.found.no_camera",
                                                             "not measured yet: hold the printed chessboard under the camera")),
            "table": _step(table, Said("calibration.found.table", "the table is found") if table else
                           Said("calibration.found.no_table", "not found yet: lay the markers, clear the table")),
            "layout": _step(places, Said("calibration.found.places", "the places are saved") if places else
                            Said("calibration.found.no_places", "not saved yet: tap each place on the picture")),
            "wands": _step(bool(wands), Said("calibration.found.wands", "wands {wands} learned", wands=", ".join(map(str, wands)))
                           if wands else Said("calibration.found.no_wands", "not learned yet")),
            "cue": _step(bool(profile and profile.cue), Said("calibration.found.chant", "the chant is recorded")
                         if profile and profile.cue else Said("calibration.found.no_chant", "not recorded yet")),
        }

    def _place(self, name: str) -> dict[str, Any]:
        """A place's words in the table's catalogues: ``calibration.place.<game>.<place>``."""
        return {"key": f"calibration.place.{self.game.game}.{name}", "values": {}}

    def _places_px(self, profile: Profile | None) -> dict[str, list[float]]:
        """Where the saved places are on the picture, to draw them (validation highlights one)."""
        path = places_path(self.profile_path, self.game.game)
        if profile is None or profile.table is None or not path.exists():
            return {}
        places = read_places(path).places
        c, t = profile.camera, profile.table
        pixels = table_to_pixels(np.array([[p.x_mm, p.y_mm, 0.0] for p in places.values()]), c.matrix(), c.dist_coeffs(),
                                 np.array(t.rvec), np.array(t.tvec))
        return {n: [round(float(u), 1), round(float(v), 1)] for n, (u, v) in zip(places, pixels)}

    def sheet(self, kind: str) -> bytes:
        """The marker sheet to print, true to scale."""
        return sheet_bytes(draw_sheet(TableLayout.load(self.layout_path)), kind)

    # -- the steps ------------------------------------------------------------------------------
    def photograph_board(self, board: str) -> str:
        """Keep the live picture as a board photo if the whole board is in it."""
        image = self.feed.latest().image.copy()
        if board_view(image, parse_board(board)) is None:
            raise CalibrationError(Said("calibration.refused.board_not_seen",
                                        "the whole board is not in the picture: hold all of it in view, flat and still"))
        self.board_photos.append(image)
        more = max(0, BOARD_PHOTOS - len(self.board_photos))
        if more:
            return Said("calibration.said.board_photo", "board photo {n} kept; {more} more, each at another angle",
                        n=len(self.board_photos), more=more)
        return Said("calibration.said.board_photos_enough", "board photo {n} kept: enough to measure the camera",
                    n=len(self.board_photos))

    def measure_camera(self, board: str) -> str:
        if len(self.board_photos) < MIN_BOARD_PHOTOS:
            raise CalibrationError(Said("calibration.refused.too_few_photos",
                                        "{n} board photos kept; take at least {least}, each at another angle",
                                        n=len(self.board_photos), least=MIN_BOARD_PHOTOS))
        with self._lock:
            result, cleared = calibrate(self.profile_path, self.board_photos, board, fix_aspect=False)
        self.board_photos = []
        self._changed(Said("calibration.change.camera", "camera measured"))
        c = result.intrinsics
        if cleared:
            return Said("calibration.said.camera_measured_table_cleared", "camera measured from {photos} photos "
                        "(error {error} px); the table pose was cleared: find the table again",
                        photos=len(result.used), error=f"{c.rms_px:.2f}")
        return Said("calibration.said.camera_measured", "camera measured from {photos} photos (error {error} px)",
                    photos=len(result.used), error=f"{c.rms_px:.2f}")

    # -- the rest of the steps ------------------------------------------------------------------------------
    def find_table(self) -> str:
        with self._lock:
            fit = find_table(self.profile_path, self.feed.latest().image, self.layout_path)
        self._changed(Said("calibration.change.table", "table found"))
        found = {"markers": str(fit.markers_used), "fit": f"{fit.pose.rms_px:.2f}"}
        if fit.markers_missing:
            return Said("calibration.said.table_found_missing", "table found from markers {markers} (fit {fit} px); "
                        "not seen: markers {missing}", missing=str(fit.markers_missing), **found)
        return Said("calibration.said.table_found", "table found from markers {markers} (fit {fit} px)", **found)

    def lay_out(self, taps: Mapping[str, Any]) -> str:
        out = places_path(self.profile_path, self.game.game)
        # Each tap snaps to the token it landed on, found in the camera's newest picture: the tablet
        # tapped on the live picture of a table nobody moves during the layout step. Places 8 mm off
        # their tokens read wands at the rim as the neighbour's (docs/wand-markers.md). With no
        # picture the taps are kept as tapped, and the reply says so.
        try:
            image: np.ndarray | None = self.feed.latest().image.copy()
        except NoPicture:
            image = None
        with self._lock:
            done = place_taps(self.profile_path, self.game.game, taps, out, image=image)
        self._changed(Said("calibration.change.places_of", "places of {game} laid out", game=self.game.game))
        counts = {"places": len(done.places.places), "seats": len(done.places.seats)}
        if image is None:
            return Said("calibration.said.places_saved_unsnapped", "{places} places and {seats} seats saved as "
                        "tapped (no camera picture to snap them to their tokens)", **counts)
        snapped = len(done.snapped)
        if done.kept:
            return Said("calibration.said.places_saved_some_kept", "{places} places and {seats} seats saved; "
                        "{snapped} taps snapped to their tokens, kept as tapped (no clear token under the tap): "
                        "{kept}", snapped=snapped, kept=", ".join(done.kept), **counts)
        return Said("calibration.said.places_saved", "{places} places and {seats} seats saved; {snapped} taps "
                    "snapped to their tokens", snapped=snapped, **counts)

    def from_board(self, taps: Mapping[str, Any]) -> dict[str, list[float]]:
        """Where the board puts the places not tapped yet, as pixels of the picture, to check by eye."""
        return board_suggestions(self.profile_path, self.game.game, taps)

    def take_empty_table(self) -> str:
        self.empty_table = self.feed.latest().image.copy()
        return Said("calibration.said.empty_table",
                    "the empty table is noted: now hold every wand with its tip bead resting on the table")

    def learn_wands(self, seconds: float) -> dict[str, Any]:
        if self.empty_table is None:  # without it, a red chair would be learned as a wand's paint unwarned
            raise CalibrationError(Said("calibration.refused.empty_table_first",
                                        "note the empty table first (the step before): the wands are told apart from it"))
        frames = [f.image for f in self.feed.gather(seconds, self.given_up)]
        if self.given_up.is_set():
            raise CalibrationError(Said("calibration.refused.wands_given_up",
                                        "the wand step was given up before it was done: nothing was learned"))
        with self._lock:
            learned = learn_wand_paints(self.profile_path, frames, self.empty_table)
        self._changed(Said("calibration.change.wands_count", "{count} wands learned", count=len(learned.models)))
        message = Said("calibration.said.wands_learned", "learned {wands} wands from {pictures} pictures",
                       wands=len(learned.models), pictures=learned.frames)
        return {"message": message, "words": message.words,
                "wands": {k: m.model_dump() for k, m in learned.models.items()}, "warnings": learned.warnings,
                "warnings_words": [words_of(w) for w in learned.warnings]}

    RECORDINGS = 8  # tablets recording at once; an older recording is dropped for a ninth

    def add_recording(self, offset: int, part: bytes, tablet: str = "") -> int:
        """A part of ``tablet``'s recording; its first part starts a new one."""
        if offset == 0:
            self.recordings.pop(tablet, None)
            while len(self.recordings) >= self.RECORDINGS:
                self.recordings.pop(next(iter(self.recordings)))
            self.recordings[tablet] = Recording()
        recording = self.recordings.get(tablet)
        if recording is None:
            raise CalibrationError(f"recording part at byte {offset} but no recording was started: record again")
        return recording.add(offset, part)

    def enrol_cue(self, player: str, tablet: str = "") -> str:
        recording = self.recordings.pop(tablet, Recording())
        return self._enrol(player, bytes(recording.data))

    def _enrol(self, player: str, wav: bytes) -> str:
        with self._lock:
            takes = enrol_recording(self.profile_path, player, wav)
            known = load_kept(self.profile_path)[0]
            folder = cue_folder(self.profile_path).name
            save(known.with_parts(cue={"templates": [folder]}), self.profile_path)
        self._changed(Said("calibration.change.chant", "the chant of {player} enrolled", player=player))
        return Said("calibration.said.chant_enrolled", "{takes} takes of {player}'s \"In-can-to!\" enrolled",
                    takes=takes, player=player)

    # -- the chant from the Pi's own microphone ---------------------------------------------------
    def start_chant(self, tablet: str = "") -> dict[str, Any]:
        """Record from the Pi's microphone for ``tablet`` (one recording at a time: the Pi has one)."""
        return self.chant.start(tablet)

    def chant_now(self, tablet: str = "") -> dict[str, Any]:
        """The recording's level and length, for the tablet's meter."""
        return self.chant.now(tablet)

    def stop_chant(self, player: str, tablet: str = "") -> str:
        """``tablet``'s recording ended and enrolled for ``player`` through the same checks as a WAV take."""
        audio = self.chant.stop(tablet)
        if len(audio) == 0:
            raise CalibrationError(Said("calibration.refused.nothing_heard", "nothing was heard from the Pi's microphone: record again"))
        return self._enrol(player, as_wav(audio))

    def acting(self, by: str) -> None:
        """Who asks for the next step (the display names the host's screen or tablet), for the change log."""
        self.by = by

    def starting(self) -> None:
        """A step begins: it has not been given up."""
        self.given_up.clear()

    def give_up(self) -> None:
        """The display stopped waiting for the step in hand: a step that watches the camera stops."""
        self.given_up.set()

    def roll_back(self, version: int) -> str:
        """Make an earlier calibration the one in use again."""
        with self._lock:
            rollback(self.profile_path, version, self.by)
        return Said("calibration.said.rolled_back", "calibration {version} is in use again", version=version)

    def _changed(self, what: Said) -> None:
        note(self.profile_path, what, self.by)

    def start_validation(self, seed: int = 0) -> dict[str, Any]:
        path = places_path(self.profile_path, self.game.game)
        if not path.exists():
            raise CalibrationError(Said("calibration.refused.places_first", "lay out the places first: validation points at them"))
        places = read_places(path).places
        self.validation = Validation({n: self.game.describe(n) for n in places}, seed=seed,
                                     say={n: self._place(n) for n in places})
        return self.validation.summary()

    def validate(self, seconds: float) -> dict[str, Any]:
        """Read one casting from the next ``seconds`` of pictures and score it against the highlighted place."""
        if self.validation is None:
            raise CalibrationError(Said("calibration.refused.check_not_started", "start the check first: press Start"))
        profile, refused = self.profile()
        if profile is None or profile.table is None:
            raise CalibrationError(refused or Said("calibration.refused.no_table", "the table is not calibrated: do the table step first"))
        frames = self.feed.gather(seconds, self.given_up)
        if self.given_up.is_set():
            raise CalibrationError(Said("calibration.refused.check_given_up",
                                        "the reading was given up before it was done: nothing was scored"))
        if not frames:
            raise CalibrationError(Said("calibration.refused.no_pictures", "no pictures from the camera: is it plugged in?"))
        laid = read_places(places_path(self.profile_path, self.game.game))
        candidates = laid.candidates(laid.places)
        pipeline = Pipeline(profile, load_config())  # type: ignore[arg-type]  # a frozen pose is read only
        result = read_casting(pipeline, ListSource(frames), frames[0].t, list(self.validation.wands), candidates,
                              tips=self.tips)
        self.validation.record(result)
        return self.validation.summary()

    def start_tip_check(self) -> dict[str, Any]:
        """Begin the tip-switch check: each tip pressed on the table is ticked."""
        self.tip_check = TipCheck(self._wands())
        return self.tips_now()

    def lift_tips(self) -> dict[str, Any]:
        """The second half of the check: every wand held up, each ticked tip must read lifted."""
        self._started_tip_check().lift()
        return self.tips_now()

    def tips_now(self) -> dict[str, Any]:
        """Each wand's tip switch now (pressed, lifted, not known), in words, and what is wrong."""
        return self._started_tip_check().read(self.tips)

    def _started_tip_check(self) -> TipCheck:
        if self.tip_check is None:
            raise CalibrationError(Said("calibration.refused.tips_not_started",
                                        "start the tip-switch check first: press each tip on the table"))
        return self.tip_check

    def _wands(self) -> list[int]:
        """The wands the wand step learned; before it, the four of the game."""
        try:
            learned = sorted(load_kept(self.profile_path)[0].wands) if self.profile_path.exists() else []
        except CalibrationError:
            learned = []
        return learned or [1, 2, 3, 4]


def _without_paths(value: Any, folder: Path) -> Any:
    """``value`` with every mention of ``folder`` (the profile's, in any string) cut to the file names."""
    if isinstance(value, str):
        for prefix in {str(folder) + "/", str(folder.resolve()) + "/"}:
            value = value.replace(prefix, "")
        return value
    if isinstance(value, dict):
        return {k: _without_paths(v, folder) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_paths(v, folder) for v in value]
    return value


def _step(done: bool, words: Said) -> dict[str, Any]:
    return {"done": bool(done), "words": words, "say": words.words}




def open_desk(profile: Path, latest: Callable[[], Frame | None], game: str = "incantibus",
              tips: TipSwitches | None = None, microphone: Opener | None = None) -> CalibrationDesk:
    """The desk on a camera the table side already reads (``latest`` gives its newest picture, e.g. the
    frame ring's ``latest``; ``tips``: the hub's tip switches). The composition root puts it in
    ``app.state.calibration`` and stops ``desk.feed`` when the night ends."""
    return CalibrationDesk(profile, LiveFeed(lambda: LatestSource(latest)).start(), game, tips=tips,
                           microphone=microphone or Microphone)  # the Pi's sound card unless told

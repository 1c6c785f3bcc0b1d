"""The simulated table's camera: the players at their seats drawn by vision's renderer, live.

A ``vision.frames.FrameSource`` for the demo and the tests, in place of the Pi camera. Between
castings the players hold their wands up at their seats (one picture, drawn again only when
something changes); ``point`` makes them point at places, moving in after the cue as people do;
``hold`` says who holds which wand, so a swap that was not made is seen as such. Frames are stamped
with the host's monotonic clock at 30 per second, as a real camera's are.
"""
from __future__ import annotations

import dataclasses
import threading
import time
import zlib
from pathlib import Path
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from calibration.model import Calibration, MeasuredCamera, save
from calibration.table import DEFAULT_LAYOUT, TableLayout
from companion.tableside.places import Place, TablePlaces
from vision.frames import Frame
from vision.render.effects import Conditions
from vision.render.people import GRIP_FROM_TIP_MM, Gesture, Seat, WandPose, distance_pose, hover_pose, seats
from vision.render.scene import BEAD_RADIUS_MM, FPS, Scene, random_camera
from vision.render.setup_shots import lay_markers
from vision.render.table import TOKEN_COLOURS_BGR, Layout, Token

POINTING_S = 1.5  # how long the wands stay on their targets once settled, before going back to rest
TRIES = 20  # how long the wands stay on their targets after the cue before going back up
QUIET = Conditions(noise=1.5, jpeg=92)

# A target: a place id, two place ids (the wand held between them), or None (pointing at nothing).
Target = str | tuple[str, str] | None


class RenderedTable:
    def __init__(self, places: TablePlaces, players: Sequence[str], holders: Mapping[str, int],
                 seed: int = 7, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, hold_s: float = POINTING_S) -> None:
        """``hold_s``: how long the players keep their wands on their targets once settled."""
        self.places, self.players, self.seed = places, list(players), seed
        self.hold_s = hold_s
        self.clock, self.sleep = clock, sleep
        self.rng = np.random.default_rng(seed)
        self.camera = random_camera(self.rng)
        people = seats(self.rng, len(self.players))
        self.seats = {p: dataclasses.replace(s, name=p) for p, s in zip(self.players, people)}
        self.rest = {p: resting_pose(self.rng, s) for p, s in self.seats.items()}
        self._lock = threading.Lock()
        self._holders = dict(holders)
        self._layout = Layout((), ())
        self._background: dict[tuple[str, ...], npt.NDArray[np.uint8]] = {}
        self._idle: npt.NDArray[np.uint8] | None = None
        self._casting: tuple[float, Scene, float] | None = None
        self._next_t = clock()
        self._index = 0

    # -- what the calibration tool would have written ----------------------------------------

    @property
    def calibration(self) -> Calibration:
        p = self.camera.calibration()
        assert p.table is not None
        return Calibration(MeasuredCamera(p.image, p.camera), p.table)

    def save_calibration(self, path: Path) -> Path:
        save(self.calibration, Path(path))
        return Path(path)

    # -- what happens at the table -----------------------------------------------------------

    def lay_out(self, place_ids: Sequence[str]) -> None:
        """The tokens now on the table, by place."""
        tokens = tuple(_token(self.places.place(p)) for p in sorted(set(place_ids)))
        with self._lock:
            if tokens != self._layout.tokens:
                self._layout, self._idle = Layout(tokens, tuple(t.id for t in tokens)), None

    def hold(self, holders: Mapping[str, int]) -> None:
        """Who holds which wand now: each wand rests at its holder's seat."""
        with self._lock:
            if dict(holders) != self._holders:
                self._holders, self._idle = dict(holders), None

    def point(self, targets: Mapping[int, Target], hidden: Sequence[int] = ()) -> float:
        """From now, each wand moves to its target (a wand in ``hidden`` is under a sleeve, unseen).
        Returns the clock time the casting's first frame is exposed: the moment of the cue."""
        with self._lock:
            scene = self._casting_scene(targets, hidden)
            settled = max((g.settled_at for g in scene.gestures.values()), default=0.0)
            start = self.clock()
            self._casting = (start, scene, start + settled + self.hold_s)
            return start

    def _casting_scene(self, targets: Mapping[int, Target], hidden: Sequence[int]) -> Scene:
        """People choose how to hold a wand so they can see their own tip: poses whose tip ends up
        under someone's arm are tried again, as the renderer's own castings are."""
        holder = {s: p for p, s in self._holders.items()}
        for _ in range(TRIES):
            gestures: dict[int, Gesture] = {}
            for strength in sorted(targets):
                if strength not in hidden:
                    gestures[strength] = self._gesture(self.seats[holder[strength]], targets[strength], gestures)
            scene = self._scene({k: self.seats[holder[k]] for k in gestures}, gestures)
            if _tips_in_view(scene):
                break
        return scene

    # -- the camera seam ---------------------------------------------------------------------

    @property
    def frames_read(self) -> int:
        return self._index

    def read(self) -> Frame | None:
        """The next picture, at 30 frames a second."""
        wait = self._next_t - self.clock()
        if wait > 0:
            self.sleep(wait)
        now = self.clock()
        self._next_t = max(self._next_t + 1 / FPS, now)
        image = self._picture(now)
        self._index += 1
        return Frame(image, now, self._index - 1)

    def close(self) -> None:
        """Nothing to release: the table is drawn, not opened."""

    def _picture(self, now: float) -> npt.NDArray[np.uint8]:
        with self._lock:
            if self._casting is not None:
                start, scene, ends = self._casting
                if now < ends:
                    return scene.render(int(round((now - start) * FPS)))[0].image
                self._casting = None
            if self._idle is None:
                self._idle = self._resting_scene().render(0)[0].image
            return self._idle

    # -- drawing ---------------------------------------------------------------------------

    def _resting_scene(self) -> Scene:
        holder = {s: p for p, s in self._holders.items()}
        gestures = {k: Gesture(self.rest[p], [self.rest[p]], [None], [(-1.0, -0.5)], tremor_mm=0.0)
                    for k, p in holder.items()}
        return self._scene({k: self.seats[p] for k, p in holder.items()}, gestures)

    def _scene(self, by_wand: dict[int, Seat], gestures: dict[int, Gesture]) -> Scene:
        key = tuple(t.id for t in self._layout.tokens)
        scene = Scene(self.seed, self.camera, self._layout, by_wand, gestures, conditions=(QUIET, QUIET),
                      frames=10**6, _background=self._background.get(key))
        if key not in self._background:  # the table itself is drawn once per layout, its printed markers on it
            sheet = TableLayout.load(DEFAULT_LAYOUT)  # as a group lays them, so the table can be found from a tablet
            lay_markers(self.camera, scene.background(), sheet.markers, sheet.marker_mm, sheet.dictionary)
            self._background[key] = scene.background()
        return scene

    def _gesture(self, seat: Seat, target: Target, others: dict[int, Gesture]) -> Gesture:
        rest = self.rest[seat.name]
        aim = self._aim(seat, target, [g.aims[-1] for g in others.values()]) if target is not None else rest
        start = float(self.rng.uniform(0.1, 0.3))
        moves = [(start, start + float(self.rng.uniform(0.3, 0.5)))]
        return Gesture(rest, [aim], [target if isinstance(target, str) else None], moves,
                       float(self.rng.uniform(0.4, 1.0)), self.rng.uniform(0, 2 * np.pi, 6))

    def _aim(self, seat: Seat, target: Target, others: list[WandPose]) -> WandPose:
        """A hover over the target (or over the point between two places) whose tip keeps clear of the
        other wands' tips: two beads cannot be in one place."""
        ids = [target] if isinstance(target, str) else list(target or ())
        spots = [self.places.place(i) for i in ids]
        token = Token("aim", "room", float(np.mean([s.x_mm for s in spots])), float(np.mean([s.y_mm for s in spots])),
                      spots[0].radius_mm if len(spots) == 1 else 4.0, (0, 0, 0), (0, 0, 0))
        for attempt in range(600):
            # A token out of reach is pointed at from afar, as players do.
            pose = (hover_pose if attempt < 300 else distance_pose)(self.rng, seat, token)
            if pose is not None and all(np.linalg.norm(pose.tip - o.tip) > 2.5 * BEAD_RADIUS_MM for o in others):
                return pose
        raise ValueError(f"{seat.name} cannot reach {target!r} from their seat")


def _tips_in_view(scene: Scene, visible: float = 0.9) -> bool:
    """Every tip at least this visible once the wands have settled (from the renderer's own truth)."""
    settled = max((g.settled_at for g in scene.gestures.values()), default=0.0)
    truth = scene.render(int((settled + 0.2) * FPS))[1]
    return all(w.tip_visible >= visible for w in truth.wands.values())


def resting_pose(rng: np.random.Generator, seat: Seat) -> WandPose:
    """A wand held at rest in front of its player between castings: gripped above the table's edge,
    tip tilted down towards the middle, low enough for the camera to see where it rests."""
    facing = np.r_[seat.facing, 0.0]
    down = np.radians(rng.uniform(20, 30))
    direction = np.cos(down) * facing + np.array([0.0, 0.0, -np.sin(down)])
    grip = np.r_[seat.shoulder[:2] + seat.facing * rng.uniform(100, 140), rng.uniform(170, 190)]
    return WandPose(grip + direction * GRIP_FROM_TIP_MM, direction)


def _token(place: Place) -> Token:
    """A cardboard token at a place, its colours fixed by the place's id."""
    n = zlib.crc32(place.id.encode())
    colour, mark = TOKEN_COLOURS_BGR[n % 10], TOKEN_COLOURS_BGR[(n // 10) % 10]
    if mark == colour:
        mark = TOKEN_COLOURS_BGR[(n + 1) % 10]
    return Token(place.id, place.id[0], place.x_mm, place.y_mm, place.radius_mm, colour, mark)

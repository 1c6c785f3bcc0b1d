"""Rendered casting scenes: a table, tokens, four players pointing wands, and the truth for every frame.

The truth comes from the renderer's own 3D geometry (RenderCamera.project, WandPose.table_hit), never
from the detector's code.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.frames import Frame
from vision.profile import PaintModel, Profile
from vision.render import draw, effects
from vision.render.camera import RenderCamera, overhead_camera
from vision.render.people import (WAND_LENGTH_MM, Gesture, Seat, WandPose, card_hover_pose, distance_pose, held_over,
                                  natural_pose, raised_pose, reachable, seats, touch_pose, upright_pose)
from vision.render.table import (TABLE_D_MM, TABLE_W_MM, Layout, Token, bright_colours, incantibus_layout,
                                 placed_by_hand)

SUPERSAMPLE = 2
FPS = 30.0

# The chosen marker ("caps"): a fluorescent bead on the tip and a smaller bead of the same colour (the
# band) further back along the shaft.
CAP_HUES = {1: 27, 2: 65, 3: 110, 4: 152}  # OpenCV hue (0-179): yellow, green, blue, magenta
BEAD_RADIUS_MM = 12.0
BAND_FROM_TIP_MM = 110.0
BAND_RADIUS_MM = 7.0  # the band is a smaller bead threaded on the shaft
SHAFT_RADIUS_MM = 4.5
# The compared alternative ("aruco"): a printed 4x4 ArUco flag lying along the shaft near the tip.
FLAG_FROM_TIP_MM = 60.0
FLAG_SIZE_MM = 32.0
LOOKS = ("caps", "led", "aruco")  # "led": the caps' beads made of coloured LEDs lit by the wand hub


@dataclass(frozen=True)
class Paint:
    """One wand's fluorescent paint and bead as drawn: OpenCV hue, saturation and value of the paint,
    the tip bead's and the band's radius (mm)."""

    hue: float
    saturation: float = 255.0
    value: float = 245.0
    bead_radius_mm: float = BEAD_RADIUS_MM
    band_radius_mm: float = BAND_RADIUS_MM

    def model(self) -> PaintModel:
        """The paint model a perfect wand step would have learned."""
        return PaintModel(hue=self.hue % 180, hue_tolerance=12, min_saturation=0.7 * self.saturation,
                          min_value=0.28 * self.value, bead_radius_mm=self.bead_radius_mm, band_from_tip_mm=BAND_FROM_TIP_MM)

    def bgr(self) -> tuple[int, int, int]:
        hsv = np.array([[[int(round(self.hue)) % 180, int(self.saturation), int(self.value)]]], np.uint8)
        b, g, r = (int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
        return b, g, r


DOCUMENTED_PAINTS = {k: Paint(float(h)) for k, h in CAP_HUES.items()}


def random_paints(rng: np.random.Generator) -> dict[int, Paint]:
    """Paints as a group's own wands might be: each documented colour bought from another maker or
    mixed by hand (hue +-7), not as saturated or bright, beads of 10-14 mm radius."""
    out = {}
    for k, hue in CAP_HUES.items():
        bead = rng.uniform(10.0, 14.0)
        out[k] = Paint(hue + rng.uniform(-7, 7), rng.uniform(195, 255), rng.uniform(190, 250), bead,
                       bead * rng.uniform(0.5, 0.65))
    return out


def cap_colour(strength: int) -> tuple[int, int, int]:
    """BGR of a documented fluorescent cap of the wand of ``strength``."""
    return DOCUMENTED_PAINTS[strength].bgr()


def flag_texture(strength: int) -> np.ndarray:
    """HxW uint8: the ArUco marker of id ``strength`` (DICT_4X4_50) with a white quiet zone."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    marker = cv2.aruco.generateImageMarker(dictionary, strength, 48)
    return cv2.copyMakeBorder(marker, 8, 8, 8, 8, cv2.BORDER_CONSTANT, value=(255,))


@dataclass(frozen=True)
class WandTruth:
    """What really happened to one wand in one frame. Pixel values are in the delivered image."""

    strength: int
    seat: str
    target: str | None
    tip_mm: np.ndarray  # (3,)
    tip_px: np.ndarray  # (2,)
    table_hit_mm: np.ndarray | None  # (3,) where the axis meets the table
    moving: bool
    tip_visible: float  # fraction of the bead's disc not hidden
    tip_distance_mm: float  # from the tip to the target's centre
    tip_height_mm: float
    elevation_deg: float = 0.0  # the wand's angle above the table (0: flat, 90: upright)


@dataclass(frozen=True)
class FrameTruth:
    t: float
    wands: dict[int, WandTruth]


@dataclass
class Scene:
    """Everything needed to draw any frame of one casting; frame 0 is exposed at the cue."""

    seed: int
    camera: RenderCamera
    layout: Layout
    seats: dict[int, Seat]
    gestures: dict[int, Gesture]
    look: str = "caps"
    conditions: tuple[effects.Conditions, effects.Conditions] = (effects.Conditions(), effects.Conditions())
    occluders: list[tuple[np.ndarray, np.ndarray, float]] = field(default_factory=list)
    frames: int = 8
    paints: dict[int, Paint] = field(default_factory=lambda: dict(DOCUMENTED_PAINTS))
    _background: np.ndarray | None = None

    @property
    def calibration(self) -> Profile:
        """What a perfect calibration and wand step would have written: for tests of other parts, never
        for the bench (which calibrates from rendered pictures, as a user would)."""
        return self.camera.calibration().with_parts(wands={str(k): p.model().model_dump() for k, p in self.paints.items()})

    @property
    def candidates(self) -> list[dict]:
        return self.layout.candidates()

    @property
    def last_settle(self) -> float:
        return max(g.settled_at for g in self.gestures.values())

    def render(self, index: int, rng: np.random.Generator | None = None) -> tuple[Frame, FrameTruth]:
        """Frame ``index`` (exposed at index / FPS seconds after the cue) and its truth."""
        rng = rng or np.random.default_rng(self.seed * 1000 + index)
        t = index / FPS
        hi = self.camera.scaled(SUPERSAMPLE)
        canvas = self.background().copy()
        labels = np.zeros(canvas.shape[:2], np.uint8)
        poses = {k: g.pose(t) for k, g in self.gestures.items()}
        draw.paint(hi, canvas, labels, self._pieces(hi, poses))
        size = (self.camera.width, self.camera.height)
        small = cv2.resize(canvas, size, interpolation=cv2.INTER_AREA)
        glow = None
        if self.look == "led":  # the beads are lit from inside: the room's light does not dim them
            lit = ((labels >= 10) & (labels < 30)).astype(np.float32)
            glow = cv2.resize(lit, size, interpolation=cv2.INTER_AREA)
        image = effects.apply(small, self._conditions(index), rng, glow)
        truth = FrameTruth(t, {k: self._truth(k, poses[k], t, hi, labels) for k in poses})
        return Frame(image, t, index), truth

    def _conditions(self, index: int) -> effects.Conditions:
        # The light may change during the casting (a lamp switched, a cloud): blend start and end.
        a, b = self.conditions
        w = min(max(index / max(self.frames - 1, 1), 0.0), 1.0)
        return effects.Conditions(**{**a.__dict__, "gain": (1 - w) * a.gain + w * b.gain})

    def _truth(self, k: int, pose: WandPose, t: float, hi: RenderCamera, labels: np.ndarray) -> WandTruth:
        g = self.gestures[k]
        target = g.target
        token = self.layout.token(target) if target else None
        tip_dist = float(np.linalg.norm(pose.tip - [token.x_mm, token.y_mm, 0])) if token else math.nan
        moving = any(t0 <= t < t1 for t0, t1 in g.moves)
        return WandTruth(k, self.seats[k].name, target, pose.tip, self.camera.project(pose.tip[None])[0],
                         pose.table_hit(), moving, _visible(hi, labels, pose.tip, 20 + k, self.paints[k].bead_radius_mm),
                         tip_dist, float(pose.tip[2]),
                         math.degrees(math.asin(min(max(-float(pose.direction[2]), -1.0), 1.0))))

    # -- drawing -------------------------------------------------------------------------------
    def background(self) -> np.ndarray:
        """The supersampled table with its tokens, drawn once per scene."""
        if self._background is None:
            self._background = _table_image(self.camera.scaled(SUPERSAMPLE), self.layout,
                                             np.random.default_rng(self.seed + 7))
        return self._background

    def _pieces(self, cam: RenderCamera, poses: dict[int, WandPose]) -> list[draw.Piece]:
        pieces: list[draw.Piece] = []
        for k, pose in poses.items():
            pieces += _wand_pieces(cam, k, pose, self.look, self.paints[k])
            pieces += _arm_pieces(cam, self.seats[k], pose)
        for a, b, r in self.occluders:
            pieces.append(draw.capsule(cam, a, b, r, r * 0.9, (60, 60, 75)))
        return pieces


def _visible(cam: RenderCamera, labels: np.ndarray, tip: np.ndarray, label: int, radius_mm: float) -> float:
    """Fraction of the bead's disc that ended up on top, counted in the label buffer."""
    c = cam.project(tip[None])[0]
    r = radius_mm * cam.pixel_scale(tip[None])[0]
    x0, y0 = (np.floor(c - r) - 1).astype(int)
    x1, y1 = (np.ceil(c + r) + 2).astype(int)
    h, w = labels.shape
    roi = labels[max(y0, 0):min(y1, h), max(x0, 0):min(x1, w)]
    return float(min(1.0, np.count_nonzero(roi == label) / (math.pi * r * r)))


def _wand_pieces(cam: RenderCamera, k: int, pose: WandPose, look: str, paint: Paint) -> list[draw.Piece]:
    tip, d = pose.tip, pose.direction
    shaft = draw.capsule(cam, tip - d * 4, pose.point(WAND_LENGTH_MM), SHAFT_RADIUS_MM * 0.8, SHAFT_RADIUS_MM,
                         (35, 45, 60), label=1)
    marks: list[draw.Piece] = []
    if look in ("caps", "led"):
        colour = paint.bgr()
        marks.append(draw.sphere(cam, pose.point(BAND_FROM_TIP_MM), paint.band_radius_mm, colour, label=10 + k))
        marks.append(draw.sphere(cam, tip, paint.bead_radius_mm, colour, label=20 + k))
    else:
        marks.append(draw.sphere(cam, tip, BEAD_RADIUS_MM * 0.6, (30, 30, 30), label=20 + k))
        side = np.cross(d, [0, 0, 1.0])
        side = side / max(np.linalg.norm(side), 1e-9)
        up = np.cross(side, d)
        c = pose.point(FLAG_FROM_TIP_MM) + up * (SHAFT_RADIUS_MM + 1)
        h = FLAG_SIZE_MM / 2
        corners = np.array([c + d * h - side * h, c + d * h + side * h, c - d * h + side * h, c - d * h - side * h])
        marks.append(draw.quad(cam, corners, flag_texture(k), label=30 + k))
    # Markers sit on the shaft: draw them right after it, whatever their own depth.
    return [shaft] + [replace(m, depth=shaft.depth - 0.01 * (i + 1)) for i, m in enumerate(marks)]


def _arm_pieces(cam: RenderCamera, seat: Seat, pose: WandPose) -> list[draw.Piece]:
    grip = pose.grip
    wrist = grip - pose.direction * 45 + np.array([0, 0, 10.0])
    elbow = seat.shoulder + 0.55 * (wrist - seat.shoulder)
    elbow[2] = max(60.0, min(elbow[2], wrist[2]) - 60)
    elbow[:2] -= seat.facing * 40
    skin = seat.skin
    # Arms and fists of every size: drawn from the seat itself, so the scene's own draws stay as they were.
    arm, fist = np.random.default_rng(int(abs(seat.shoulder[0] * 1000 + seat.shoulder[1]))).uniform(0.75, 1.3, 2)
    return [draw.capsule(cam, seat.shoulder, elbow, 50 * arm, 44 * arm, seat.sleeve),
            draw.capsule(cam, elbow, wrist, 42 * arm, 32 * arm, seat.sleeve),
            draw.sphere(cam, grip + np.array([0, 0, 12.0]), 38 * fist, skin, bias=10),
            draw.capsule(cam, grip + pose.direction * 22 + [0, 0, 8], grip - pose.direction * 25 + [0, 0, 14], 22 * fist,
                         26 * fist, tuple(int(c * 0.92) for c in skin), bias=14)]


def _table_image(cam: RenderCamera, layout: Layout, rng: np.random.Generator) -> np.ndarray:
    """HxWx3 uint8: floor, wooden table with grain, room tile, printed spaces, satchels and tokens."""
    h, w = cam.height, cam.width
    floor = np.full((h, w, 3), (45, 50, 55), np.uint8)
    grain = cv2.resize(rng.normal(0, 1, (6, 60)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    wood = np.clip(np.array([70, 110, 150], np.float32) * (1 + 0.08 * grain[:, :, None]), 0, 255).astype(np.uint8)
    table = _poly(cam, _rect(TABLE_W_MM / 2, TABLE_D_MM / 2, TABLE_W_MM, TABLE_D_MM, steps=20))
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [table], (255,), cv2.LINE_8, draw.SHIFT)
    image = np.where(mask[:, :, None] > 0, wood, floor)
    # Satchels and a few everyday things near the edges: colourful but not fluorescent.
    for (x, y) in ((500, 90), (900, 400), (500, 710), (100, 400)):
        hsv = np.array([[[rng.integers(0, 180), rng.integers(50, 150), rng.integers(80, 200)]]], np.uint8)
        colour = tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
        cv2.fillPoly(image, [_poly(cam, _rect(x, y, 220, 120))], colour, cv2.LINE_8, draw.SHIFT)
    cv2.fillPoly(image, [_poly(cam, _rect(500, 420, 175, 175))], (120, 135, 140), cv2.LINE_8, draw.SHIFT)
    for t in layout.tokens:
        cv2.fillPoly(image, [_poly(cam, _circle(t.x_mm, t.y_mm, t.radius_mm + 3))], (80, 95, 105), cv2.LINE_8, draw.SHIFT)
    for t in layout.tokens:
        _token(cam, image, t)
    return image


def _token(cam: RenderCamera, image: np.ndarray, t: Token) -> None:
    cv2.fillPoly(image, [_poly(cam, _circle(t.x_mm, t.y_mm, t.radius_mm, z=2))], (40, 40, 45), cv2.LINE_8, draw.SHIFT)
    cv2.fillPoly(image, [_poly(cam, _circle(t.x_mm, t.y_mm, t.radius_mm - 1.5, z=2))], t.colour, cv2.LINE_8, draw.SHIFT)
    cv2.fillPoly(image, [_poly(cam, _circle(t.x_mm + 2, t.y_mm - 1, 7, z=2))], t.mark, cv2.LINE_8, draw.SHIFT)


def _poly(cam: RenderCamera, pts: np.ndarray) -> np.ndarray:
    return draw._fix(cam.project(pts))


def _rect(cx: float, cy: float, w: float, d: float, steps: int = 4) -> np.ndarray:
    """(4*steps,3) outline of a rectangle on the table, subdivided so lens distortion bends its edges."""
    corners = np.array([[cx - w / 2, cy - d / 2], [cx + w / 2, cy - d / 2], [cx + w / 2, cy + d / 2], [cx - w / 2, cy + d / 2]])
    pts = [corners[i] + (corners[(i + 1) % 4] - corners[i]) * s / steps for i in range(4) for s in range(steps)]
    return np.c_[np.array(pts), np.zeros(len(pts))]


def _circle(x: float, y: float, r: float, z: float = 0.0, n: int = 28) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.c_[x + r * np.cos(a), y + r * np.sin(a), np.full(n, z)]


# -- making scenes --------------------------------------------------------------------------------
def random_camera(rng: np.random.Generator) -> RenderCamera:
    """0.8-1.2 m above the table, up to 8 degrees of tilt, 58-66 degree lens with some distortion."""
    return overhead_camera((500 + rng.normal(0, 20), 420 + rng.normal(0, 20)), rng.uniform(800, 1200),
                           rng.uniform(0, 8), rng.uniform(0, 360), rng.uniform(-4, 4), rng.uniform(58, 66),
                           dist=(rng.uniform(-0.12, 0.03), rng.uniform(-0.02, 0.05), rng.normal(0, 5e-4),
                                 rng.normal(0, 5e-4), 0.0),
                           principal_offset=tuple(rng.normal(0, 5, 2)))


POSES = {"hover": touch_pose, "natural": natural_pose, "upright": upright_pose, "crowded": touch_pose}
KINDS = ("hover", "natural", "upright", "card", "distance", "crowded")
# For tests of the pipeline's parts only (``tips_in_view``): how much of every tip a test scene shows.
IN_VIEW = {"hover": 0.9, "card": 0.9, "distance": 0.9}
CROWD_REACH_MM = 17.0  # beads of wands sharing a token lie up to this far from its centre


@dataclass(frozen=True)
class Rig:
    """One table for a night: its camera, the group's wands' paints and the tokens as laid by hand."""

    camera: RenderCamera
    paints: dict[int, Paint]
    layout: Layout


def random_rig(rng: np.random.Generator, near_share: float = 0.25) -> Rig:
    """A camera, paints around the documented ones, and brightly coloured tokens (some near a paint)
    laid up to 10 mm off their nominal places."""
    camera = random_camera(rng)
    paints = random_paints(rng)
    colours = bright_colours([p.hue for p in paints.values()], near_share)
    return Rig(camera, paints, placed_by_hand(incantibus_layout(rng, colours=colours), rng, 10.0))


def _pose(rng: np.random.Generator, kind: str, seat: Seat, token: Token, bead_mm: float) -> WandPose | None:
    for _ in range(60):
        if kind in POSES:
            pose = POSES[kind](rng, seat, token, bead_mm)
        else:
            pose = (card_hover_pose if kind == "card" else distance_pose)(rng, seat, token)
        if pose is not None:
            return pose
    return None


class NoPose(ValueError):
    """No legal token can be pointed at from a seat in the asked way."""


def _aim(rng: np.random.Generator, kind: str, seat: Seat, layout: Layout, taken: list[str],
         others: Sequence[WandPose] = (), bead_mm: float = BEAD_RADIUS_MM) -> tuple[str, WandPose]:
    """A target (sometimes one another player chose too: that is what contests are) and a pose whose
    tip keeps clear of the other wands' tips (two beads cannot be in one place)."""
    crowded: tuple[str, WandPose] | None = None
    for _ in range(300):
        pool = taken if taken and rng.random() < 0.25 else list(layout.legal)
        target = str(rng.choice(pool))
        pose = _pose(rng, kind, seat, layout.token(target), bead_mm)
        if pose is not None and all(np.linalg.norm(pose.tip - o.tip) > 2.5 * BEAD_RADIUS_MM for o in others):
            return target, pose
        crowded = crowded or ((target, pose) if pose is not None else None)
    if crowded is None:
        raise NoPose(f"no legal token within reach of {seat.name} for a {kind!r} pose")
    return crowded  # every reachable token is crowded by other tips: share one, as contests do


def make_scene(seed: int, kind: str = "hover", hard: bool = False, look: str = "caps", motion: bool = False,
               reaim: float = 0.0, wands: tuple[int, ...] = (1, 2, 3, 4), frames: int | None = None,
               rig: Rig | None = None, cover_tips: float = 0.0, early: float = 0.0,
               tips_in_view: bool = False) -> Scene:
    """A seeded casting. ``kind``: "hover" (the table card's pose: tip resting on the token), "natural"
    (tip just over it, the wand leaning back), "upright", "card" (the former card's aimed hover) or
    "distance" pointing; ``hard``: light changes, blur, noise, JPEG and occluding sleeves; ``motion``:
    wands move in after the cue (else they are already still); ``reaim``: probability that a wand first
    aims at one token and then moves to another; ``rig``: the table, paints and tokens (else a random
    camera, the documented paints and printed tokens); ``cover_tips``: probability that another
    player's sleeve passes over a wand's tip; ``early``: probability that, in the second before the
    cue, some hands already hold their wands over the table (over tokens), moving to their targets
    after it. "crowded": the table card's pose with 2-4 wands touching one token side by side.

    Nothing is drawn again because of what the camera would see: a tip hidden under a fist is part of
    the casting. Only a draw no seat can reach (``NoPose``) is drawn again, and, for tests of the
    pipeline's parts that need to see every tip (``tips_in_view``: the table card's pose and pointing
    from afar keep 90 % of every tip in view, the hard set half), a casting with a tip hidden."""
    if kind not in KINDS or look not in LOOKS:
        raise ValueError(f"unknown scene kind {kind!r} or look {look!r}")
    rng = np.random.default_rng(seed)
    if rig is None:
        rig = Rig(random_camera(rng), dict(DOCUMENTED_PAINTS), incantibus_layout(rng))
    else:
        layout = rig.layout
        legal = [t.id for t in layout.tokens if rng.random() < 0.6] or [layout.tokens[0].id]
        rig = replace(rig, layout=replace(layout, legal=tuple(legal)))
    cond = effects.hard(rng) if hard else effects.nominal(rng)
    cond_end = effects.Conditions(**{**cond.__dict__, "gain": rng.uniform(0.55, 1.35)}) if hard else cond
    # Every casting drawn is measured as it comes: a tip hidden under a fist or another wand is a case to
    # report (by how much of it is in view), never a reason to draw the casting again. Only tests of the
    # pipeline's parts that need tips in view ask for ``tips_in_view``; the bench never does.
    floor = (0.5 if hard and kind in ("hover", "card") else IN_VIEW.get(kind, -1.0)) if tips_in_view else None
    scene = None
    for _ in range(40):
        try:
            scene = _players(rng, seed, rig, kind, look, motion, reaim, wands, frames, hard, (cond, cond_end),
                             cover_tips)
        except NoPose:
            continue  # other seats next time
        if floor is None or min(w.tip_visible for w in scene.render(scene.frames - 1)[1].wands.values()) > floor:
            break
    if scene is None:
        raise NoPose(f"scene {seed}: no seat could point at a legal token in a {kind!r} pose")
    return _held_early(scene, early) if early > 0 else scene


def _players(rng: np.random.Generator, seed: int, rig: Rig, kind: str, look: str,
             motion: bool, reaim: float, wands: tuple[int, ...], frames: int | None, hard: bool,
             conditions: tuple[effects.Conditions, effects.Conditions], cover_tips: float) -> Scene:
    """Seats, targets and gestures for one casting."""
    layout = rig.layout
    people = seats(rng, 4)
    order = rng.permutation(4)
    by_wand = {k: people[int(order[i])] for i, k in enumerate(wands)}
    gestures: dict[int, Gesture] = {}
    taken: list[str] = []
    shared = _crowd(rng, layout, by_wand, rig.paints) if kind == "crowded" else {}
    for k, seat in by_wand.items():
        bead = rig.paints[k].bead_radius_mm
        if k in shared:
            target, pose = shared[k]
        else:
            others = [g.aims[-1] for g in gestures.values()] + [p for j, (_, p) in shared.items() if j not in gestures]
            target, pose = _aim(rng, kind, seat, layout, taken, others, bead)
        taken.append(target)
        gestures[k] = _gesture(rng, seat, kind, layout, target, pose, motion, rng.random() < reaim, hard, bead)
    end = max(g.settled_at for g in gestures.values())
    n = frames or (int(math.ceil((end + (1.2 if hard else 0.45)) * FPS)) if motion else 45)
    occluders = (_occluders(rng, by_wand, gestures) if hard else []) + _tip_covers(rng, gestures, cover_tips)
    return Scene(seed, rig.camera, layout, by_wand, gestures, look, conditions, occluders, n, dict(rig.paints))


def _crowd(rng: np.random.Generator, layout: Layout, by_wand: dict[int, Seat], paints: dict[int, Paint]
           ) -> dict[int, tuple[str, WandPose]]:
    """2-4 wands touching one legal token side by side (fewer when their beads cannot all lie within
    ``CROWD_REACH_MM`` of its centre without overlapping): their targets and poses."""
    wanted = int(rng.integers(2, 5))
    for size in range(min(wanted, len(by_wand)), 1, -1):
        for _ in range(60):
            target = str(rng.choice(list(layout.legal)))
            token = layout.token(target)
            chosen = [int(k) for k in rng.choice(sorted(by_wand), size=size, replace=False)]
            poses: dict[int, WandPose] = {}
            for k in chosen:
                others = [(poses[j].tip, paints[j].bead_radius_mm) for j in poses]
                if (pose := _beside(rng, by_wand[k], token, paints[k].bead_radius_mm, others)) is None:
                    break
                poses[k] = pose
            else:
                return {k: (target, p) for k, p in poses.items()}
    raise NoPose("no token could take two wands side by side")


def _beside(rng: np.random.Generator, seat: Seat, token: Token, bead_mm: float,
            others: list[tuple[np.ndarray, float]]) -> WandPose | None:
    """A tip bead resting on ``token`` on its player's side, up to ``CROWD_REACH_MM`` from its centre,
    clear of the beads already there; the wand at 15-80 degrees, as the table card allows."""
    centre = np.array([token.x_mm, token.y_mm])
    toward = math.atan2(seat.shoulder[1] - centre[1], seat.shoulder[0] - centre[0])
    for _ in range(40):
        a = toward + rng.normal(0, math.radians(35))
        r = CROWD_REACH_MM * math.sqrt(rng.uniform(0.1, 1.0))
        tip = np.r_[centre + r * np.array([math.cos(a), math.sin(a)]), bead_mm + 2.0]
        if any(np.linalg.norm(tip - o) < bead_mm + r_o + 0.5 for o, r_o in others):
            continue
        az = math.atan2(tip[1] - seat.shoulder[1], tip[0] - seat.shoulder[0]) + rng.normal(0, math.radians(20))
        el = math.radians(rng.uniform(15, 80))
        pose = WandPose(tip, np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)]))
        if reachable(seat, pose):
            return pose
    return None


def _held_early(scene: Scene, share: float) -> Scene:
    """With probability ``share``, one to all of the players hold their wands over the table (over a
    token, resting on it or a little above) in the second before the cue, and move them to their targets
    after it: the table seen before the cue is then not the bare table. Drawn apart from the scene's own
    draws, so the casting after the cue is the same with or without."""
    rng = np.random.default_rng([scene.seed, 0xEA47])
    if rng.random() >= share:
        return scene
    wands = sorted(scene.gestures)
    early = rng.choice(wands, size=int(rng.integers(1, len(wands) + 1)), replace=False)
    gestures = dict(scene.gestures)
    for k in sorted(int(k) for k in early):
        g = gestures[k]
        if not g.moves or g.moves[0][0] < 0:
            continue  # a still wand (no motion): there is no "before"
        for _ in range(30):
            token = scene.layout.tokens[int(rng.integers(len(scene.layout.tokens)))]
            pose = held_over(rng, scene.seats[k], token, scene.paints[k].bead_radius_mm)
            if pose is not None:
                gestures[k] = replace(g, start=pose)
                break
    return replace(scene, gestures=gestures)


def _gesture(rng: np.random.Generator, seat: Seat, kind: str, layout: Layout, target: str, pose: WandPose,
             motion: bool, reaim: bool, hard: bool, bead: float) -> Gesture:
    tremor = rng.uniform(0.4, 2.0 if hard else 1.2)
    phase = rng.uniform(0, 2 * np.pi, 6)
    if not motion:
        return Gesture(pose, [pose], [target], [(-1.0, -0.5)], tremor, phase)
    start = rng.uniform(0.1, 0.35)
    aims: list[WandPose] = []
    targets: list[str | None] = []
    moves: list[tuple[float, float]] = []
    if reaim:
        first, first_pose = _aim(rng, kind, seat, layout, [t for t in layout.legal if t != target], (), bead)
        if first != target:
            # A late re-aim: the wand heads for one token and, before it has come to rest there, the
            # player changes their mind and takes it to another.
            end = start + rng.uniform(0.25, 0.45)
            aims, targets, moves = [first_pose], [first], [(start, end)]
            start = end - rng.uniform(0.15, 0.35) * (end - start)
    aims.append(pose)
    targets.append(target)
    moves.append((start, start + rng.uniform(0.25, 0.5)))
    return Gesture(raised_pose(rng, seat), aims, targets, moves, tremor, phase)


def _occluders(rng: np.random.Generator, by_wand: dict[int, Seat], gestures: dict[int, Gesture]
               ) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Sometimes another player's sleeve lies across a wand's shaft, hiding its band."""
    out = []
    for _k, g in gestures.items():
        if rng.random() < 0.2:
            pose = g.aims[-1]
            over = pose.point(rng.uniform(90, 150)) + np.array([0, 0, rng.uniform(50, 90)])
            across = np.cross(pose.direction, [0, 0, 1.0])
            across = across / max(np.linalg.norm(across), 1e-9) * rng.choice([-1, 1])
            out.append((over - across * 200 + [0, 0, 60], over + across * 40, 30.0))
    return out


def _tip_covers(rng: np.random.Generator, gestures: dict[int, Gesture], share: float
                ) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Sometimes another player's arm passes right over a wand's tip, hiding it."""
    out = []
    for g in gestures.values():
        if rng.random() < share:
            tip = g.aims[-1].tip + np.array([0, 0, rng.uniform(50, 110)])
            a = rng.uniform(0, 2 * np.pi)
            across = np.array([np.cos(a), np.sin(a), 0.0])
            out.append((tip - across * 160 + [0, 0, 40], tip + across * rng.uniform(30, 60), 34.0))
    return out

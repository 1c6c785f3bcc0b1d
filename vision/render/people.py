"""Players around the table and how they point their wands: seats, arms, wand poses, motion in time.

A wand is a straight stick of ``WAND_LENGTH_MM``; its tip is where the marker bead sits and the hand
grips it ``GRIP_FROM_TIP_MM`` back from the tip.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from vision.render.table import Token

WAND_LENGTH_MM = 250.0
GRIP_FROM_TIP_MM = 215.0
HOVER_MAX_DIST_MM = 30.0
HOVER_MAX_HEIGHT_MM = 40.0
DISTANCE_RANGE_MM = (30.0, 250.0)
DISTANCE_MAX_HEIGHT_MM = 150.0
TIP_MIN_HEIGHT_MM = 14.0  # a 24 mm bead resting on a token

SLEEVES_BGR = [(90, 40, 40), (40, 90, 40), (40, 40, 110), (100, 100, 100)]
SKIN_BGR = [(120, 160, 215), (95, 135, 190), (70, 100, 150), (140, 180, 225)]


@dataclass(frozen=True)
class Seat:
    """Where a player sits: ``shoulder`` (3,) of the pointing arm in table mm, facing ``facing`` (unit (2,))."""

    name: str
    shoulder: np.ndarray
    facing: np.ndarray
    sleeve: tuple[int, int, int]
    skin: tuple[int, int, int]


def seats(rng: np.random.Generator, count: int = 4) -> list[Seat]:
    """Players at the south, east, north and west edges of a 1000 x 800 mm table."""
    names = ["Lera", "Kirill", "Katya", "Rosa"]
    centres = [((500, -120), (0, 1)), ((1120, 400), (-1, 0)), ((500, 920), (0, -1)), ((-120, 400), (1, 0))]
    out = []
    for i in range(count):
        (x, y), (fx, fy) = centres[i]
        right = np.array([fy, -fx], float)  # the player's right-hand side
        offset = right * rng.uniform(80, 220) + np.array([fx, fy]) * rng.uniform(-40, 60)
        shoulder = np.array([x + offset[0], y + offset[1], rng.uniform(330, 420)])
        out.append(Seat(names[i], shoulder, np.array([fx, fy], float), SLEEVES_BGR[i], SKIN_BGR[int(rng.integers(4))]))
    return out


@dataclass(frozen=True)
class WandPose:
    """Tip (3,) and unit direction (3,) from grip to tip, in table mm."""

    tip: np.ndarray
    direction: np.ndarray

    def point(self, from_tip_mm: float) -> np.ndarray:
        """(3,) the point ``from_tip_mm`` back along the wand from its tip."""
        return self.tip - self.direction * from_tip_mm

    @property
    def grip(self) -> np.ndarray:
        return self.point(GRIP_FROM_TIP_MM)

    def table_hit(self) -> np.ndarray | None:
        """(3,) where the wand's axis, continued past the tip, meets the table plane (ray/plane)."""
        if self.direction[2] >= -1e-9:
            return None
        s = -self.tip[2] / self.direction[2]
        return self.tip + s * self.direction


def _direction(azimuth: float, elevation: float) -> np.ndarray:
    """Unit vector pointing ``elevation`` radians below the horizontal, towards ``azimuth``."""
    return np.array([math.cos(elevation) * math.cos(azimuth), math.cos(elevation) * math.sin(azimuth),
                     -math.sin(elevation)])


def _tilt(direction: np.ndarray, rng: np.random.Generator, sigma_deg: float) -> np.ndarray:
    """The direction turned by a random angle of about ``sigma_deg`` (a person's aiming error)."""
    d = direction + rng.normal(0, math.radians(sigma_deg), 3)
    return d / np.linalg.norm(d)


def reachable(seat: Seat, pose: WandPose) -> bool:
    """A grip an arm can hold: within reach of the shoulder, above the table, wand not pointing back."""
    grip = pose.grip
    reach = np.linalg.norm(grip - seat.shoulder)
    toward = np.dot(pose.direction[:2], seat.facing) > -0.3
    return bool(140 < reach < 680 and grip[2] > 40 and toward)


def touch_pose(rng: np.random.Generator, seat: Seat, token: Token, bead_mm: float = 12.0) -> WandPose | None:
    """The table card's pose: the tip bead rests on the token (anywhere on its face), the wand held as
    the player likes, from nearly flat (15 degrees) to nearly upright (80)."""
    return _over(rng, seat, token, bead_mm + 2.0, rng.uniform(15, 80), 0.6)


def natural_pose(rng: np.random.Generator, seat: Seat, token: Token, bead_mm: float = 12.0) -> WandPose | None:
    """How people hover when nobody tells them how: the tip just over the token (its bead 5-40 mm above
    the token), the wand leaning back toward the player at 15-55 degrees, so its line meets the table
    well beyond the token."""
    return _over(rng, seat, token, bead_mm + 2.0 + rng.uniform(5, 40), rng.uniform(15, 55), 0.45)


def upright_pose(rng: np.random.Generator, seat: Seat, token: Token, bead_mm: float = 12.0) -> WandPose | None:
    """A wand held nearly upright over the token (70-88 degrees), its tip resting on it or just above:
    from overhead the fist is over the tip."""
    return _over(rng, seat, token, bead_mm + 2.0 + rng.uniform(0, 25), rng.uniform(70, 88), 0.5)


def held_over(rng: np.random.Generator, seat: Seat, token: Token, bead_mm: float = 12.0) -> WandPose | None:
    """A wand held over the table while waiting for the cue: its bead resting on a token or up to 60 mm
    over it, the wand at 20-70 degrees."""
    return _over(rng, seat, token, bead_mm + 2.0 + rng.uniform(0, 60), rng.uniform(20, 70), 0.8)


def hover_pose(rng: np.random.Generator, seat: Seat, token: Token, bead_mm: float = 12.0) -> WandPose | None:
    """The convention the table card asks for (``touch_pose``)."""
    return touch_pose(rng, seat, token, bead_mm)


def card_hover_pose(rng: np.random.Generator, seat: Seat, token: Token) -> WandPose | None:
    """The former card's hover: the wand aimed at the token, its tip within 30 mm of the token's centre
    and at most 40 mm above the table (the bead's centre cannot come lower than its radius)."""
    centre = np.array([token.x_mm, token.y_mm, 0.0])
    az = math.atan2(centre[1] - seat.shoulder[1], centre[0] - seat.shoulder[0]) + rng.normal(0, math.radians(18))
    el = math.radians(rng.uniform(30, 75))
    d = _direction(az, el)
    a, r = rng.uniform(0, 2 * math.pi), token.radius_mm * 0.6 * math.sqrt(rng.random())
    aim = centre + np.array([r * math.cos(a), r * math.sin(a), 0.0])
    s_max = min(HOVER_MAX_DIST_MM / math.cos(el), HOVER_MAX_HEIGHT_MM / math.sin(el))
    s_min = TIP_MIN_HEIGHT_MM / math.sin(el)
    if s_min >= s_max:
        return None
    tip = aim - d * rng.uniform(s_min, s_max)
    if np.hypot(*(tip[:2] - centre[:2])) > HOVER_MAX_DIST_MM:
        return None  # aimed off-centre, the tip strayed beyond the convention's 3 cm
    return _accept(seat, WandPose(tip, _tilt(d, rng, 2.5)), HOVER_MAX_HEIGHT_MM)


def _over(rng: np.random.Generator, seat: Seat, token: Token, height: float, elevation_deg: float,
          spread: float) -> WandPose | None:
    """Tip ``height`` mm up over a point within ``spread`` token radii of the token's centre, the wand
    coming from the player's side at ``elevation_deg`` below the horizontal."""
    centre = np.array([token.x_mm, token.y_mm])
    a, r = rng.uniform(0, 2 * math.pi), token.radius_mm * spread * math.sqrt(rng.random())
    tip = np.r_[centre + r * np.array([math.cos(a), math.sin(a)]), height]
    az = math.atan2(tip[1] - seat.shoulder[1], tip[0] - seat.shoulder[0]) + rng.normal(0, math.radians(20))
    pose = WandPose(tip, _direction(az, math.radians(elevation_deg)))
    return pose if reachable(seat, pose) else None


def leaned_anew(rng: np.random.Generator, seat: Seat, tip: np.ndarray) -> WandPose | None:
    """The tip kept where it rests, the wand held at a new lean (15-80 degrees, as the table card allows)
    from the player's side: a player moving the fist without lifting the tip."""
    az = math.atan2(tip[1] - seat.shoulder[1], tip[0] - seat.shoulder[0]) + rng.normal(0, math.radians(20))
    pose = WandPose(np.array(tip, float), _direction(az, math.radians(rng.uniform(15, 80))))
    return pose if reachable(seat, pose) else None


def distance_pose(rng: np.random.Generator, seat: Seat, token: Token) -> WandPose | None:
    """Pointing from afar: tip 30-250 mm from the token's centre, at most 150 mm above the table,
    the axis aimed at the token with a person's few degrees of error."""
    centre = np.array([token.x_mm, token.y_mm, 0.0])
    az = math.atan2(centre[1] - seat.shoulder[1], centre[0] - seat.shoulder[0]) + rng.normal(0, math.radians(15))
    el = math.radians(rng.uniform(20, 70))
    d = _direction(az, el)
    s = rng.uniform(*DISTANCE_RANGE_MM)
    s = min(s, DISTANCE_MAX_HEIGHT_MM / math.sin(el))
    aim = centre + np.r_[rng.normal(0, 4, 2), 0]
    tip = aim - d * s
    return _accept(seat, WandPose(tip, _tilt(d, rng, 3.0)), DISTANCE_MAX_HEIGHT_MM)


def _accept(seat: Seat, pose: WandPose, max_height: float) -> WandPose | None:
    ok = reachable(seat, pose) and TIP_MIN_HEIGHT_MM - 2 <= pose.tip[2] <= max_height + 2
    return pose if ok else None


def raised_pose(rng: np.random.Generator, seat: Seat) -> WandPose:
    """The wand held up before the cue: tip high, in front of the player."""
    base = seat.shoulder.copy()
    base[:2] += seat.facing * rng.uniform(200, 320)
    base[2] = rng.uniform(250, 330)
    d = np.r_[seat.facing * 0.3, 0.95]
    return WandPose(base + d / np.linalg.norm(d) * 120, d / np.linalg.norm(d))


@dataclass
class Gesture:
    """One wand's motion after the cue: from ``start`` to each pose in ``aims`` in turn.

    ``moves``: list of (t_start, t_end) seconds for each move; the wand holds still (with tremor)
    between moves. ``targets``: the token id of each aim (None for a wand pointing at nothing)."""

    start: WandPose
    aims: list[WandPose]
    targets: list[str | None]
    moves: list[tuple[float, float]]
    tremor_mm: float = 0.8
    tremor_phase: np.ndarray = field(default_factory=lambda: np.zeros(6))

    @property
    def settled_at(self) -> float:
        """Seconds after the cue when the last move ends."""
        return self.moves[-1][1]

    @property
    def target(self) -> str | None:
        """The token the player finally means."""
        return self.targets[-1]

    def then(self, at: float, pose: WandPose, takes: float) -> Gesture:
        """The same gesture and one more move, to ``pose`` from ``at`` seconds after the cue, meaning the
        same token (a player adjusting the wand after the cue)."""
        return replace(self, aims=[*self.aims, pose], targets=[*self.targets, self.target],
                       moves=[*self.moves, (at, at + takes)])

    def pose(self, t: float) -> WandPose:
        """The wand at ``t`` seconds after the cue, tremor included."""
        return self._tremble(self._path(t, len(self.moves)), t)

    def _path(self, t: float, upto: int) -> WandPose:
        """Where the first ``upto`` moves have taken the wand by ``t``; a move may start before the one
        before it has finished (a change of mind mid-way)."""
        started = [i for i in range(upto) if self.moves[i][0] <= t]
        if not started:
            return self.start
        i = started[-1]
        t0, t1 = self.moves[i]
        return _blend(self._path(t0, i), self.aims[i], _ease((t - t0) / (t1 - t0)))

    def _tremble(self, pose: WandPose, t: float) -> WandPose:
        # Physiological tremor is a few hertz; two sines per axis with random phases are enough.
        p, a = self.tremor_phase, self.tremor_mm
        def wave(f1, f2, i):
            return math.sin(2 * math.pi * f1 * t + p[i]) + 0.5 * math.sin(2 * math.pi * f2 * t + p[i + 1])
        shake = a * np.array([wave(5.3, 9.1, 0), wave(4.7, 8.3, 2), 0.5 * math.sin(2 * math.pi * 6.1 * t + p[4])])
        turn = 0.002 * a * np.array([math.sin(2 * math.pi * 3.9 * t + p[5]), math.cos(2 * math.pi * 4.4 * t + p[5]), 0])
        d = pose.direction + turn
        return WandPose(pose.tip + shake, d / np.linalg.norm(d))


def _ease(a: float) -> float:
    return 0.5 - 0.5 * math.cos(math.pi * min(max(a, 0.0), 1.0))


def _blend(a: WandPose, b: WandPose, w: float) -> WandPose:
    d = (1 - w) * a.direction + w * b.direction
    return WandPose((1 - w) * a.tip + w * b.tip, d / np.linalg.norm(d))

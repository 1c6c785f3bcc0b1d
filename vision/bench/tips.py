"""The wands' tip switches in a rendered casting, with a push switch's physics and faults.

A tactile switch under the tip bead is pressed only by the share of the push along the wand
(``hardware.md``, "Tip switch"; ``docs/wand-markers.md``): a player pressing the wand down
with force F at elevation θ (the wand's angle above the table) gives the switch about
F·(sin θ + μ·cos θ), μ being the bead's friction on card. It closes when that reaches the switch's
rated force and the bead truly rests (its bottom within the switch's travel of the token or table
under it), a few frames late (contact bounce and the hub's debounce). So a light touch with a flat wand
does not click; a firm touch with a steep one does.

Per wand and casting (each casting is one touch): the press force, the friction and the bounce delay,
drawn from the scene's seed apart from what the renderer draws (a scene looks the same with or without
switches). Per wand and table (a fault lasts all night): a dead or unplugged switch (never closes), one
stuck closed (always closed, whatever the bead does), a tired spring (closes at a lighter push and
reopens late). The pipeline sees only the bit; the bench keeps the truth beside it for its figures.
A switch silent on a token casting after casting is doubted over the night as the table side does
(``HubTips``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from vision.decide import CastingResult
from vision.render.scene import FrameTruth, Scene
from vision.touch import SilentSwitches, resting

TOKEN_MM = 2.0  # a token's thickness: a bead resting on it has its bottom this high
# The switch's travel, plus the renderer's tremor (up to 1 mm up and down at the tip, which a bead
# pressed on card does not really have): closed only while the bead is within this of what it rests on.
CLOSES_MM = 1.5
RATED_N = 0.98  # the tactile switch's operating force (a common 100 gf part)
PRESS_N = (1.0, 3.0)  # how hard people rest a wand on a token
FRICTION = (0.1, 0.3)  # the bead's friction on printed card
BOUNCE_FRAMES = 3  # a closing switch is read 0-3 frames late
WEAK_RATED_N = 0.5  # a tired spring closes at a lighter push ...
WEAK_RELEASE_FRAMES = (4, 10)  # ... and reopens this many frames after the bead lifts

OK, DEAD, STUCK, WEAK = "ok", "dead", "stuck", "weak"
# Share of wands, per table and night, with each fault: small, as for a hand-built wand that was tested.
FAULT_RATES = {DEAD: 0.02, STUCK: 0.005, WEAK: 0.02}


def axial_force(press_n: float, elevation_deg: float, friction: float) -> float:
    """Newtons along the wand, on the switch, when it is pressed down with ``press_n`` at
    ``elevation_deg`` above the table: the push's share along the wand plus the friction that keeps the
    bead from sliding."""
    theta = math.radians(elevation_deg)
    return press_n * (math.sin(theta) + friction * math.cos(theta))


def clicks(press_n: float, elevation_deg: float, friction: float, rated_n: float = RATED_N) -> bool:
    """Whether a resting bead pressed this way closes a switch rated ``rated_n``."""
    return axial_force(press_n, elevation_deg, friction) >= rated_n


def table_faults(seed: int, wands: tuple[int, ...] = (1, 2, 3, 4)) -> dict[int, str]:
    """Each wand's switch for a whole night at the table of ``seed``: ok or one fault."""
    rng = np.random.default_rng([seed, 0x5EC7])
    out = {}
    for k in wands:
        u, acc, fault = rng.random(), 0.0, OK
        for name, rate in FAULT_RATES.items():
            acc += rate
            if u < acc:
                fault = name
                break
        out[k] = fault
    return out


@dataclass
class SwitchTally:
    """The switches' own figures at each casting's deciding frame: resting beads that clicked, lifted
    ones whose switch was closed."""

    resting: int = 0
    clicked: int = 0
    lifted: int = 0
    closed_lifted: int = 0
    faults: dict[str, int] = field(default_factory=dict)

    def add(self, tips: SceneTips) -> None:
        for rests, closed in tips.states().values():
            if rests:
                self.resting += 1
                self.clicked += closed
            else:
                self.lifted += 1
                self.closed_lifted += closed

    def merge(self, other: SwitchTally) -> None:
        self.resting += other.resting
        self.clicked += other.clicked
        self.lifted += other.lifted
        self.closed_lifted += other.closed_lifted
        for k, v in other.faults.items():
            self.faults[k] = self.faults.get(k, 0) + v


class SceneTips:
    """``touching(wand)`` as the switch of that wand reads in the frame last shown with ``see``; frames
    are shown in order (bounce and a tired spring's late release count frames). ``faults``: each wand's
    switch for the night (default: every switch works)."""

    def __init__(self, scene: Scene, faults: dict[int, str] | None = None) -> None:
        self.bead_mm = {k: p.bead_radius_mm for k, p in scene.paints.items()}
        self.tokens = [(t.x_mm, t.y_mm, t.radius_mm) for t in scene.layout.tokens]
        wands = sorted(scene.gestures)
        rng = np.random.default_rng([scene.seed, 0x7195])
        draws = rng.random((len(wands), 4))
        self.press_n = {k: PRESS_N[0] + d[0] * (PRESS_N[1] - PRESS_N[0]) for k, d in zip(wands, draws)}
        self.friction = {k: FRICTION[0] + d[1] * (FRICTION[1] - FRICTION[0]) for k, d in zip(wands, draws)}
        self.bounce = {k: int(d[2] * (BOUNCE_FRAMES + 1)) for k, d in zip(wands, draws)}
        low, high = WEAK_RELEASE_FRAMES
        self.release = {k: low + int(d[3] * (high - low + 1)) for k, d in zip(wands, draws)}
        self.fault = {k: (faults or {}).get(k, OK) for k in wands}
        self.pressed_for = {k: 0 for k in wands}  # frames in a row the bead has rested pressed hard enough
        self.lifted_for = {k: 10**6 for k in wands}  # frames since the switch was last pressed
        self.truth: FrameTruth | None = None

    def see(self, truth: FrameTruth) -> None:
        self.truth = truth
        for k, w in truth.wands.items():
            if k not in self.fault:
                continue
            rated = WEAK_RATED_N if self.fault[k] == WEAK else RATED_N
            pressed = self.resting(k) and clicks(self.press_n[k], w.elevation_deg, self.friction[k], rated)
            self.pressed_for[k] = self.pressed_for[k] + 1 if pressed else 0
            self.lifted_for[k] = 0 if pressed else self.lifted_for[k] + 1

    def gap_mm(self, wand: int) -> float:
        """How far the bead's surface is from the table or the nearest token under or beside it (a bead
        beside a token's edge rests on that edge, as beads crowding one token do)."""
        assert self.truth is not None
        x, y, z = (float(v) for v in self.truth.wands[wand].tip_mm)
        radius = self.bead_mm[wand]
        gap = z - radius  # to the table
        for tx, ty, r in self.tokens:
            beyond = math.hypot(x - tx, y - ty) - r  # the bead's centre past the token's edge
            up = z - TOKEN_MM
            gap = min(gap, up - radius if beyond <= 0 else math.hypot(beyond, max(up, 0.0)) - radius)
        return gap

    def resting(self, wand: int) -> bool:
        """The bead really rests on a token or the table (the truth, for the bench's own figures)."""
        return self.gap_mm(wand) <= CLOSES_MM

    def touching(self, wand: int) -> bool | None:
        if self.truth is None or wand not in self.truth.wands or wand not in self.fault:
            return None
        fault = self.fault[wand]
        if fault == DEAD:
            return False
        if fault == STUCK:
            return True
        if fault == WEAK and 0 < self.lifted_for[wand] <= self.release[wand]:
            return True
        return self.pressed_for[wand] > self.bounce[wand]

    def states(self) -> dict[int, tuple[bool, bool]]:
        """Per wand in the frame last seen: (the bead truly rests, the switch reads closed)."""
        if self.truth is None:
            return {}
        return {k: (self.resting(k), bool(self.touching(k))) for k in self.truth.wands if k in self.fault}


class HubTips:
    """A casting's switches as the table side hands them to the camera: ``SceneTips`` seen through the
    night's record of switches silent on a token (``vision.touch.SilentSwitches``), kept across the
    table's castings as the table side's board keeps it. A doubted switch is not known (None), until
    it clicks."""

    def __init__(self, tips: SceneTips, record: SilentSwitches) -> None:
        self.tips, self.record = tips, record
        record.began([])  # nothing is pressed before the first frame

    def see(self, truth: FrameTruth) -> None:
        self.tips.see(truth)
        for k in truth.wands:
            if self.tips.touching(k):
                self.record.clicked(k)

    def touching(self, wand: int) -> bool | None:
        return None if self.record.doubts(wand) else self.tips.touching(wand)

    def closed(self, result: CastingResult) -> None:
        """The casting closed: the wands read resting on a token count towards doubting their switch."""
        self.record.closed(resting(result), self.tips.fault)

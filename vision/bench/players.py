"""Players at a rendered table who watch their wands' lights (``docs/tableside.md``, "What happens
during a casting").

With a wand hub every wand blinks from the cue until the casting takes it as read, then lights
steady; a wand still blinking is waited for until the casting gives up. The table card
(``docs/table-card.md``, "Your wand's light") says what to do: a wand that keeps blinking, touch the
token with the tip and move the fist; a wand lit steady is read, take it back. At four players
reaching into the middle of the table, a tip is far more often hidden under another player's arm than
under its own fist (the renderer's nominal castings: 31 of 38 tips under half seen at the close), and
an arm taken back uncovers it. These players do so as people would, not as the bench would like:

- not everyone looks: a player looks at the light only once they have pointed, and some never do
  (``LOOKS``);
- a player acts a moment after coming to rest, having given the light time to turn steady
  (``NOTICE_S``), then takes a while to move (``MOVE_S``); a move too late for the casting is none;
- what they do is drawn blind of what the camera sees, from what a player knows (where their tip
  is, which token they mean): a tip already resting stays where it is and the wand is held at a new
  lean; a tip in the air is brought down onto the token they mean, the wand held as the card allows.
  Nothing makes the new pose show the tip: the fist may cover it again, a neighbour's wand or
  sleeve may still lie over it; nor is it ever drawn again;
- a player who looks and whose light has turned steady takes the wand back (held up as before the
  cue) a moment later, if they do as the card says (``TAKES_BACK``); the others leave it on the token.

Drawn from the scene's seed apart from the renderer's own draws, so a casting is the same as without
players up to the first adjustment.
"""
from __future__ import annotations

import math

import numpy as np

from vision.decide import CastingSoFar
from vision.render.people import WandPose, leaned_anew, raised_pose, touch_pose
from vision.render.scene import Scene

LOOKS = 0.75  # share of players who look at their wand's light once they have pointed
NOTICE_S = (1.0, 0.4, 0.5, 3.0)  # seconds from coming to rest to acting: median, log-spread, least, most
MOVE_S = (0.3, 0.6)  # how long the adjustment itself takes
ADJUSTMENTS = 2  # a player tries at most twice in one casting
RESTING_MM = 4.0  # a tip within this of resting height is felt resting on its token
TAKES_BACK = 0.6  # share of the players who look who take their wand back once its light is steady


class Players:
    """The players of one scene: told each frame's wand readings (``watch``, a casting's watcher),
    they adjust the scene's gestures (``act``) when their light keeps blinking."""

    def __init__(self, scene: Scene, give_up_s: float) -> None:
        self.scene = scene
        self.give_up_s = give_up_s
        self.rng = np.random.default_rng([scene.seed, 0x1ED5])
        wands = sorted(scene.gestures)
        self.looks = {k: bool(self.rng.random() < LOOKS) for k in wands}
        self.due = {k: scene.gestures[k].settled_at + self._notice() for k in wands}
        self.left = {k: ADJUSTMENTS for k in wands}
        self.blinking: set[int] = set(wands)
        self.adjusted: dict[int, int] = {}  # wand -> adjustments made
        # The take-back draws from its own generator: the other draws stay as they were without it.
        self.card = np.random.default_rng([scene.seed, 0xCA4D])
        self.takes_back = {k: bool(self.card.random() < TAKES_BACK) for k in wands}
        self.take_back_at: dict[int, float] = {}  # wand -> when its player, having seen it steady, takes it back
        self.rested = {k: scene.gestures[k].settled_at for k in wands}  # the wand's last rest on its token
        self.taken_back: set[int] = set()

    def watch(self, so_far: CastingSoFar) -> None:
        """The lights after one frame: a wand not yet taken as read blinks."""
        self.blinking = {k for k in so_far.readings if k not in so_far.read}
        for k in so_far.read:
            if k not in self.take_back_at and self.looks[k] and self.takes_back[k]:
                self.take_back_at[k] = so_far.t + self._notice(self.card)

    def act(self, t: float) -> None:
        """Every player whose light still blinks and whose moment has come adjusts the wand, from ``t``;
        every player whose light has been steady a moment takes the wand back."""
        for k in sorted(self.blinking):
            if self.looks[k] and self.left[k] > 0 and self.due[k] <= t < self.give_up_s:
                self._adjust(k, t)
        for k, due in sorted(self.take_back_at.items()):
            if k not in self.taken_back and due <= t and self.scene.gestures[k].settled_at <= t:
                seat = self.scene.seats[k]
                self.scene.gestures[k] = self.scene.gestures[k].then(t, raised_pose(self.card, seat),
                                                                     float(self.card.uniform(*MOVE_S)))
                self.taken_back.add(k)

    def last_rest(self) -> float:
        """When the last wand came to rest on its token (a wand taken back afterwards rests in the air)."""
        return max(self.rested.values())

    def waiting_until(self) -> float | None:
        """The last moment a player whose light blinks will act (None: nobody will), so that the frames
        are drawn until then."""
        due = [self.due[k] for k in self.blinking if self.looks[k] and self.left[k] > 0 and self.due[k] < self.give_up_s]
        return max(due) if due else None

    def _adjust(self, k: int, t: float) -> None:
        g = self.scene.gestures[k]
        seat, bead = self.scene.seats[k], self.scene.paints[k].bead_radius_mm
        aim = g.aims[-1]
        rests = aim.tip[2] <= bead + 2.0 + RESTING_MM
        pose: WandPose | None = None
        for _ in range(20):
            if rests:
                pose = leaned_anew(self.rng, seat, aim.tip)
            elif g.target is not None:
                pose = touch_pose(self.rng, seat, self.scene.layout.token(g.target), bead)
            if pose is not None:
                break
        if pose is None:  # no grip this player can reach: they leave the wand as it is
            self.left[k] = 0
            return
        takes = float(self.rng.uniform(*MOVE_S))
        self.scene.gestures[k] = g.then(t, pose, takes)
        self.rested[k] = t + takes
        self.due[k] = t + takes + self._notice()
        self.left[k] -= 1
        self.adjusted[k] = self.adjusted.get(k, 0) + 1

    def _notice(self, rng: np.random.Generator | None = None) -> float:
        median, spread, least, most = NOTICE_S
        return float(min(max(median * math.exp((rng or self.rng).normal(0, spread)), least), most))

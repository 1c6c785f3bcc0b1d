"""The table with nothing over it, as the camera saw it before the cue.

A wand's colour on the table that was there before the cue is a token or a card, never a tip
(``vision.markers.TableView``). But the second before the cue is often not the bare table: players hold
their wands over tokens, or rest them there, waiting for the cue, and move them to their targets after
it. A token uncovered at the cue would then look new, and a wand whose own tip is hidden under its
fist would be read as that token when it has the wand's colour.

So the table is remembered where nothing moved for a while (``STILL_S``): every picture before a cue
updates the memory only where it looks as it did for that long. Hands and wands held over the table
tremble and move, so they do not get in; a token uncovered a moment before the cue is already in it
from before. What showed a wand's colour (a token like a paint) is kept far longer (``KEEP_PAINT_S``):
a hand or a wand resting still over such a token for a few seconds must not make it new. The table
view at a cue is the median of the last pictures (moving wands and hands drop out of it), with the
remembered wand-coloured table pasted where that median shows no wand's colour (something held over
it the whole second). Only the wand-coloured memory matters: the table view serves to tell pixels of
a wand's colour that were there already.

A wand resting still on its token for seconds before the cue (its player waiting for the cue, already
on the target) is as still as a token, and would join the table: after the cue its own bead and band
would look like the table and the wand would come out missing. So a wand the wand stage finds (a bead
with its band: a pair no token makes) never joins the table, in the memory or in the view: where it
lies, the view shows the table as last seen bare there, or, never seen bare, no wand's colour at all.
"""
from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Mapping

import cv2
import numpy as np

from vision.markers import BeadSize, TableView, WandSighting, paint_classes
from vision.profile import PaintModel

RECENT = 5  # pictures kept for their median, where the memory has not seen the table yet
EVERY_S = 0.15  # pictures are kept at least this far apart
STILL_S = 1.0  # a pixel unchanged this long is the table (a hand held over it trembles within a second)
KEEP_PAINT_S = 10.0  # ... but what showed a wand's colour is replaced only by what stayed this long
# A found wand's bead or band covers this many times its measured radius, plus a few pixels: the blob's
# outline is a little inside the bead's (its rim is dimmer than the paint's floors), and the blur and a
# resting hand's tremor spread it further.
HELD_GROWTH, HELD_SLACK_PX = 1.6, 3.0
# A bead resting on a token measures up to about a third more area than a bead (the token's rim beside
# it); a token of a wand's colour (15 mm across the middle to a bead's 12) measures 1.5 times and more.
# Only a patch of a resting bead's size is taken for a wand at rest: a token paired with the band of a
# wand whose tip is under its fist stays the table.
RESTING_AREA = 1.35

Wands = Callable[[np.ndarray], Mapping[int, WandSighting]]  # (H,W,3) BGR -> the wands seen, with no table view


def wand_discs(shape: tuple[int, ...], wands: Iterable[WandSighting]) -> np.ndarray:
    """(H,W) bool: what the beads and bands of ``wands`` (each found with its band) cover in a picture of
    ``shape``: never the table."""
    mask = np.zeros(shape[:2], np.uint8)
    for s in wands:
        assert s.band_px is not None
        for centre, area in ((s.tip_px, s.tip_area), (s.band_px, s.band_area)):
            radius = HELD_GROWTH * math.sqrt(max(area, 1.0) / math.pi) + HELD_SLACK_PX
            cv2.circle(mask, (int(round(centre[0])), int(round(centre[1]))), int(math.ceil(radius)), (1,), -1)
    return mask.astype(bool)


class BareTable:
    """The table as it lies, from the pictures seen before the cues: ``see`` each, ``view`` at a cue.

    ``diff``: grey levels within which a pixel counts as unchanged (``markers.static_diff``); ``wands``:
    the wand stage without a table view (``markers.find_wands``) and ``bead_px`` how big a resting bead
    looks where (``Pipeline.bead_px``), so that wands at rest never join the table (None: every still
    pixel may)."""

    def __init__(self, paints: Mapping[int, PaintModel], hue_slack: float, diff: float,
                 wands: Wands | None = None, bead_px: BeadSize | None = None) -> None:
        self.paints = dict(paints)
        self.hue_slack = hue_slack
        self.diff = diff
        self.wands = wands
        self.bead_px = bead_px
        self.still_frames = math.ceil(STILL_S / EVERY_S)
        self.keep_paint_frames = math.ceil(KEEP_PAINT_S / EVERY_S)
        self._recent: deque[np.ndarray] = deque(maxlen=RECENT)
        self._last_t: float | None = None
        self._memory: np.ndarray | None = None  # (H,W,3) uint8 the table where it was seen still
        self._painted: np.ndarray | None = None  # (H,W) bool: ... in a wand's colour
        self._seen: np.ndarray | None = None  # (H,W) bool: ... seen bare at least once (no wand over it)
        self._clear: np.ndarray | None = None  # (H,W) bool: the table here was seen without any wand's colour
        self._steady: np.ndarray | None = None  # (H,W) uint16 pictures in a row the pixel stayed as it was
        self._previous: np.ndarray | None = None  # the last picture kept, even across a cue

    def see(self, image_bgr: np.ndarray, t: float) -> None:
        """A picture from before a cue, taken at ``t`` seconds (frames' clock); kept at most every
        ``EVERY_S`` (a clock that goes back starts a new stretch of pictures, as a new casting does)."""
        if self._last_t is not None and 0.0 <= t - self._last_t < EVERY_S:
            return
        self._last_t = t
        coloured = paint_classes(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV), self.paints, self.hue_slack) != 0
        if self._steady is None or self._steady.shape != image_bgr.shape[:2]:
            h, w = image_bgr.shape[:2]
            self._memory = image_bgr.copy()
            self._painted = np.zeros((h, w), bool)
            self._seen = np.zeros((h, w), bool)
            self._clear = ~coloured
            self._steady = np.zeros((h, w), np.uint16)
            self._recent.clear()
        else:
            assert self._memory is not None and self._painted is not None and self._seen is not None
            assert self._previous is not None and self._clear is not None
            same = cv2.absdiff(image_bgr, self._previous).max(axis=2) < self.diff
            self._steady = np.where(same, np.minimum(self._steady.astype(np.int32) + 1, 60000), 0).astype(np.uint16)
            need = np.where(self._painted, self.keep_paint_frames, self.still_frames)
            take = (self._steady >= need) & ~self.held(image_bgr)
            if take.any():
                self._memory[take] = image_bgr[take]
                self._painted[take] = coloured[take]
                self._seen |= take
                # Still that long, the table's colour there is known: a token of a wand's colour laid
                # there is the table from now on; a wand seen there later was brought there.
                self._clear[take] = ~coloured[take]
        self._recent.append(image_bgr)
        self._previous = image_bgr

    def held(self, image_bgr: np.ndarray) -> np.ndarray:
        """(H,W) bool: where the picture shows a wand (its bead and band, as the wand stage finds them
        with their band) where the table was seen without its colour: a wand brought there, never the
        table. A token of a wand's colour the camera has always seen there may pass for a bead with a
        band nearby; it stays the table."""
        if self._clear is None:
            return np.zeros(image_bgr.shape[:2], bool)
        found = self.wands(image_bgr) if self.wands is not None and self.bead_px is not None else {}
        # A lone patch of a wand's colour, or one bigger than a bead, may be a token.
        return wand_discs(image_bgr.shape[:2], [s for s in found.values() if s.band_px is not None
                                                and self._resting_size(s)]) & self._clear

    def _resting_size(self, s: WandSighting) -> bool:
        assert self.bead_px is not None
        resting = float(self.bead_px(s.tip_px[None], self.paints[s.strength].bead_radius_mm)[0])
        return s.tip_area <= RESTING_AREA * math.pi * resting ** 2

    def view(self) -> TableView | None:
        """The cue: the table as it lies now (the median of the pictures since the last cue, with the
        remembered wand-coloured table where that shows none); None when no picture came since."""
        if not self._recent:
            return None
        stack = np.stack(list(self._recent))
        self._recent.clear()
        image = np.median(stack, axis=0).astype(np.uint8) if len(stack) > 1 else stack[0].copy()
        if self._painted is not None and self._memory is not None and self._painted.any():
            # Only what showed a wand's colour, and only where the last pictures show none: a hand held
            # over a token does not hide it, while whatever is new and lay there long enough (a token
            # moved, a card laid) is taken from the last pictures, not from an older memory.
            shown = paint_classes(cv2.cvtColor(image, cv2.COLOR_BGR2HSV), self.paints, self.hue_slack) != 0
            keep = self._painted & ~shown
            image[keep] = self._memory[keep]
        self._unheld(image)
        return TableView(image)

    def _unheld(self, image: np.ndarray) -> None:
        """Where the view shows a wand at rest: the table as last seen bare there, else the same pixel
        without its colour (a wand seen there after the cue is then new, as it must be)."""
        held = self.held(image)
        if not held.any():
            return
        if self._seen is not None and self._memory is not None and self._seen.shape == held.shape:
            bare = held & self._seen
            image[bare] = self._memory[bare]
            held &= ~self._seen
        grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        image[held] = grey[held]

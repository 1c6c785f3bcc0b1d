"""The recipe: from a camera frame to who pointed at which token.

    frames before the cue --BareTable--> the table as it lies, where nothing moved for a while (tokens are not wands)
    frame --find_wands--> tip bead + band per wand (each wand's paint from the profile)
          --_band_reach-> a band farther from the patch taken for the tip than the wand's band sits: not its tip
          --TipTrail----> only where a hand could have carried the tip since it was last seen (a patch far off is not it)
          --_joined-----> a bead and band still since the cue with no shaft leaving the band: patches on the table
          --wand_axis---> axis from the band, else the gripping hand, else the shaft, else the tip alone
          --hidden_tip--> a tip hidden under a fist: where it can be, from its band and shaft
          --lost_tip----> a wand lost under a fist, band and all: asked, the token it was heading for first
          --under_tip---> the token under the tip (the table card's reading), with margin to neighbours
          --score_tokens> only for a tip over no token: aimed from afar, with margin
          --Casting-----> settle window after the cue, then target / unsure / missing / none per wand
          (the table side turns the readings into the game's cast, or a question for the table)

Undistortion is applied to the few marker points, not to the whole image. Thresholds come from
``vision.config``; the table's profile (``vision.profile``) says where the camera and the table are and
what each wand's paint looks like.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import cv2
import numpy as np

from vision.axis import WandAxis, wand_axis
from vision.bare_table import BareTable, wand_discs
from vision.config import VisionConfig, load_config
from vision.decide import LOST, NONE, TARGET, UNSURE, Casting, CastingResult, CastingWatch, WandReading, verdict
from vision.frames import Frame, FrameSource
from vision.hidden_tip import (BAND_MAX_AREA, FIST_DIFF, band_alone, covered, fist_allows, is_placed, placed_axis, shaft_allows,
                               shaft_beyond, shaft_joins, shaft_line, shaft_seen, tip_places)
from vision.lost_tip import likeliest, lost_axis, seen_segment
from vision.markers import Blob, ShaftOn, TableView, WandSighting, find_wands, shaft_direction, wand_pixels
from vision.profile import PaintModel, ProfileError, load_profile
from vision.scoring import TokenScores, aim_scores, score_tokens
from vision.table_geometry import Calibrated, TableGeometry, UncalibratedTable
from vision.targets import Candidate, candidates_from
from vision.tip_trail import TipTrail
from vision.touch import FLIGHT_BEAD_RADII, HeardSwitches, TipSwitches
from vision.under_tip import (BETWEEN, CLEAR, OVER, OVERSIZED, TipReading, highest_for_bead, hover_heights,
                              mostly_hidden, over_any, over_which, resting_spread, under_tip)

__all__ = ["Pipeline", "FrameView", "open_pipeline", "read_casting", "hand_tracker", "UncalibratedTable",
           "UnlearnedWands", "TABLE_BEFORE_S"]
# A wand aimed from afar is held 10-25 cm from its token with nothing resting to steady it: its aim
# wavers more than a hand near the table (a quarter more: 5 degrees to the configured 4), and the
# band's place, 110 mm up the wand, is found a pixel or two off, which tilts the line by as much again.
AFAR_AIM_WAVER = 1.25
# A wand aimed at a token passes within two of its player's aim wavers of the token's middle (19 aims in
# 20): the aim likelihood (``vision.scoring``) there is exp(-2). A line that only grazes a neighbour
# further off is what any hover leaning back shows, its line crossing whatever lies behind the token.
AIMED_WITHIN = float(np.exp(-0.5 * 2.0 ** 2))
# Within one aim waver of a token's middle (likelihood exp(-1/2)): where two in three aims pass.
AIMED_AT = float(np.exp(-0.5 * 1.0 ** 2))
TABLE_BEFORE_S = 1.0  # a reading is handed the frames of this long before the cue: they show the table
# A tip bead seen whole covers at least this share of a resting bead's area (a band at most BAND_MAX_AREA).
WHOLE_BEAD = 0.8
# A place is where a person tapped the token on the preview, moved onto the token's centre when the layout
# step saw the token under the tap; a tap that found none (a hand over it, a token laid later) stays where
# the finger landed, 3-5 px off the token as seen (``docs/wand-markers.md``, "How the bench measures"),
# 5-11 mm at the table from 0.8-1.2 m. A bead resting against a token's rim,
# its centre a bead's radius past the edge, may so lie that much further from the tapped place; with no
# other token anywhere near, it is still that token's.
TAP_WOBBLE_PX = 5.0
# A wand's band is threaded ``band_from_tip_mm`` up the shaft from its tip bead's centre, whatever the wand's
# lean and the tip's height; the two centres are found up to a wand length's error (``length_sigma_mm``)
# off that twice over (the band a pixel or two off, a tip's patch off its bead's centre).
BAND_REACH_SIGMAS = 2.0
# Paint floors are never lowered below these (0-255): under them the grey table and shadows pass as paint.
LOWEST_SATURATION, LOWEST_VALUE = 20.0, 5.0


class UnlearnedWands(UncalibratedTable):
    """The profile has no paint model for the wands: the wand step of calibration has not run."""


class Sightings(dict[int, WandSighting]):
    """The wands found in one frame, by strength; ``unpaired``: the patches of each wand whose tip was
    not found (its band may be among them, its tip hidden: ``vision.hidden_tip``); ``beyond``: the
    pairs of a patch and a band too far apart to be one wand (``Pipeline._band_reach``), no wand's
    sighting, yet still patches that lie on the table or not (``Pipeline._joined``)."""

    def __init__(self, found: Mapping[int, WandSighting], unpaired: Mapping[int, list[Blob]],
                 beyond: Mapping[int, WandSighting] | None = None) -> None:
        super().__init__(found)
        self.unpaired = dict(unpaired)
        self.beyond = dict(beyond or {})


@dataclass(frozen=True)
class FrameView:
    """What one frame showed: sightings and axes by wand strength."""

    frame: Frame
    sightings: dict[int, WandSighting]
    axes: dict[int, WandAxis]


class Pipeline:
    """A table's profile + configuration + (optionally) a hand tracker; refuses an uncalibrated table
    and wands whose paints were never learned. ``paints`` replaces the profile's own (tests)."""

    def __init__(self, profile: Calibrated, config: VisionConfig | None = None, hands: object | None = None,
                 paints: Mapping[int, PaintModel] | None = None) -> None:
        self.geo = TableGeometry(profile)
        self.cfg = config or load_config()
        learned = dict(paints if paints is not None else getattr(profile, "wands", {}) or {})
        if not learned:
            raise UnlearnedWands("the wands' paints are not learned: hold the wands in view and run "
                                 "`python -m calibration wands`")
        # The light of the wand step is not the light of every casting: floors a little lower.
        slack = self.cfg.markers.floor_slack
        self.paints = {k: m.model_copy(update={"min_saturation": max(LOWEST_SATURATION, m.min_saturation * slack),
                                               "min_value": max(LOWEST_VALUE, m.min_value * slack)})
                       for k, m in learned.items()}
        self.hands = hands
        self._hands_seen: tuple[int, list] = (-10**9, [])
        self._tips_seen: dict[int, float] = {}  # when each wand's tip was last found, this casting
        self._tip_sides: dict[int, np.ndarray] = {}  # (2,) from each wand's band toward its tip, when last both seen
        self._tips_at: dict[int, np.ndarray] = {}  # (2,) where each wand's tip was last seen whole, this casting
        self._came_from: dict[int, np.ndarray] = {}  # (2,) where each tip was seen whole the time before that
        # (2,2) where each wand's tip and band lay in the first frame after the cue, while both have lain there
        # since (``_joined``); None until that first frame is seen.
        self._still_since_cue: dict[int, np.ndarray] | None = None
        self._unjoined: dict[int, np.ndarray] = {}  # (2,) where a still pair seen with no shaft had its tip
        # Where each wand's tip can be from where it was (``vision.tip_trail``), as fast as a tip held as
        # high as a wand is moves across the picture.
        self._trail = TipTrail(self.geo.px_per_mm(self.cfg.pointing.max_height_mm))
        self.table: TableView | None = None
        self._at_cue = False  # the next frame is the first after the cue (``_table_at_cue``)
        self.stuck_switches: set[int] = set()  # wands whose tip switch was heard closed while flying
        p = self.cfg.pointing
        band = max(m.band_from_tip_mm for m in self.paints.values())
        self.bead_scale = self.geo.px_per_mm(0.0)
        # The band can be no farther from the bead than a wand held high, seen side-on.
        self.band_reach_px = 1.25 * band * self.geo.px_per_mm(p.max_height_mm + band)
        self.hand_reach_px = 1.25 * self.cfg.hands.max_tip_distance_mm * self.geo.px_per_mm(p.max_height_mm)
        self._bare = BareTable(self.paints, self.cfg.markers.hue_slack, self.cfg.markers.static_diff,
                               lambda image: find_wands(image, self.paints, self.cfg.markers, self.bead_px,
                                                        self.band_reach_px), self.bead_px)

    # -- the table before the cue ----------------------------------------------------------------
    def see_table(self, frame: Frame) -> None:
        """A frame from before the cue: the table is remembered where nothing moved for a while
        (``vision.bare_table``), so a token a hand covered just before the cue is still the table."""
        self._bare.see(frame.image, frame.t)

    def freeze_table(self) -> None:
        """The cue: the table as it lies becomes the table view (no frame since the last cue: none)."""
        self.table = self._bare.view()
        self._at_cue = self.table is not None
        self._tips_seen, self._tip_sides, self._tips_at, self._came_from = {}, {}, {}, {}
        self._still_since_cue, self._unjoined = None, {}
        self._trail.clear()

    # -- each frame ---------------------------------------------------------------------------------
    def find(self, image_bgr: np.ndarray) -> dict[int, WandSighting]:
        """The wand stage: (H,W,3) uint8 BGR -> sightings by strength."""
        unpaired: dict[int, list[Blob]] = {}
        if self._at_cue:
            self._at_cue = False
            self.table = self._table_at_cue(image_bgr)
        found = find_wands(image_bgr, self.paints, self.cfg.markers, self.bead_px, self.band_reach_px, self.table,
                           unpaired, self._shaft_in(image_bgr))
        return Sightings(found, unpaired)

    def _table_at_cue(self, image_bgr: np.ndarray) -> TableView | None:
        """The table view with what the first frame after the cue shows of a wand's colour where no wand is
        (a bead with its band): the players raise their wands before the cue and point only once it is
        called (``docs/table-card.md``), so what lies there of a wand's colour is a token or a card, which
        the second before the cue may not have shown bare (a hand held over it, laid a moment before). Seen
        as the table, it is never taken for a tip that is hidden elsewhere. A wand's own bead seen alone
        there (its band under the fist) moves once its player points, and is new wherever it comes to rest.
        Only patches wider than a band join: a band seen alone places its hidden tip."""
        assert self.table is not None
        classes, _ = wand_pixels(image_bgr, self.paints, self.cfg.markers, self.table)
        coloured = classes != 0
        if not coloured.any():
            return self.table
        found = find_wands(image_bgr, self.paints, self.cfg.markers, self.bead_px, self.band_reach_px, self.table)
        paste = coloured & ~wand_discs(coloured.shape, [s for s in found.values() if s.band_px is not None])
        # Only patches bigger than any band: a band seen alone (its tip under the fist) places the hidden tip
        # (``vision.hidden_tip``) and must stay new, while a token of a wand's paint is wider than its bead.
        n, labels, stats, centres = cv2.connectedComponentsWithStats(paste.astype(np.uint8), connectivity=8)
        smallest_bead = min(m.bead_radius_mm for m in self.paints.values())
        beads = np.pi * self.bead_px(centres[1:], smallest_bead) ** 2 if n > 1 else np.zeros(0)
        wide = np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] > BAND_MAX_AREA * beads) + 1
        paste = np.isin(labels, wide)
        if not paste.any():
            return self.table
        image = self.table.image.copy()
        image[paste] = image_bgr[paste]
        return TableView(image)

    def _shaft_in(self, image_bgr: np.ndarray) -> ShaftOn:
        """``_shaft_on`` in this picture, for the wand stage."""
        return lambda tip, band: self._shaft_on(image_bgr, tip, band)

    def _shaft_on(self, image_bgr: np.ndarray, tip: Blob, band: Blob) -> float:
        """How far (px) the wand's dark shaft runs on from ``band``, on the side away from ``tip``, beyond a
        bead's radius past the band's rim (``hidden_tip.shaft_beyond``, as ``shaft_joins`` asks it; below 0:
        no shaft there)."""
        return shaft_beyond(image_bgr, tip.centre, band.centre, float(np.sqrt(max(band.area, 1.0) / np.pi)),
                            self._bead_radius_px(band.strength, band.centre), self.cfg.markers.shaft_contrast,
                            self.band_reach_px)

    def bead_px(self, pixels: np.ndarray, radius_mm: float) -> np.ndarray:
        """(N,2) pixels -> (N,) apparent radius of a bead of ``radius_mm`` resting on a token there."""
        return self.geo.bead_radius_px(self.geo.on_plane(pixels, radius_mm + self.cfg.pointing.touch_lift_mm), radius_mm)

    def look(self, frame: Frame, sightings: dict[int, WandSighting] | None = None) -> FrameView:
        """Sightings (found unless given) and axes for one frame; the hand tracker runs only when a band
        is hidden, and at most every ``hands.every_n_frames`` frames (it costs far more than the wand stage)."""
        found = self.find(frame.image) if sightings is None else sightings
        sightings = self._joined(frame, self._on_trail(frame, self._band_reach(found)))
        hands = self._hands(frame, sightings)
        axes = {k: wand_axis(s, self.paints[k].band_from_tip_mm, hands, self.cfg.hands, self.hand_reach_px,
                             self._shaft(frame, s)) for k, s in sightings.items()}
        for k, s in sightings.items():
            if s.tip_area <= BAND_MAX_AREA * self._bead_area_bounds(k)[1] \
                    and (threaded := self._placed(frame, k, [Blob(k, s.tip_px, s.tip_area)])) is not None:
                # A patch of band size taken for the tip, with the shaft dark on both sides, is the band (a
                # tip bead ends its shaft; what was paired with it as a band is a sliver of the hidden
                # tip or a speck): the tip is hidden, and placed from it.
                axes[k] = threaded
        self._tips_seen.update({k: frame.t for k in sightings if not is_placed(axes[k])})
        # Only a whole bead with its band: a patch of the wand's colour on its own may be a token of it.
        whole = {k: s.tip_px for k, s in sightings.items() if not is_placed(axes[k]) and self._whole_with_band(s)}
        self._came_from.update({k: self._tips_at[k] for k in whole if k in self._tips_at})
        self._tips_at.update(whole)
        self._tip_sides.update({k: s.tip_px - s.band_px for k, s in sightings.items() if self._whole_with_band(s)})
        settle_s = self.cfg.decide.settle_ms / 1000
        for k, blobs in getattr(sightings, "unpaired", {}).items():
            # A tip seen a moment ago is still the tip: a frame that misses it (a fist trembling over it)
            # is no reason to place it from its band, and a wand read from both would never look still.
            if 0 <= frame.t - self._tips_seen.get(k, -np.inf) < settle_s:
                continue
            if (placed := self._placed(frame, k, blobs)) is not None:
                axes[k] = placed
        missing_s = self.cfg.decide.missing_ms / 1000
        for k in self._tips_at.keys() - axes.keys():
            # Nothing of the wand in view, not even its band: a fist over its tip and band alike. Told only
            # once the casting would give it up as missing (``vision.decide`` keeps it apart from sightings).
            if frame.t - self._tips_seen[k] >= missing_s:
                axes[k] = lost_axis(k, self._tips_at[k], self._came_from.get(k, self._tips_at[k]))
        return FrameView(frame, sightings, axes)

    def _band_reach(self, sightings: dict[int, WandSighting]) -> Sightings:
        """The sightings whose band lies where the wand's own band can be from the patch taken for its tip.
        The wand stage pairs a tip and a band by the picture alone (``band_reach_px``: any place, any pose
        at once); here the band's ray must pass within ``band_from_tip_mm`` (``BAND_REACH_SIGMAS`` wand
        length errors allowed) of the tip at some height from resting up to ``max_height_mm``. A band
        farther off is, as the wand stage says of a lone patch, the wand's band seen out of the patch's
        reach: the patch is something else of the wand's colour (a token of its paint an arm uncovered
        while the tip lies under the arm), so the wand goes unseen in this frame, and its band is handed
        on so that the tip may be placed from it (``vision.hidden_tip``). The pair itself is kept aside
        (``Sightings.beyond``): a patch lying still on the table since the cue is refused all the same.
        A patch within two bead radii of where the wand's tip was last seen whole with its own band this
        casting is that tip (it was followed there): only the far patch is dropped, as no band of it."""
        unpaired = dict(getattr(sightings, "unpaired", {}))
        if self.table is None:  # before the first cue there is no casting
            return sightings if isinstance(sightings, Sightings) else Sightings(sightings, unpaired)
        p = self.cfg.pointing
        kept, beyond = {}, {}
        for k, s in sightings.items():
            if s.band_px is None:
                kept[k] = s
                continue
            paint = self.paints[k]
            tips = self.geo.at_height(s.tip_px, np.arange(paint.bead_radius_mm, p.max_height_mm + 1e-9, p.height_step_mm))
            ray = self.geo.rays(s.band_px[None])[0]
            ray = ray / np.linalg.norm(ray)
            w = self.geo.centre[None, :] - tips
            gap = np.sqrt(np.clip(np.einsum("ij,ij->i", w, w) - (w @ ray) ** 2, 0.0, None))  # (H,) tip to band ray
            if float(gap.min()) <= paint.band_from_tip_mm + BAND_REACH_SIGMAS * p.length_sigma_mm:
                kept[k] = s
            elif (last := self._tips_at.get(k)) is not None \
                    and float(np.linalg.norm(s.tip_px - last)) <= FLIGHT_BEAD_RADII * self._bead_radius_px(k, s.tip_px):
                # The wand's tip was seen whole with its own band right here: the patch is its tip, and the far
                # patch something else of its colour (a token's part beside it, its real band under the fist).
                kept[k] = replace(s, band_px=None, band_area=0.0)
            else:
                unpaired[k] = [Blob(k, s.band_px, s.band_area)]
                beyond[k] = s
        return Sightings(kept, unpaired, beyond)

    def _on_trail(self, frame: Frame, sightings: dict[int, WandSighting]) -> Sightings:
        """The sightings a hand could have carried each wand's tip to since it was last seen; one the
        wand could not have reached is not the wand (``vision.tip_trail``), and the wand goes unseen."""
        if self.table is None:  # before the first cue there is no casting to follow
            return sightings if isinstance(sightings, Sightings) else Sightings(sightings, {})
        kept = {k: s for k, s in sightings.items()
                if self._trail.allows(k, frame.t, s.tip_px, self._bead_radius_px(k, s.tip_px),
                                      self._whole_with_band(s), s.band_px)}
        return Sightings(kept, getattr(sightings, "unpaired", {}), getattr(sightings, "beyond", {}))

    def _joined(self, frame: Frame, sightings: Sightings) -> Sightings:
        """The sightings that are a wand, of those whose tip and band have both lain still since the cue:
        a real wand's band is threaded on its shaft, which runs on from the band away from the tip to the
        fist (``vision.hidden_tip.shaft_joins``), unless that fist lies right behind the band. A tip and a
        band of a wand's paint that lay there from the first frame after the cue with neither are two
        patches on the table (tokens in the wand's paint the remembered table never saw so): not the
        wand, which goes unseen, and the patch that lay as its tip is no wand's tip for the rest of the
        casting. A wand that moved since the cue is never checked. A pair too far apart to be one wand
        (``Sightings.beyond``) is no wand's sighting, but is followed and refused the same way: a patch on
        the table lying there since the cue beside one of its kind, then paired with the wand's own bead
        come in, is refused for that first pair."""
        if self.table is None:
            return sightings
        beyond = getattr(sightings, "beyond", {})
        seen = {**beyond, **sightings}
        first = self._still_since_cue is None
        still = self._still_since_cue if self._still_since_cue is not None else {}
        for k, s in seen.items():
            if first and s.band_px is not None:
                still[k] = np.stack([s.tip_px, s.band_px])
            elif k in still and (s.band_px is None or np.linalg.norm(np.stack([s.tip_px, s.band_px]) - still[k], axis=1).max()
                                 > self._bead_radius_px(k, s.tip_px)):
                del still[k]  # it moved, or changed its pairing: no pair lying on the table
        self._still_since_cue = still
        kept = {}
        for k, s in seen.items():
            if k in self._unjoined and float(np.linalg.norm(s.tip_px - self._unjoined[k])) <= self._bead_radius_px(k, s.tip_px):
                # Once seen with no shaft, the patch that lay still as the tip is no wand's tip this casting,
                # whatever it is paired with: the dark rims and middles of tokens beside it flicker in and
                # out of looking like a shaft, and the wand's own bead brought near it passes for its band.
                continue
            if k in still and s.band_px is not None and not self._fist_behind(frame, s) and not shaft_joins(
                    frame.image, s.tip_px, s.band_px, float(np.sqrt(max(s.band_area, 1.0) / np.pi)),
                    self._bead_radius_px(k, s.band_px), self.cfg.markers.shaft_contrast, self.band_reach_px):
                self._unjoined[k] = s.tip_px
                continue
            if k not in beyond:
                kept[k] = s
        return Sightings(kept, getattr(sightings, "unpaired", {}))

    def _fist_behind(self, frame: Frame, s: WandSighting) -> bool:
        """Something lies over the table just behind the band, away from the tip (a fist gripping the wand
        right behind its band hides the shaft there): a bead's disc a bead's radius past the band's rim
        looks as the table did before the cue over at most a fifth of it (``hidden_tip.covered``)."""
        assert self.table is not None and s.band_px is not None
        off = s.band_px - s.tip_px
        bead = self._bead_radius_px(s.strength, s.band_px)
        band_r = float(np.sqrt(max(s.band_area, 1.0) / np.pi))
        behind = s.band_px + off / max(float(np.linalg.norm(off)), 1e-9) * (band_r + bead)
        return bool(covered(self.table, frame.image, behind[None], np.array([bead]), FIST_DIFF)[0])

    def _bead_radius_px(self, k: int, at_px: np.ndarray) -> float:
        """Wand ``k``'s resting bead's radius (px) at ``at_px``."""
        return float(self.bead_px(np.asarray(at_px, float)[None], self.paints[k].bead_radius_mm)[0])

    def _bead_area_bounds(self, k: int) -> tuple[float, float]:
        """Bounds on the area (px) of wand ``k``'s resting bead anywhere in the picture: off the camera's
        axis a bead looks wider by 1/sqrt(cos) of its angle, ~1.2 at a 66-degree lens's corners with 8
        degrees of tilt, and a tilted camera is a little farther from some of the table than its height.
        Most patches are told apart by these alone, without a ray per patch and frame."""
        r = self.paints[k].bead_radius_mm * self.geo.px_per_mm(self.paints[k].bead_radius_mm + self.cfg.pointing.touch_lift_mm)
        return float(np.pi * (0.9 * r) ** 2), float(np.pi * (1.3 * r) ** 2)

    def _whole_with_band(self, s: WandSighting) -> bool:
        """A whole tip bead seen with its band: which side of the band the tip is on can be trusted (a
        band taken for a tip, a sliver of the tip for its band, is far smaller than a whole bead)."""
        if s.band_px is None:
            return False
        smallest, largest = self._bead_area_bounds(s.strength)
        if s.tip_area >= WHOLE_BEAD * largest or s.tip_area < WHOLE_BEAD * smallest:
            return s.tip_area >= WHOLE_BEAD * largest
        resting = float(self.bead_px(s.tip_px[None], self.paints[s.strength].bead_radius_mm)[0])
        return s.tip_area >= WHOLE_BEAD * np.pi * resting ** 2

    def _placed(self, frame: Frame, k: int, blobs: list[Blob]) -> WandAxis | None:
        """A wand whose tip was not found, placed from its band and shaft where the tip can lie hidden
        (``vision.hidden_tip``); None without the table as it was (what hides the tip cannot be told)."""
        if self.table is None or not blobs:
            return None
        paint = self.paints[k]
        resting = np.pi * self.bead_px(np.array([b.centre for b in blobs]), paint.bead_radius_mm) ** 2
        band = band_alone(blobs, resting, self.cfg.markers.min_roundness)
        if band is None:
            return None
        line = shaft_line(frame.image, band.centre, float(np.sqrt(band.area / np.pi)), self.cfg.markers.shaft_contrast)
        if line is None:
            return None
        rest_mm = self._resting_mm(k)
        places = tip_places(self.geo, band.centre, line, paint.band_from_tip_mm, rest_mm)
        height, width = frame.image.shape[:2]
        places = places[(places >= 0).all(axis=1) & (places[:, 0] < width) & (places[:, 1] < height)]
        if not len(places):  # every place out of the picture (or no lean fits): nothing to place it by
            return None
        radii = self.geo.bead_radius_px(self.geo.on_plane(places, rest_mm), paint.bead_radius_mm)
        places = places[covered(self.table, frame.image, places, radii, self.cfg.markers.static_diff)]
        places = places[fist_allows(self.geo, self.table, frame.image, band.centre, places, paint.band_from_tip_mm,
                                    rest_mm)]
        seen = shaft_seen(frame.image, band.centre, line, float(np.sqrt(band.area / np.pi)),
                          self.cfg.markers.shaft_contrast, self.band_reach_px)
        places = places[shaft_allows(self.geo, band.centre, line, places, seen, paint.band_from_tip_mm, rest_mm)]
        if (side := self._tip_sides.get(k)) is not None:
            # A wand does not turn end over end while its fist closes over the tip: the tip is on the side
            # of the band it was last seen on, this casting.
            places = places[(places - band.centre) @ side > 0]
        return placed_axis(k, band, places, paint.band_from_tip_mm) if len(places) else None

    def _shaft(self, frame: Frame, sighting: WandSighting) -> np.ndarray | None:
        if sighting.band_px is not None:
            return None
        bead_px = float(np.sqrt(sighting.tip_area / np.pi))
        return shaft_direction(frame.image, sighting.tip_px, bead_px, self.cfg.markers.shaft_contrast)

    def _hands(self, frame: Frame, sightings: dict[int, WandSighting]) -> list:
        if self.hands is None or not self.cfg.hands.enabled or all(s.band_px is not None for s in sightings.values()):
            return []
        last, found = self._hands_seen
        if frame.index - last >= self.cfg.hands.every_n_frames or frame.index < last:
            found = list(self.hands.detect(frame.image))  # type: ignore[attr-defined]
            self._hands_seen = (frame.index, found)
        return found

    # -- reading a still wand -----------------------------------------------------------------------
    def score(self, axis: WandAxis, candidates: Iterable[Candidate | Mapping[str, Any]]) -> TokenScores:
        """Every candidate's likelihood of being aimed at from afar (or hovered over, by the old reading)."""
        return score_tokens(self.geo, axis, candidates_from(candidates), self.cfg.pointing,
                            self.paints[axis.strength].bead_radius_mm)

    def read(self, axis: WandAxis, candidates: Sequence[Candidate], touching: bool | None = None) -> WandReading:
        """One still wand's verdict: the token under its tip; only a tip over no token is read by where
        the wand points, and only with margin. ``touching``: the wand's tip switch (None: not known)."""
        k = axis.strength
        bead_mm = self.paints[k].bead_radius_mm
        if axis.source == LOST:
            return self._lost_reading(axis, candidates)
        if is_placed(axis):
            return self._placed_reading(axis, candidates, touching)
        hidden = mostly_hidden(self.geo, axis, bead_mm, self.cfg.pointing)
        if hidden and touching and axis.spread_px is not None:
            # The switch says the bead rests on a token; what shows of it says where it can be.
            rests = resting_spread(self.geo, axis, candidates, bead_mm, self.cfg.pointing)
            if rests.status == BETWEEN:
                rim = over_which(self.geo.on_plane(axis.spread_px, self._resting_mm(k))[:, :2],
                                 candidates, self.cfg.pointing, self._tap_wobble_mm())
                rests = rim if rim.status == OVER else rests
            return _over(axis, rests) if rests.status == OVER else _asked(axis, rests, "hidden")
        tip = under_tip(self.geo, axis, candidates, bead_mm, self.cfg.pointing, touching)
        if tip.status == BETWEEN and not hidden:
            tip = self._at_rim(axis, candidates, touching, tip)
        if tip.status == OVER and hidden:
            return _asked(axis, tip, "hidden")
        if tip.status == OVER and touching is False:
            return self._aimed_past(axis, candidates, tip)
        if tip.status == OVER:
            return _over(axis, tip)
        if tip.status in (BETWEEN, OVERSIZED):
            return _asked(axis, tip, "hidden" if hidden else "between" if tip.status == BETWEEN else "merged")
        if axis.back_px is None or touching:  # a lone tip over no token, or one pressed on bare table
            return WandReading(k, NONE, None, 0.0, None, {}, axis.source, why="nothing")
        return self._lines_agree(axis, candidates, verdict(k, self._from_afar(axis, candidates), self.cfg.decide,
                                                           axis.source))

    def _lines_agree(self, axis: WandAxis, candidates: Sequence[Candidate], reading: WandReading) -> WandReading:
        """A wand read from afar, kept only if its line names no other token with the tip taken resting
        nor taken higher than a hover (up to what the bead's size allows). One camera cannot tell the
        tip's height; the reading from afar weighs every height together, and a wand whose low and high
        lines name different tokens is one it cannot tell: asked. (In the development distance set both
        readings from afar whose lines named another token were wrong; on wands drawn at random, one
        in five such readings was wrong, against one in 75 of the others: ``docs/wand-markers.md``.)"""
        if reading.status != TARGET or axis.back_px is None:
            return reading
        resting, hover = self._resting_mm(axis.strength), self._hover_mm(axis.strength)
        top = max(self._highest_mm(axis), hover)
        named = {self._line_names(axis, candidates, resting, resting), self._line_names(axis, candidates, hover, top)}
        if named - {None, reading.target}:
            return replace(reading, status=UNSURE, target=None, why="aim")
        return reading

    def _resting_mm(self, k: int) -> float:
        """How high wand ``k``'s bead centre is when the bead rests on a token."""
        return self.paints[k].bead_radius_mm + self.cfg.pointing.touch_lift_mm

    def _hover_mm(self, k: int) -> float:
        """The highest wand ``k``'s bead centre is in a hover over a token; above it, the tip is held up."""
        return self._resting_mm(k) + self.cfg.pointing.hover_height_mm

    def _highest_mm(self, axis: WandAxis) -> float:
        """The highest the wand's tip bead can be for how big it looks (``under_tip.highest_for_bead``)."""
        return highest_for_bead(self.geo, axis, self.paints[axis.strength].bead_radius_mm, self.cfg.pointing)

    def _tap_wobble_mm(self) -> float:
        """``TAP_WOBBLE_PX`` at the table's scale."""
        return TAP_WOBBLE_PX / self.geo.px_per_mm(0.0)

    def _at_rim(self, axis: WandAxis, candidates: Sequence[Candidate], touching: bool | None,
                tip: TipReading) -> TipReading:
        """A whole tip just past one token's edge and short of its place's wobble (``TAP_WOBBLE_PX``)
        is over that token when every other token stays ``neighbour_margin_mm`` further off: the token
        lies where the finger meant, not where it landed. A tip near two tokens stays between them, and
        so does one whose switch is open and whose bead may be higher than a hover, unless its line from
        up there names that token too."""
        p = self.cfg.pointing
        bead_mm = self.paints[axis.strength].bead_radius_mm
        heights = hover_heights(self.geo, axis, bead_mm, p, touching)
        if not len(heights):
            return tip
        rim = over_which(self.geo.at_height(axis.tip_px, heights)[:, :2], candidates, p, self._tap_wobble_mm())
        if rim.status != OVER:
            return tip
        if not touching and axis.back_px is not None:
            # Held up beside the token, aimed at another, the wand's line names that one from some range
            # of tip heights (resting, a hover, higher, any): then the rim says nothing.
            resting, hover = self._resting_mm(axis.strength), self._hover_mm(axis.strength)
            spans = ((resting, resting), (resting, hover), (hover, p.max_height_mm), (resting, p.max_height_mm))
            if {self._line_names(axis, candidates, low, high) for low, high in spans} - {None, rim.token}:
                return tip
            top = self._highest_mm(axis)
            if touching is False and top >= hover and self._line_names(axis, candidates, hover, top) != rim.token:
                # The switch says the bead is off the token and its size lets it be higher than a hover:
                # a tip seen past a token's edge is then as likely a wand held high and aimed past it as
                # a finger's wobble. In the development distance set such rims were read as the wrong
                # token 4 times in 18, every one with no line from up there naming the rim's token;
                # asked, the blinking wand is touched down by its player.
                return tip
        return rim

    def _from_afar(self, axis: WandAxis, candidates: Sequence[Candidate]) -> TokenScores:
        """A tip over no token: read by where the wand points, nothing under the tip to confirm it. The
        aim is allowed ``AFAR_AIM_WAVER`` times its usual waver here, so that a wand held high between
        two neighbours is asked rather than named after the nearer line (the lines a light touch is
        judged by keep the usual allowance: widening those asked right readings on the development
        tables)."""
        p = self.cfg.pointing
        wide = p.model_copy(update={"aim_sigma_deg": p.aim_sigma_deg * AFAR_AIM_WAVER})
        return score_tokens(self.geo, axis, candidates_from(candidates), wide,
                            self.paints[axis.strength].bead_radius_mm)

    def _placed_reading(self, axis: WandAxis, candidates: Sequence[Candidate], touching: bool | None) -> WandReading:
        """A tip hidden under a fist, placed from its band and shaft: read only when its switch says it
        rests (its places are then at a resting bead's height) and exactly one token lies within reach
        of where it can be; else asked, as hidden."""
        assert axis.spread_px is not None
        if not touching:
            return _asked(axis, TipReading(CLEAR, None, None, 0.0), "hidden")
        rest_mm = self._resting_mm(axis.strength)
        tip = over_any(self.geo.on_plane(axis.spread_px, rest_mm)[:, :2], candidates, self.cfg.pointing)
        return _over(axis, tip) if tip.status == OVER else _asked(axis, tip, "hidden")

    def _lost_reading(self, axis: WandAxis, candidates: Sequence[Candidate]) -> WandReading:
        """A wand lost under a fist (``vision.lost_tip``): asked as hidden, whatever its switch says, the
        token it was heading for offered first."""
        assert axis.back_px is not None
        rest_mm = self._resting_mm(axis.strength)
        low, high = seen_segment(self.geo, axis.tip_px, rest_mm)
        heading = low - self.geo.on_plane(axis.back_px[None], rest_mm)[0, :2]
        first, second = (likeliest(low, high, heading, candidates) + [None, None])[:2]
        return _asked(axis, TipReading(BETWEEN, first, second, 0.0), "hidden")

    def _aimed_past(self, axis: WandAxis, candidates: Sequence[Candidate], tip: TipReading) -> WandReading:
        """A tip over a token with its switch open: a hover a little above that token, a touch too light
        to close the switch (a shallow wand pressed lightly pushes little along itself), or a wand aimed
        past it at another token from afar. The token under the tip, unless the wand's line clearly
        names another token from a tip held higher than a hover, as high as the bead's size allows,
        passing within two aim wavers of its middle (``AIMED_WITHIN``), and names no token at all with
        the bead resting where it is seen: then asked. (A line that only grazes the token it names is
        what a hover leaning back shows: on the development tables asking those cost natural hovers the
        camera alone read right, and caught no wand aimed from afar.)

        An open switch is weak evidence, never a veto: alone it changes nothing (the camera alone reads
        the token under the tip, as the table card asks). Any wand's line, its tip taken high enough,
        meets the table somewhere else, so that alone says nothing. A wand whose line clearly names a
        token with its bead resting (pointing into the token under it, or along the table at another
        as a wand leaning back does) fits the table card's pose, its touch too light to click; only a
        line that fits no resting bead but names a token from high up is a wand aimed from afar. (On
        the development tables the former reading, which asked whenever the line named another token
        from low and high tips alike, asked such resting wands more often than it caught wands aimed
        from afar.) A tip that cannot be higher than a hover (the bead's size) means the token under it
        by the table card, and a tip seen without any line is read as that token too."""
        top = self._highest_mm(axis)
        resting, above_hover = self._resting_mm(axis.strength), self._hover_mm(axis.strength)
        if top < above_hover or axis.back_px is None:
            return _over(axis, tip)
        if self._line_names(axis, candidates, resting, resting) is not None:
            # Unless the line, the bead taken resting, passes every token more than one aim waver off its
            # middle while, taken higher than a hover, it runs within one waver of another token's middle:
            # a resting wand's line is aimed at nothing and seldom runs so true from high up, and the
            # line that named a token resting only dived into the table short of it (a wand 6 cm over one
            # token aimed at another 15 cm on, read as a light touch leaning along the table). Then the
            # evidence does not single out the token under the tip, and the wand is asked.
            through = self._line_names(axis, candidates, above_hover, top, AIMED_AT)
            if through is None or through == tip.token or self._best_aim(axis, candidates, resting) >= AIMED_AT:
                return _over(axis, tip)
            return _asked(axis, tip, "lifted")
        aimed = self._line_names(axis, candidates, above_hover, top, AIMED_WITHIN)
        return _asked(axis, tip, "lifted") if aimed is not None and aimed != tip.token else _over(axis, tip)

    def _best_aim(self, axis: WandAxis, candidates: Sequence[Candidate], height: float) -> float:
        """The highest aim likelihood any token gets from the wand's line with its tip ``height`` mm up."""
        aimed = aim_scores(self.geo, axis, candidates, self.cfg.pointing, height, height)
        return max(aimed.scores.values(), default=0.0)

    def _line_names(self, axis: WandAxis, candidates: Sequence[Candidate], lowest: float, highest: float,
                    through: float = 0.0) -> str | None:
        """The token the wand's line clearly names with its tip from ``lowest`` to ``highest`` mm up;
        ``through``: the least aim likelihood the line must reach at that token (0: any, so long as no
        other token comes near)."""
        aimed = aim_scores(self.geo, axis, candidates, self.cfg.pointing, lowest, highest)
        line = verdict(axis.strength, aimed, self.cfg.decide, axis.source) if aimed.scores else None
        if line is None or line.status != TARGET or line.target is None or aimed.scores[line.target] < through:
            return None
        return line.target

    def casting(self, cue_at: float, wands: Sequence[int], candidates: Iterable[Candidate | Mapping[str, Any]],
                tips: TipSwitches | None = None, watch: CastingWatch | None = None) -> Casting:
        """A casting that started at ``cue_at`` (frames' clock) with these wands and legal targets;
        ``tips``: the wands' tip switches, asked when each wand is read (None: no switches); ``watch``:
        told every wand's reading frame by frame, and unsure wands waited for (``vision.decide``)."""
        chosen = candidates_from(candidates)
        if tips is None:
            return Casting(cue_at, list(wands), self.cfg.decide, lambda axis: self.read(axis, chosen), watch=watch)
        heard = HeardSwitches(tips, list(wands), self.cfg.decide.settle_ms / 1000, self.stuck_switches)
        return Casting(cue_at, list(wands), self.cfg.decide,
                       lambda axis: self.read(axis, chosen, heard.touching(axis.strength)), watch, heard.hear,
                       lambda k: heard.touching(k) is True)


def _over(axis: WandAxis, tip: TipReading) -> WandReading:
    """The token under the tip."""
    return WandReading(axis.strength, TARGET, tip.token, 1.0, tip.runner_up, {}, axis.source, tip.token)


def _asked(axis: WandAxis, tip: TipReading, why: str) -> WandReading:
    """Unsure (``why``: one of ``vision.decide.WHY``), offering the token nearest the tip first."""
    return WandReading(axis.strength, UNSURE, None, 0.0, tip.runner_up, {}, axis.source, tip.token, why)


def hand_tracker() -> object | None:
    """MediaPipe hands as the pipeline runs them: one view, asked only when a band is hidden."""
    try:
        from vision.hands import HandsConfig, LegacyHands
    except ImportError:
        return None
    return LegacyHands(HandsConfig(views=("plain",), look_behind=False, static_image_mode=False))


def open_pipeline(config_path: Path | None = None, hands: object | None = None,
                  profile_path: Path | None = None) -> Pipeline:
    """The pipeline for the real table: the configuration, then the profile (camera, table, wands'
    paints) at ``profile_path`` or where the configuration names it."""
    cfg = load_config(config_path)
    try:
        profile = load_profile(profile_path or cfg.calibration_file)
    except ProfileError as e:
        raise UncalibratedTable(f"{e} (Incanto must know where the camera and the table are before it "
                                f"can see who points where)") from None
    return Pipeline(profile, cfg, hands)


def read_casting(pipeline: Pipeline, source: FrameSource, cue_at: float, wands: Sequence[int],
                 candidates: Iterable[Candidate | Mapping[str, Any]], max_frames: int = 300,
                 tips: TipSwitches | None = None, watch: CastingWatch | None = None) -> CastingResult | None:
    """Read frames until the casting is decided; None if the source ends first. Frames from before the
    cue show the table as it was. ``tips``: the wands' tip switches (None: the camera alone); ``watch``:
    told each wand's reading after every frame, and a casting so watched waits for its unsure wands
    until ``give_up_ms`` (the table side lights the wands' LEDs from it)."""
    casting = pipeline.casting(cue_at, wands, candidates, tips, watch)
    frozen = False
    for _ in range(max_frames):
        frame = source.read()
        if frame is None:
            return None
        if frame.t < cue_at:
            pipeline.see_table(frame)
            continue
        if not frozen:
            pipeline.freeze_table()
            frozen = True
        result = casting.observe(frame.t, pipeline.look(frame).axes)
        if result is not None:
            return result
    return None

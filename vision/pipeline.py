"""The recipe: from a camera frame to who pointed at which token.

    frame --find_wands--> tip bead + band per wand (hue says which wand)
          --wand_axis---> axis from the band, else the gripping hand, else the tip alone
          --score_tokens> every legal token scored (hover convention first, aim from afar second)
          --Casting-----> settle window after the cue, then target / unsure / missing per wand
          --proposal----> {"type": "cast", ...} for the rules engine

Undistortion is applied to the few marker points, not to the whole image. Every threshold comes from
``vision.config``; the calibration file named there says where the camera and the table are.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from collections.abc import Sequence

import numpy as np

from vision.profile import ProfileError, load_profile
from vision.axis import WandAxis, wand_axis
from vision.config import VisionConfig, load_config
from vision.decide import Casting, CastingResult
from vision.frames import Frame, FrameSource
from vision.markers import WandSighting, find_wands, shaft_direction
from vision.scoring import TokenScores, score_tokens
from vision.table_geometry import Calibrated, TableGeometry, UncalibratedTable

__all__ = ["Pipeline", "FrameView", "open_pipeline", "read_casting", "hand_tracker", "UncalibratedTable"]


@dataclass(frozen=True)
class FrameView:
    """What one frame showed: sightings and axes by wand strength."""

    frame: Frame
    sightings: dict[int, WandSighting]
    axes: dict[int, WandAxis]


class Pipeline:
    """Calibration + configuration + (optionally) a hand tracker; refuses an uncalibrated table."""

    def __init__(self, calibration: Calibrated, config: VisionConfig | None = None, hands: object | None = None) -> None:
        self.geo = TableGeometry(calibration)
        self.cfg = config or load_config()
        self.hands = hands
        self._hands_seen: tuple[int, list] = (-10**9, [])
        m, p = self.cfg.markers, self.cfg.pointing
        self.bead_scale = self.geo.px_per_mm(0.0)
        # The band can be no farther from the bead than a wand held high, seen side-on.
        self.band_reach_px = 1.25 * m.band_from_tip_mm * self.geo.px_per_mm(p.max_height_mm + m.band_from_tip_mm)
        self.hand_reach_px = 1.25 * self.cfg.hands.max_tip_distance_mm * self.geo.px_per_mm(p.max_height_mm)

    def find(self, image_bgr: np.ndarray) -> dict[int, WandSighting]:
        """The wand stage: (H,W,3) uint8 BGR -> sightings by strength."""
        return find_wands(image_bgr, self.cfg.markers, self.bead_scale, self.band_reach_px)

    def look(self, frame: Frame, sightings: dict[int, WandSighting] | None = None) -> FrameView:
        """Sightings (found unless given) and axes for one frame; the hand tracker runs only when a band
        is hidden, and at most every ``hands.every_n_frames`` frames (it costs far more than the wand stage)."""
        sightings = self.find(frame.image) if sightings is None else sightings
        hands = self._hands(frame, sightings)
        axes = {k: wand_axis(s, self.cfg.markers, hands, self.cfg.hands, self.hand_reach_px, self._shaft(frame, s))
                for k, s in sightings.items()}
        return FrameView(frame, sightings, axes)

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

    def score(self, axis: WandAxis, candidates: list[dict]) -> TokenScores:
        return score_tokens(self.geo, axis, candidates, self.cfg.pointing, self.cfg.markers.bead_radius_mm)

    def casting(self, cue_at: float, wands: Sequence[int], candidates: list[dict]) -> Casting:
        """A casting that started at ``cue_at`` (frames' clock) with these wands and legal targets."""
        _check_candidates(candidates)
        return Casting(cue_at, list(wands), self.cfg.decide, lambda axis: self.score(axis, candidates))


def _check_candidates(candidates: list[dict]) -> None:
    for c in candidates:
        missing = {"id", "x_mm", "y_mm", "radius_mm"} - set(c)
        if missing:
            raise ValueError(f"candidate token {c!r} lacks {sorted(missing)!r}")


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
                 candidates: list[dict], max_frames: int = 300) -> CastingResult | None:
    """Read frames until the casting is decided; None if the source ends first."""
    casting = pipeline.casting(cue_at, wands, candidates)
    for _ in range(max_frames):
        frame = source.read()
        if frame is None:
            return None
        result = casting.observe(frame.t, pipeline.look(frame).axes)
        if result is not None:
            return result
    return None

"""The overhead camera and the table's calibration, as the status page and a reading need them.

The camera is watched (``vision.sources.CameraWatch``): unplugged, it says so and is tried again, and
the night goes on with castings entered on the tablet. Frames go into a short ring so a reading can
start from the cue. Without a calibrated table there is no pipeline, and the status names the
calibration command to run.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from collections.abc import Callable
from typing import Self

from calibration.drift import MarkerWatch, watch_for
from calibration.model import CalibrationError
from calibration.status import default_path, load_if_present, require_table
from companion.status import CALIBRATION_FIX, ERROR, OFF, OK, StatusBoard
from companion.tableside.ring import FrameRing, RingSource
from companion.threads import Background
from vision.config import ConfigError, load_config
from vision.paints import documented_paints
from vision.frames import FrameSource
from vision.pipeline import Pipeline
from vision.sources import CameraStatus, CameraWatch, open_source

log = logging.getLogger("incanto.tableside")
IDLE_S = 0.05  # between attempts while the camera is missing (CameraWatch paces the reopening)

Opener = Callable[[], FrameSource]


class TableCamera(Background):
    """``spec``: an ``open_source`` spec or "none"; ``opener`` replaces ``open_source(spec)`` (the
    demo's rendered table). ``pipeline`` is None until the table is calibrated."""

    def __init__(self, spec: str, status: StatusBoard, calibration: Path | None = None,
                 vision_config: Path | None = None, *, opener: Opener | None = None,
                 ring: FrameRing | None = None, hands: bool = False) -> None:
        super().__init__("camera", join_s=3)
        self.spec, self.status = spec, status
        self.calibration_path = Path(calibration) if calibration else default_path()
        self.vision_config = vision_config
        self.opener = opener or (lambda: open_source(spec))
        self.ring = ring or FrameRing()
        self.pipeline: Pipeline | None = None
        self.hands = hands
        self._tracker: object | None = None
        self.markers: MarkerWatch | None = None  # now and then: are the table's markers where calibrated?
        # One reading or swap check at a time: the pipeline keeps per-frame state (and MediaPipe's).
        self.pipeline_lock = threading.Lock()
        self.watch: CameraWatch | None = None

    # -- life cycle --------------------------------------------------------------------------

    def start(self) -> Self:
        self.pipeline = self._calibrated_pipeline()
        if self.spec == "none":
            self.status.report("camera", OFF, "no camera (started with --camera none): castings are entered on "
                                              "the tablet", "start with --camera picamera2 or --camera camera:0",
                               words=("status.camera.none", {}), fix_words=("status.camera.none_fix", {}))
            return self
        return super().start()

    def stop(self) -> None:
        super().stop()
        if self._tracker is not None:
            self._tracker.close()  # type: ignore[attr-defined]

    def _run(self) -> None:
        self.watch = CameraWatch(self.opener, "camera", on_change=self._camera_changed)
        self._camera_changed(self.watch.status)
        try:
            while not self._stop.is_set():
                frame = self.watch.read()
                if frame is None:
                    self._stop.wait(IDLE_S)
                else:
                    self.ring.add(frame)
                    if self.markers is not None:
                        self.markers.look(frame.image, frame.t)
        finally:
            self.watch.close()

    # -- what a reading needs ----------------------------------------------------------------

    @property
    def sees(self) -> bool:
        return self.watch is not None and self.watch.status.state == "ok"

    def why_blind(self) -> str | None:
        """Why no casting can be read now, in the table's words; None when one can."""
        if self.spec == "none":
            return "there is no camera"
        if self.pipeline is None:
            return "the table is not calibrated"
        if not self.sees:
            return "the camera is not sending pictures"
        return None

    def frames_since(self, t: float, timeout_s: float) -> RingSource:
        return self.ring.since(t, timeout_s)

    # -- status ------------------------------------------------------------------------------

    def _camera_changed(self, camera: CameraStatus) -> None:
        self.status.report("camera", camera.level, camera.message, camera.fix,
                           {"spec": self.spec, "state": camera.state}, words=(f"status.camera.{camera.state}", {}),
                           fix_words=("device.camera.fix", {}) if camera.fix else None)

    def _calibrated_pipeline(self) -> Pipeline | None:
        path = self.calibration_path
        try:
            calibration = require_table(path)
            # The calibration file has no learned paints yet: the documented ones stand in for them.
            pipeline = Pipeline(calibration, load_config(self.vision_config), self._hand_tracker(),
                                paints=getattr(calibration, "wands", None) or documented_paints())
        except CalibrationError as e:
            self.status.report("calibration", ERROR, f"{e}; castings are entered on the tablet until then",
                               CALIBRATION_FIX, {"file": str(path), "step": self._calibration_step()},
                               words=("status.calibration.missing", {}))
            return None
        except ConfigError as e:
            self.status.report("calibration", ERROR, f"vision settings: {e}",
                               f"correct that setting in {str(self.vision_config)!r}")
            return None
        self.markers = watch_for(calibration, self.status.report)
        self.status.report("calibration", OK, f"table calibrated ({str(path)!r}), camera "
                                              f"{pipeline.geo.height_mm / 1000:.2f} m above it",
                           "run the table step again whenever the camera or the table moves", {"file": str(path)},
                           words=("status.calibration.ok", {"height": f"{pipeline.geo.height_mm / 1000:.2f}"}),
                           fix_words=("status.calibration.ok_fix", {}))
        return pipeline

    def _hand_tracker(self) -> object | None:
        """MediaPipe hands, which the pipeline asks only when a wand's band is hidden; None without them."""
        if not self.hands or self.spec == "none":
            return None
        try:
            from vision.hands import HandsConfig
            from vision.hands.legacy import LegacyHands
            self._tracker = LegacyHands(HandsConfig(views=("plain",), look_behind=False, static_image_mode=False))
        except Exception as e:  # noqa: BLE001 - the wands' own markers still work without hands
            log.warning("no hand tracker (%s): a wand whose band is hidden is read from its tip alone", e)
        return self._tracker

    def _calibration_step(self) -> str:
        """The calibration page's step to open (the status page links to it): the table's when the camera
        is measured already, else the camera's."""
        try:
            known = load_if_present(self.calibration_path)
        except CalibrationError:
            known = None
        return "table" if known is not None else "camera"

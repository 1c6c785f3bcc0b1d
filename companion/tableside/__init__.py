"""The table side: the devices at a real table wired to the engine and the display.

    with TableSide(table, status, TableSideConfig(hub="auto", camera="picamera2", mic=True)) as side:
        ...  # the night: cues lead to readings, readings to proposals or questions

Each device sits behind its own module (``hub``, ``cue``, ``camera``) and reports to the one shared
``StatusBoard`` what is happening and what to do about it; none of them can stop the night. A cue from
any source starts the casting reading (``reading``); a casting with swaps is checked at the table
(``swap``).
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from companion.cue import Cue
from companion.status import StatusBoard
from companion.tableside.camera import Opener, TableCamera
from companion.tableside.config import TableSideConfig, TableSideError
from companion.tableside.cue import CueInputs
from companion.tableside.hub import WandHub
from companion.tableside.notices import Notices, Publish
from companion.tableside.places import TablePlaces, load_places
from companion.tableside.reading import CastingReader, Reading
from companion.tableside.swap import SwapWatch
from companion.tableside.table import Table

__all__ = ["TableSide", "TableSideConfig", "TableSideError", "Reading", "TablePlaces", "Table"]

if TYPE_CHECKING:  # gpiozero loads only when the buttons are on the Pi's pins
    from gpiozero.pins import Factory

log = logging.getLogger("incanto.tableside")


class TableSide:
    """``table``: the table played at (the display's, handed in by ``companion.night_at_the_table``).
    ``publish``: the display's push (for
    notices); ``opener``: the camera's back-end when it is not ``open_source(config.camera)``;
    ``microphone`` and ``gpio_factory``: the sound and pin back-ends, for the simulated table."""

    def __init__(self, table: Table, status: StatusBoard, config: TableSideConfig = TableSideConfig(), *,
                 publish: Publish | None = None, opener: Opener | None = None,
                 microphone: Callable[[], Any] | None = None, gpio_factory: Factory | None = None) -> None:
        self.table, self.status, self.config = table, status, config
        self.notices = Notices(publish)
        self.places = load_places(config.places)
        self.camera = TableCamera(config.camera, status, config.calibration, config.vision_config, opener=opener,
                                  hands=config.hands)
        self.swaps = SwapWatch(table, self.camera, self.places, status, self.notices,
                               after_s=config.swap_check_after_s, recheck_s=config.swap_recheck_s,
                               give_up_s=config.swap_give_up_s)
        buttons = "the tablet" if config.hub == "none" else "the cue button or the tablet"
        mic_kw = {"microphone": microphone} if microphone is not None else {}
        self.cue = CueInputs(status, self.on_cue, mic=config.mic, templates=config.cue_templates, notices=self.notices,
                             buttons=buttons, table=table, **mic_kw)
        self.hub = WandHub(config.hub, status, self.cue.heard, self.notices, table, gpio_factory=gpio_factory,
                           tip_switches=config.tip_switches)
        # The casting reading asks the hub's tip switches whether each tip is down (vision.touch), and
        # tells the hub as it reads: the wands' LEDs follow it, the switches' record is kept.
        self.reader = CastingReader(table, self.camera, self.places, self.notices, tips=self.hub.tips,
                                    watcher=self.hub, record=config.record)
        self._started: list[Any] = []

    def on_cue(self, cue: Cue) -> None:
        """Every cue, whatever gave it: the swap of the last casting is done with, this one is read."""
        log.info("cue from %s at %.3f", cue.source, cue.t_end)
        self.swaps.on_cue()
        self.reader.on_cue(cue)

    def tablet(self) -> Cue:
        """The tablet's cue button: the cue is now."""
        return self.cue.tablet()

    def dismiss(self, cue_id: int) -> str | None:
        """The tablet's Not a cue button for spoken cue ``cue_id``: the cue is counted as false, and the
        question its reading opened is named for withdrawal if that reading is still the latest."""
        cue = self.cue.dismiss(cue_id)
        last = self.reader.last
        if last is not None and last.outcome == "asked" and self.cue.was_last(cue):
            return last.question_id
        return None

    def start(self) -> TableSide:
        for device in (self.camera, self.cue, self.hub, self.swaps):
            device.start()
            self._started.append(device)
        return self

    def stop(self) -> None:
        self.reader.close()  # the last casting's answer, if the table gave it
        while self._started:
            device = self._started.pop()
            try:
                device.stop()
            except Exception:  # one device failing to stop must not keep the others running
                log.exception("stopping %r failed", device)

    def __enter__(self) -> TableSide:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

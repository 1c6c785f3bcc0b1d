"""Faults at the table: the wand hub unplugged in the middle of a race, the camera lost in the middle
of a casting. Real bytes through a socat pty to the simulated hub's firmware; the rendered table as
the camera, behind a plug that can be pulled."""
from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from companion.cue import Cue
from companion.inputs.ptypair import PtyPair
from companion.inputs.simhub import SimHub
from companion.status import StatusBoard
from companion.tableside import TableSide, TableSideConfig
from companion.tableside.hub import WandHub
from companion.tableside.notices import Notices
from companion.night_at_the_table.rendered import RenderedTable
from companion.web.table import Table
from vision.frames import Frame

from .conftest import casts, device, wait_for

TARGETS = {"Lera": "r1", "Kirill": "r4", "Katya": "r6", "Rosa": "r6"}


def test_the_hub_unplugged_mid_race_still_names_the_first_by_hub_time(sim: SimHub, pty_pair: PtyPair,
                                                                      status: StatusBoard, table: Table) -> None:
    notices = Notices()
    wands = WandHub(str(pty_pair.host_end), status, lambda cue: None, notices, table).start()
    try:
        assert wait_for(lambda: (device(status, "hub") or {}).get("level") == "ok"), status.snapshot()
        assert wands.link is not None
        wands.link.arm(5, order=(1, 2, 3, 4))
        assert wait_for(lambda: notices.recent("race_armed"))
        pty_pair.unplug()  # the cable comes out while the players reach for their buttons
        assert wait_for(lambda: (device(status, "hub") or {}).get("level") == "error"), status.snapshot()
        sim.tap(3)  # Katya first, then Kirill: the hub judges by its own clock, cable or not
        sim.tap(2)
        assert notices.recent("race") == []  # nothing is announced while the hub cannot be heard
        pty_pair.replug()
        assert wait_for(lambda: notices.recent("race")), status.snapshot()
        assert wait_for(lambda: (device(status, "hub") or {}).get("level") == "ok"), status.snapshot()
        (race,) = notices.recent("race")
        assert race["message"] == "Katya (wand 3) was first"
        assert device(status, "hub")["details"]["lines_lost"] == 0
        assert [n["wand"] for n in notices.recent("early_press")] == []
    finally:
        wands.stop()


class Plug:
    """The camera seam with a cable: while pulled, reading fails as a vanished USB camera does."""

    def __init__(self, camera: RenderedTable) -> None:
        self.camera = camera
        self.pulled = threading.Event()

    def read(self) -> Frame | None:
        if self.pulled.is_set():
            raise OSError("camera vanished (USB disconnected)")
        return self.camera.read()

    def close(self) -> None:
        self.camera.close()

    def open(self) -> Plug:
        """What the camera watch calls to open the camera again: fails while the cable is out."""
        if self.pulled.is_set():
            raise OSError("no camera on that USB port")
        return self


def test_the_camera_lost_mid_casting_asks_the_players_on_the_tablet(
        make_side: Callable[..., TableSide], rendered: RenderedTable, calibration: Path, table: Table,
        status: StatusBoard) -> None:
    plug = Plug(rendered)
    side = make_side(TableSideConfig(hub="none", camera="render", calibration=calibration),
                     opener=plug.open)
    assert wait_for(lambda: side.camera.sees), status.snapshot()
    version = table.view()["version"]
    wands = table.view()["wands"]
    start = rendered.point({wands[p]: t for p, t in TARGETS.items()})
    plug.pulled.set()  # the camera is lost as the wands move: no picture of the casting
    reading = side.reader.read(Cue("hub", start))
    assert reading.outcome == "asked", reading
    assert table.view()["version"] == version and casts(table) == []  # nothing guessed
    (question,) = table.questions.open()
    legal = table.view()["legal"]["targets"]
    assert question["unsure"] == {p: legal[p] for p in TARGETS}  # every wand, with every target it may take
    assert set(question["why"].values()) == {"the camera sent no pictures"}
    assert wait_for(lambda: (device(status, "camera") or {}).get("level") in ("warning", "error"))
    table.answer(question["id"], TARGETS, None)  # one tap per wand on the tablet
    assert casts(table) == [{"type": "cast", "targets": TARGETS}]

"""During play: markers where the table step saw them are fine; a bumped camera or a shifted table is
reported to the status board in words; markers hidden by hands are no alarm, but are named."""
from __future__ import annotations

import time

import numpy as np
import pytest

from calibration.drift import DEVICE, MarkerWatch, check_markers
from calibration.profiles import save
from calibration.steps import find_table
from calibration.table import DEFAULT_LAYOUT, find_markers, solve_table_pose
from companion import words
from companion.status import StatusBoard
from vision.frames import Frame
from vision.profile import CameraIntrinsics, ImageSize, Profile

from .scenes import CAMERA, LAYOUT, rendered_table
from .synthetic import above

INTRINSICS = CameraIntrinsics(fx=CAMERA.fx, fy=CAMERA.fy, cx=CAMERA.cx, cy=CAMERA.cy)
MOUNT = ((500.0, 420.0), 1000.0, (10.0, 2.0, -3.0))


@pytest.fixture(scope="module")
def pose():  # type: ignore[no-untyped-def]
    """The table step's pose, found on the picture of the mounted camera."""
    r, t = above(*MOUNT)
    return solve_table_pose(find_markers(rendered_table(r, t), LAYOUT.dictionary), LAYOUT, INTRINSICS).pose


def test_markers_in_place_pass(pose) -> None:  # type: ignore[no-untyped-def]
    check = check_markers(rendered_table(*above(*MOUNT)), INTRINSICS, pose, LAYOUT)
    assert check.level == "ok" and not check.moved and sorted(check.shifts_px) == [0, 1, 2, 3]
    assert max(check.shifts_px.values()) < 1.5


@pytest.mark.parametrize("bump", [
    ((515.0, 420.0), 1000.0, (10.0, 2.0, -3.0)),  # the table pushed 15 mm
    ((500.0, 420.0), 1000.0, (11.5, 2.0, -3.0)),  # the camera turned 1.5 degrees on its mount
    ((500.0, 420.0), 1000.0, (10.0, 3.5, -3.0)),  # the camera tipped 1.5 degrees
])
def test_a_moved_camera_or_table_is_seen(pose, bump) -> None:  # type: ignore[no-untyped-def]
    check = check_markers(rendered_table(*above(*bump)), INTRINSICS, pose, LAYOUT)
    assert check.level == "warning" and check.moved_table
    message, fix = check.words(LAYOUT)
    assert message.startswith("the camera or the table moved") and "calibration page's table step" in fix
    assert message.words["key"] == "device.markers.moved" and message.words["values"]["markers"]  # type: ignore[attr-defined]


def test_hidden_markers_are_no_alarm_until_too_few_are_seen(pose) -> None:  # type: ignore[no-untyped-def]
    r, t = above(*MOUNT)
    one_hidden = check_markers(rendered_table(r, t, covered=(3,)), INTRINSICS, pose, LAYOUT)
    assert one_hidden.level == "ok" and one_hidden.hidden == [3]
    most_hidden = check_markers(rendered_table(r, t, covered=(0, 1, 3)), INTRINSICS, pose, LAYOUT)
    assert most_hidden.level == "off" and not most_hidden.moved_table
    message = most_hidden.words(LAYOUT)[0]
    assert "; 3 (far left, beyond the books) are not visible: are they covered?" in message
    assert message.words["key"] == "device.markers.hidden"  # type: ignore[attr-defined]
    # Where each marker lies is the layout file's description, in the tablet's language.
    assert words.fill("{m}", {"m": message.words["values"]["markers"]}, "en").startswith(  # type: ignore[attr-defined]
        "0 (near left, in front of the sorcerer row); 1 (")
    assert words.fill("{m}", {"m": message.words["values"]["markers"]}, "de").startswith(  # type: ignore[attr-defined]
        "0 (vorne links, vor der Zaubererreihe); 1 (")


def test_the_status_board_hears_of_a_moved_table_once_and_of_its_return(pose) -> None:  # type: ignore[no-untyped-def]
    board = StatusBoard()
    watch = MarkerWatch(INTRINSICS, pose, LAYOUT, board.report, every_s=10.0)
    still, bumped = rendered_table(*above(*MOUNT)), rendered_table(*above((520.0, 410.0), 1000.0, MOUNT[2]))
    heard: list[str] = []
    board.subscribe(lambda s: heard.append(s.level))
    assert watch.look(still, 0.0) is not None
    assert watch.look(bumped, 5.0) is None  # not yet time to look again
    watch.look(bumped, 10.0)
    watch.look(bumped, 20.0)  # the same verdict is not said twice
    device = next(d for d in board.snapshot() if d["device"] == DEVICE)
    assert device["level"] == "warning" and "moved" in device["message"] and "table step" in device["fix"]
    # Said on a German tablet in its own words; the fix links the calibration page's table step.
    assert device["words"]["key"] == "device.markers.moved" and device["fix_words"]["key"] == "device.markers.moved_fix"
    assert device["details"] == {"step": "table"}
    watch.look(still, 30.0)
    assert heard == ["ok", "warning", "ok"]
    assert np.isfinite(list(watch.last.shifts_px.values())).all()  # type: ignore[union-attr]


class Replay:
    """Pictures as a camera sends them during play, eleven seconds apart in the frames' own time."""

    def __init__(self, images: list[np.ndarray]) -> None:
        self.images, self.n = images, 0

    def read(self) -> Frame | None:
        if self.n >= len(self.images):
            return None
        self.n += 1
        return Frame(self.images[self.n - 1], 11.0 * self.n, self.n)

    def close(self) -> None:
        pass


def test_during_play_the_table_camera_reports_a_bumped_camera(cal_path) -> None:  # type: ignore[no-untyped-def]
    from companion.tableside.camera import TableCamera

    still, bumped = rendered_table(*above(*MOUNT)), rendered_table(*above((520.0, 410.0), 1000.0, MOUNT[2]))
    save(Profile(image=ImageSize(width=640, height=480), camera=INTRINSICS), cal_path)
    find_table(cal_path, still, DEFAULT_LAYOUT)
    board, heard = StatusBoard(), []
    board.subscribe(lambda s: heard.append((s.level, s.message)) if s.device == DEVICE else None)
    camera = TableCamera("replay", board, calibration=cal_path, opener=lambda: Replay([still, still, bumped, bumped]))
    camera.start()
    try:
        deadline = time.monotonic() + 20
        while len(heard) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        camera.stop()
    assert [level for level, _ in heard] == ["ok", "warning"]
    assert heard[1][1].startswith("the camera or the table moved")


def test_the_bench_sees_a_pushed_table_and_no_ghost_on_a_rendered_table() -> None:
    from calibration.bench import run

    figures = run([6100001])
    assert figures["table_found"] == 1 and figures["refusals"] == []
    assert figures["moved_false_alarms"] == 0 and figures["pushed_10mm_seen"] == 1 and figures["turned_1deg_seen"] == 1
    assert figures["place_error_mm_max"] < 15.0  # within a token's radius: the tap lands the right place

"""Camera intrinsics: OpenCV's own chessboard photos against its published result, ChArUco on a
real photo and on rendered views of known intrinsics, and the command line."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.__main__ import main
from calibration.boards import Charuco, Chessboard, parse_board
from calibration.camera import calibrate_camera, charuco_view
from calibration.profiles import load

from .conftest import ARUCO, CHESSBOARD
from .synthetic import Pinhole, rotation

# OpenCV's calibration sample on the same 13 left images, fixed aspect ratio (flags = 2).
# Our run uses the same photos, board and model, so only corner refinement differs between the
# two: it moves the per-view errors by under 0.1 px, which moves fx by well under 0.5 % and the
# principal point by well under 2 px. (OpenCV's stereo result for the same camera, with another
# distortion model, differs by 6.6 px in cx: that is the model, not the measurement.)
FX_TOLERANCE = 0.005
CENTRE_TOLERANCE_PX = 2.0
RMS_TOLERANCE_PX = 0.05


@pytest.fixture(scope="module")
def reference() -> dict[str, np.ndarray]:
    store = cv2.FileStorage(str(CHESSBOARD / "reference" / "left_intrinsics.yml"), cv2.FILE_STORAGE_READ)
    values = {k: store.getNode(k).mat() for k in ("camera_matrix", "per_view_reprojection_errors")}
    values["avg_reprojection_error"] = np.array(store.getNode("avg_reprojection_error").real())
    store.release()
    return values


@pytest.fixture(scope="module")
def left_images() -> list[np.ndarray]:
    return [cv2.imread(str(p)) for p in sorted(CHESSBOARD.glob("left*.jpg"))]


def test_chessboard_calibration_matches_opencvs_published_result(left_images, reference) -> None:  # type: ignore[no-untyped-def]
    result = calibrate_camera(left_images, parse_board("chessboard:9x6:25"), fix_aspect=True)
    k, c = reference["camera_matrix"], result.intrinsics
    assert len(left_images) == 13 and result.used == list(range(13))
    assert c.fx == pytest.approx(k[0, 0], rel=FX_TOLERANCE) and c.fy == c.fx
    assert c.cx == pytest.approx(k[0, 2], abs=CENTRE_TOLERANCE_PX)
    assert c.cy == pytest.approx(k[1, 2], abs=CENTRE_TOLERANCE_PX)
    assert c.rms_px == pytest.approx(float(reference["avg_reprojection_error"]), abs=RMS_TOLERANCE_PX)
    per_view = reference["per_view_reprojection_errors"].ravel()
    assert np.argmax(result.per_view_rms_px) == np.argmax(per_view)  # the same photo is the worst
    assert result.per_view_rms_px == pytest.approx(per_view.tolist(), abs=0.1)


def test_the_command_saves_what_vision_loads(left_images, cal_path, capsys) -> None:  # type: ignore[no-untyped-def]
    code = main(["camera", "--cal", str(cal_path), "--images", str(CHESSBOARD / "left*.jpg"),
                 "--board", "chessboard:9x6:25", "--fix-aspect"])
    assert code == 0 and "13 of 13" in capsys.readouterr().out
    saved = load(cal_path)
    assert saved.resolution() == (640, 480) and saved.schema_ == 2
    assert saved.camera.fx == pytest.approx(535.9, rel=FX_TOLERANCE) and len(saved.camera.dist) == 5
    assert saved.table is None


def test_too_few_board_photos_are_refused(left_images) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="found in 2 of 2"):
        calibrate_camera(left_images[:2], parse_board("chessboard:9x6:25"))


def test_a_missing_glob_is_named(cal_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["camera", "--cal", str(cal_path), "--images", "/nowhere/*.jpg", "--board", "chessboard:9x6:25"]) == 2
    assert "'/nowhere/*.jpg'" in capsys.readouterr().err
    assert not cal_path.exists()


@pytest.mark.parametrize("spec,named", [
    ("chessboard:9by6:25", "'9by6'"), ("chessboard:9x6:-3", "'-3'"), ("chessboard:9x6", "'chessboard:9x6'"),
    ("charuco:5x7:40:50:DICT_6X6_250", "smaller"), ("charuco:5x7:40:20:DICT_9X9_1", "'DICT_9X9_1'"),
    ("dots:4x11:20", "'dots:4x11:20'")])
def test_bad_board_specs_are_named(spec: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        parse_board(spec)


def test_board_specs_read_as_boards() -> None:
    assert parse_board("chessboard:9x6:25") == Chessboard(9, 6, 25.0)
    assert parse_board("charuco:5x7:40:20:DICT_6X6_250") == Charuco(5, 7, 40.0, 20.0, "DICT_6X6_250")
    points = Chessboard(9, 6, 25.0).object_points()
    assert points.shape == (54, 3) and points[1].tolist() == [25.0, 0.0, 0.0] and points[9].tolist() == [0.0, 25.0, 0.0]


def test_charuco_corners_on_opencvs_photo() -> None:
    # The tutorial photo: a 5x7-square board, DICT_6X6_250, 17 markers and 24 inner corners.
    objects, pixels = charuco_view(cv2.imread(str(ARUCO / "choriginal.jpg")),
                                   parse_board("charuco:5x7:40:20:DICT_6X6_250"))  # type: ignore[arg-type,misc]
    assert len(objects) == len(pixels) == 24
    assert set(map(tuple, objects[:, :2].tolist())) == {(40.0 * i, 40.0 * j) for i in range(1, 5) for j in range(1, 7)}


def test_charuco_calibration_recovers_a_known_camera() -> None:
    camera = Pinhole(fx=610.0, fy=610.0, cx=331.0, cy=227.0)
    board = Charuco(5, 7, 30.0, 18.0, "DICT_6X6_250")
    top = cv2.copyMakeBorder(board.board().generateImage((500, 700), marginSize=0), 40, 40, 40, 40,
                             cv2.BORDER_CONSTANT, value=255)
    # Where the board's own frame (mm) lies on the flat picture, read off the picture itself.
    objects, pixels = charuco_view(top, board)  # type: ignore[misc]
    canvas_from_board, _ = cv2.findHomography(objects[:, :2], pixels)
    centre = np.array([75.0, 105.0, 0.0])
    views = []
    for tilt in [(0, 20, 0), (10, -25, 5), (-5, 0, 25), (15, 10, -20), (-20, -15, -15), (5, 30, 10)]:
        r = rotation(*tilt)  # the board faces the camera, then the camera tilts about its centre
        t = np.array([0.0, 0.0, 420.0]) - r @ centre
        image_from_board = camera.matrix() @ np.column_stack([r[:, 0], r[:, 1], t])
        h = image_from_board @ np.linalg.inv(canvas_from_board)
        views.append(cv2.warpPerspective(top, h, camera.size, flags=cv2.INTER_AREA, borderValue=90))
    result = calibrate_camera(views, board)
    assert len(result.used) == len(views)
    assert result.intrinsics.fx == pytest.approx(610.0, rel=0.01)
    assert result.intrinsics.fy == pytest.approx(610.0, rel=0.01)
    assert result.intrinsics.cx == pytest.approx(331.0, abs=4.0)
    assert result.intrinsics.cy == pytest.approx(227.0, abs=4.0)
    assert result.intrinsics.rms_px < 0.5

"""The table's marker sheet: the default layout fits a real table seen from 0.8-1.2 m, and the PNG and
PDF are true to scale (measured in the files themselves, not taken from the code that drew them)."""
from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.__main__ import main
from calibration.table import DEFAULT_LAYOUT, TableLayout, find_markers
from vision.render.camera import overhead_camera

LAYOUT = TableLayout.load(DEFAULT_LAYOUT)
PLAY_CENTRE = (500.0, 420.0)  # the room tile, where a camera over the game looks
POINTS_PER_MM = 72 / 25.4


@pytest.mark.parametrize("height_mm", [800, 1000, 1200])
@pytest.mark.parametrize("hfov_deg", [58, 66])
@pytest.mark.parametrize("tilt_dir_deg", [0, 90, 180, 270])
def test_the_default_markers_are_in_view_and_large_enough(height_mm: float, hfov_deg: float, tilt_dir_deg: float) -> None:
    # Mounted over the game, up to 4 degrees off straight down, rolled a little, 30 mm off centre.
    look_at = (PLAY_CENTRE[0] + 30, PLAY_CENTRE[1] - 30)
    camera = overhead_camera(look_at, height_mm, 4.0, tilt_dir_deg, 3.0, hfov_deg, dist=(-0.1, 0.02, 0, 0, 0))
    for marker_id in LAYOUT.markers:
        corners = camera.project(LAYOUT.corners_mm(marker_id))
        assert np.all(corners >= 0) and np.all(corners[:, 0] < 640) and np.all(corners[:, 1] < 480), marker_id
        side_px = np.linalg.norm(corners[0] - corners[1])
        assert side_px > 20, f"marker {marker_id} is only {side_px:.1f} px across: too small to read"


def test_the_default_markers_stay_clear_of_the_game() -> None:
    from companion.tableside.places import standard_places

    for marker_id, (x, y) in LAYOUT.markers.items():
        for place_id, place in standard_places().places.items():
            # the marker's half diagonal, a token's radius, and a finger's width between them
            assert np.hypot(place.x_mm - x, place.y_mm - y) > LAYOUT.marker_mm * 0.71 + place.radius_mm + 15, (marker_id, place_id)


def pdf_page_and_image(pdf: bytes) -> tuple[tuple[float, float], np.ndarray]:
    """The page size (points) and the page's one picture, decoded from the PDF's own bytes."""
    box = re.search(rb"/MediaBox \[ *0 +0 +([\d.]+) +([\d.]+) *\]", pdf)
    start = pdf.index(b"stream", pdf.index(b"/Subtype /Image")) + len(b"stream\n")
    length = int(re.search(rb"/Length (\d+)", pdf[pdf.index(b"/Subtype /Image"):]).group(1))  # type: ignore[union-attr]
    image = cv2.imdecode(np.frombuffer(pdf[start:start + length], np.uint8), cv2.IMREAD_GRAYSCALE)
    assert box is not None and image is not None
    return (float(box.group(1)), float(box.group(2))), image


def marker_sides_px(image: np.ndarray) -> dict[int, float]:
    found = find_markers(image, LAYOUT.dictionary)
    return {i: float(np.mean([np.linalg.norm(c[k] - c[(k + 1) % 4]) for k in range(4)])) for i, c in found.items()}


def test_the_pdf_is_an_a4_page_with_every_marker_at_its_true_size(tmp_path: Path) -> None:
    pdf = tmp_path / "markers.pdf"
    assert main(["sheet", "--pdf", str(pdf)]) == 0
    (w_pt, h_pt), image = pdf_page_and_image(pdf.read_bytes())
    assert w_pt / POINTS_PER_MM == pytest.approx(210.0, abs=0.5) and h_pt / POINTS_PER_MM == pytest.approx(297.0, abs=0.5)
    mm_per_px = (w_pt / POINTS_PER_MM) / image.shape[1]
    sides = marker_sides_px(image)
    assert sorted(sides) == sorted(LAYOUT.markers)
    for side in sides.values():  # a printer holds about half a millimetre; the file must do far better
        assert side * mm_per_px == pytest.approx(LAYOUT.marker_mm, abs=0.3)


def test_the_png_states_its_resolution_and_is_true_to_scale(tmp_path: Path) -> None:
    from PIL import Image

    png = tmp_path / "markers.png"
    assert main(["sheet", "--png", str(png), "--dpi", "200"]) == 0
    with Image.open(png) as picture:
        dpi = picture.info["dpi"][0]
        width_px = picture.size[0]
    assert dpi == pytest.approx(200, abs=0.01) and width_px / dpi * 25.4 == pytest.approx(210.0, abs=0.5)
    for side in marker_sides_px(cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)).values():
        assert side / dpi * 25.4 == pytest.approx(LAYOUT.marker_mm, abs=0.3)


def test_markers_too_big_for_a_page_are_refused_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.json"
    big.write_text('{"dictionary": "DICT_4X4_50", "marker_mm": 200, "markers": {"0": [0, 0], "1": [900, 0]}}')
    assert main(["sheet", "--layout", str(big), "--pdf", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert "do not fit on one" in err and err.count("\n") == 1
    assert not (tmp_path / "x.pdf").exists()

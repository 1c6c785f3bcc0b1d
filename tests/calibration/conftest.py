"""Paths of the real photos in tests/data, and the calibration file of each test."""
from __future__ import annotations

from pathlib import Path

import pytest

REALDATA = Path(__file__).resolve().parents[1] / "data" / "realdata"
CHESSBOARD = REALDATA / "opencv_chessboard"
ARUCO = REALDATA / "opencv_aruco"


@pytest.fixture
def cal_path(tmp_path: Path) -> Path:
    return tmp_path / "incanto-calibration.json"

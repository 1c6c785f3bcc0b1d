"""Paths of the shared real photos, and the calibration file of each test."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("INCANTO_SHARED") or Path(__file__).resolve().parents[2] / ".." / "shared")
REALDATA = SHARED / "realdata"
CHESSBOARD = REALDATA / "opencv_chessboard"
ARUCO = REALDATA / "opencv_aruco"


@pytest.fixture
def cal_path(tmp_path: Path) -> Path:
    return tmp_path / "incanto-calibration.json"

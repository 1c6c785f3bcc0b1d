"""Calibration boards, named in one short spec string.

    chessboard:9x6:25                 9x6 inner corners, 25 mm squares
    charuco:5x7:40:20:DICT_6X6_250    5x7 squares of 40 mm, markers of 20 mm, the marker dictionary
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


def aruco_dictionary(name: str) -> cv2.aruco.Dictionary:
    """One of OpenCV's predefined dictionaries, named as OpenCV names it (``DICT_6X6_250``)."""
    code = getattr(cv2.aruco, name, None) if name.startswith("DICT_") else None
    if not isinstance(code, int):
        raise ValueError(f"unknown ArUco dictionary {name!r}; use an OpenCV name such as 'DICT_4X4_50'")
    return cv2.aruco.getPredefinedDictionary(code)


GRID = (3, 30)  # a side of fewer cannot be found (OpenCV asserts); more costs seconds per picture for nothing
LENGTH_MM = (1.0, 500.0)  # a board printed on paper and held under the camera


def _grid(text: str, spec: str) -> tuple[int, int]:
    cols, _, rows = text.partition("x")
    if not (cols.isascii() and cols.isdigit() and rows.isascii() and rows.isdigit()) or len(cols + rows) > 6:
        raise ValueError(f"board {spec!r}: size {text!r} must look like '9x6'")
    if not all(GRID[0] <= int(n) <= GRID[1] for n in (cols, rows)):
        raise ValueError(f"board {spec!r}: size {text!r} must be from {GRID[0]} to {GRID[1]} each way")
    return int(cols), int(rows)


def _mm(text: str, spec: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and LENGTH_MM[0] <= value <= LENGTH_MM[1]):
        raise ValueError(f"board {spec!r}: length {text!r} must be a number of millimetres from "
                         f"{LENGTH_MM[0]:g} to {LENGTH_MM[1]:g}")
    return value


@dataclass(frozen=True)
class Chessboard:
    """cols x rows inner corners (where four squares meet), square side in mm."""

    cols: int
    rows: int
    square_mm: float

    def object_points(self) -> np.ndarray:
        """(cols*rows, 3) float32 corner positions on the board plane (z = 0), mm, row by row."""
        grid = np.mgrid[0:self.cols, 0:self.rows].T.reshape(-1, 2)
        return np.hstack([grid * self.square_mm, np.zeros((len(grid), 1))]).astype(np.float32)


@dataclass(frozen=True)
class Charuco:
    """cols x rows squares (markers in the white ones), lengths in mm, the marker dictionary."""

    cols: int
    rows: int
    square_mm: float
    marker_mm: float
    dictionary: str

    def board(self) -> cv2.aruco.CharucoBoard:
        return cv2.aruco.CharucoBoard((self.cols, self.rows), self.square_mm, self.marker_mm,
                                      aruco_dictionary(self.dictionary))


Board = Chessboard | Charuco


def parse_board(spec: str) -> Board:
    kind, *parts = spec.split(":")
    if kind == "chessboard" and len(parts) == 2:
        return Chessboard(*_grid(parts[0], spec), _mm(parts[1], spec))
    if kind == "charuco" and len(parts) == 4:
        board = Charuco(*_grid(parts[0], spec), _mm(parts[1], spec), _mm(parts[2], spec), parts[3])
        markers = aruco_dictionary(board.dictionary).bytesList.shape[0]
        if board.marker_mm >= board.square_mm:
            raise ValueError(f"board {spec!r}: markers must be smaller than the squares")
        if board.cols * board.rows // 2 > markers:
            raise ValueError(f"board {spec!r}: {board.cols * board.rows // 2} markers but {board.dictionary} has {markers}")
        return board
    raise ValueError(f"unknown board {spec!r}; use 'chessboard:9x6:25' or 'charuco:5x7:40:20:DICT_6X6_250'")

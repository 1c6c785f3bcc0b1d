"""Camera intrinsics from photos of a calibration board (``cv2.calibrateCamera``).

Images are (H, W, 3) BGR or (H, W) grey uint8. Per image the board gives (N, 3) float32 points
on its plane (mm) and the (N, 2) float32 pixels where they were seen.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.boards import Board, Charuco, Chessboard
from vision.profile import CameraIntrinsics, ImageSize

SUBPIX_WINDOW = (11, 11)  # the half-window OpenCV's own calibration sample refines corners with
SUBPIX_STOP = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
MIN_CHARUCO_CORNERS = 6  # fewer than this cannot constrain a view's pose


def grey(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def chessboard_corners(image: np.ndarray, board: Chessboard) -> np.ndarray | None:
    """(cols*rows, 2) float32 refined inner corners, or None when the whole board is not seen."""
    gray = grey(image)
    found, corners = cv2.findChessboardCorners(gray, (board.cols, board.rows), None,
                                               cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE)
    if not found:
        return None
    return cv2.cornerSubPix(gray, corners, SUBPIX_WINDOW, (-1, -1), SUBPIX_STOP).reshape(-1, 2)


def charuco_view(image: np.ndarray, board: Charuco) -> tuple[np.ndarray, np.ndarray] | None:
    """((N, 3) board points mm, (N, 2) pixels) of the ChArUco corners seen, or None if too few."""
    charuco = board.board()
    corners, ids, _, _ = cv2.aruco.CharucoDetector(charuco).detectBoard(grey(image))
    if ids is None or len(ids) < MIN_CHARUCO_CORNERS:
        return None
    objects, pixels = charuco.matchImagePoints(corners, ids)  # type: ignore[call-overload]  # stubs want a list
    return objects.reshape(-1, 3).astype(np.float32), pixels.reshape(-1, 2).astype(np.float32)


def board_view(image: np.ndarray, board: Board) -> tuple[np.ndarray, np.ndarray] | None:
    """The board's points in one image: ((N, 3) mm, (N, 2) px), or None where it is not found. A board
    OpenCV cannot look for at all is refused in words (ValueError), never as its assertion."""
    try:
        if isinstance(board, Charuco):
            return charuco_view(image, board)
        corners = chessboard_corners(image, board)
    except cv2.error as e:
        raise ValueError(f"the board {board!r} cannot be looked for in a {image.shape[1]}x{image.shape[0]} picture "
                         f"({str(e.err or e).strip()[:80]}): use a board such as chessboard:9x6:25") from None
    return None if corners is None else (board.object_points(), corners)


@dataclass(frozen=True)
class CameraCalibration:
    image: ImageSize
    intrinsics: CameraIntrinsics
    used: list[int]  # indices of the images the board was found in
    per_view_rms_px: list[float]


def calibrate_camera(images: list[np.ndarray], board: Board, fix_aspect: bool = False) -> CameraCalibration:
    """Intrinsics from every image where the board is found. ``fix_aspect`` keeps fx = fy (square
    pixels), which steadies the fit when the views are few or alike."""
    views = [(i, v) for i, v in enumerate(board_view(im, board) for im in images) if v is not None]
    if len(views) < 3:
        raise ValueError(f"the board was found in {len(views)} of {len(images)} images; at least 3 are needed: "
                         f"is the whole board in each photo, flat, sharp and well lit?")
    height, width = images[0].shape[:2]
    objects, pixels = [v[0] for _, v in views], [v[1] for _, v in views]
    flags = cv2.CALIB_FIX_ASPECT_RATIO if fix_aspect else 0
    # OpenCV reads only fx/fy of the start matrix, and only with a fixed aspect ratio: 1 = square pixels.
    rms, k, dist, rvecs, tvecs = cv2.calibrateCamera(objects, pixels, (width, height), np.eye(3), np.zeros(5), flags=flags)
    errors = [_view_rms(o, p, r, t, k, dist) for o, p, r, t in zip(objects, pixels, rvecs, tvecs)]
    coefficients = (tuple(float(d) for d in dist.ravel()) + (0.0,) * 5)[:5]
    intrinsics = CameraIntrinsics(fx=float(k[0, 0]), fy=float(k[1, 1]), cx=float(k[0, 2]), cy=float(k[1, 2]),
                                  dist=coefficients, rms_px=float(rms))  # type: ignore[arg-type]
    return CameraCalibration(ImageSize(width=width, height=height), intrinsics, [i for i, _ in views], errors)


def _view_rms(objects: np.ndarray, pixels: np.ndarray, rvec: np.ndarray, tvec: np.ndarray,
              k: np.ndarray, dist: np.ndarray) -> float:
    projected, _ = cv2.projectPoints(objects, rvec, tvec, k, dist)
    return float(np.sqrt(np.mean(np.sum((projected.reshape(-1, 2) - pixels) ** 2, axis=1))))

"""Painter's-algorithm drawing of 3D primitives through a RenderCamera, with a label buffer so the
ground truth knows how much of each marker is visible.

All coordinates given to these functions are table mm; images are the supersampled canvas.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.camera import RenderCamera

SHIFT = 4
ONE = 1 << SHIFT


@dataclass(frozen=True)
class Piece:
    """Something to draw: ``depth`` decides the order (far first); ``label`` (0-255) marks its pixels."""

    depth: float
    kind: str  # "capsule", "sphere" or "quad"
    points: np.ndarray  # (2,3) capsule ends, (1,3) sphere centre, (4,3) quad corners
    radii: tuple[float, ...]
    colour: tuple[int, int, int]
    label: int = 0
    texture: np.ndarray | None = None  # HxW uint8 grey picture painted on a quad


def _fix(p: np.ndarray) -> np.ndarray:
    return np.round(p * ONE).astype(np.int32)


def _brighter(colour: tuple[int, int, int], gain: float, lift: float) -> tuple[int, int, int]:
    b, g, r = (int(min(255, c * gain + lift)) for c in colour)
    return b, g, r


def capsule(cam: RenderCamera, a: np.ndarray, b: np.ndarray, ra: float, rb: float, colour, label: int = 0,
            bias: float = 0.0) -> Piece:
    pts = np.stack([a, b])
    return Piece(float(cam.depth(pts).mean()) - bias, "capsule", pts, (ra, rb), colour, label)


def sphere(cam: RenderCamera, c: np.ndarray, r: float, colour, label: int = 0, bias: float = 0.0) -> Piece:
    pts = np.asarray(c, float)[None]
    return Piece(float(cam.depth(pts)[0]) - bias, "sphere", pts, (r,), colour, label)


def quad(cam: RenderCamera, corners: np.ndarray, texture: np.ndarray, label: int = 0, bias: float = 0.0) -> Piece:
    return Piece(float(cam.depth(corners).mean()) - bias, "quad", corners, (), (255, 255, 255), label, texture)


def paint(cam: RenderCamera, image: np.ndarray, labels: np.ndarray, pieces: list[Piece]) -> None:
    """Draw ``pieces`` far to near into ``image`` (HxWx3 uint8) and ``labels`` (HxW uint8)."""
    for piece in sorted(pieces, key=lambda p: -p.depth):
        if piece.kind == "capsule":
            _capsule(cam, image, labels, piece)
        elif piece.kind == "sphere":
            _sphere(cam, image, labels, piece)
        else:
            _quad(cam, image, labels, piece)


def _capsule(cam: RenderCamera, image: np.ndarray, labels: np.ndarray, piece: Piece) -> None:
    px = cam.project(piece.points)
    scale = cam.pixel_scale(piece.points)
    r = np.array(piece.radii) * scale
    d = px[1] - px[0]
    n = np.array([-d[1], d[0]]) / max(np.linalg.norm(d), 1e-6)
    poly = _fix(np.array([px[0] + n * r[0], px[1] + n * r[1], px[1] - n * r[1], px[0] - n * r[0]]))
    paints: tuple[tuple[np.ndarray, tuple[int, ...]], ...] = ((image, piece.colour), (labels, (piece.label,)))
    for target, colour in paints:
        cv2.fillConvexPoly(target, poly, colour, cv2.LINE_8, SHIFT)
        for p, rr in zip(px, r):
            cv2.circle(target, tuple(_fix(p)), int(round(rr * ONE)), colour, -1, cv2.LINE_8, SHIFT)
    # A lit ridge along the top of the cylinder, so sticks look round.
    shine = _brighter(piece.colour, 1.35, 12)
    cv2.line(image, tuple(_fix(px[0] + n * r[0] * 0.35)), tuple(_fix(px[1] + n * r[1] * 0.35)), shine,
             max(1, int(min(r) * 0.5)), cv2.LINE_8, SHIFT)


def _sphere(cam: RenderCamera, image: np.ndarray, labels: np.ndarray, piece: Piece) -> None:
    c = cam.project(piece.points)[0]
    r = piece.radii[0] * cam.pixel_scale(piece.points)[0]
    cv2.circle(image, tuple(_fix(c)), int(round(r * ONE)), piece.colour, -1, cv2.LINE_8, SHIFT)
    cv2.circle(labels, tuple(_fix(c)), int(round(r * ONE)), (piece.label,), -1, cv2.LINE_8, SHIFT)
    shine = _brighter(piece.colour, 1.1, 25)
    cv2.circle(image, tuple(_fix(c - r * 0.25)), int(round(r * 0.45 * ONE)), shine, -1, cv2.LINE_8, SHIFT)


def _quad(cam: RenderCamera, image: np.ndarray, labels: np.ndarray, piece: Piece) -> None:
    dst = cam.project(piece.points).astype(np.float32)
    x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 2
    h, w = labels.shape
    if x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= h:
        return
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    tex = piece.texture
    if tex is None:
        raise ValueError("a quad is drawn with its texture")
    src = np.array([[0, 0], [tex.shape[1], 0], [tex.shape[1], tex.shape[0]], [0, tex.shape[0]]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst - np.array([x0, y0], np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(tex, m, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full(tex.shape, 255, np.uint8), m, size, flags=cv2.INTER_NEAREST) > 0
    image[y0:y1, x0:x1][mask] = warped[mask][:, None]
    labels[y0:y1, x0:x1][mask] = piece.label

"""A tapped place snaps to the token it lands on.

A finger on the camera's preview lands a few pixels off the token it means (5-11 mm at the table), so
the layout step looks, in the picture the tap was made on, for the round token of the game's size
nearest the tap and keeps its centre instead. It looks on the table itself: the patch around the tap is
redrawn as seen from straight above (through the table calibration, at the height of a token's top),
where every token is a circle of the game's radius whatever the camera's angle. The circle whose rim
is best backed by edges in the picture (in any colour channel, so a token coloured like the table
still shows its rim or its shadow) wins, and a least-squares circle through the rim points it saw
places its centre to a fraction of a millimetre. A rim only partly seen (a hand or a wand over the
token) still counts for the part that is seen; a hand's outline is no circle of a token's size.

When no clear token is found (a tap on bare table, on a printed space with no token, a token covered
by a hand) the tap stays where it was and the step says so: a place is never invented.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

TOKEN_TOP_MM = 2.0  # a token's thickness: its rim is seen at this height above the table
MM_PER_PX = 0.25  # the redrawn patch's scale: finer than the camera sees at any table distance
SEARCH = 1.3  # how far from the tap a token's centre may lie, in token radii (a finger may land just past its rim)
SIZES = (0.9, 0.95, 1.0, 1.05, 1.1)  # a token's radius as seen: the table calibration is a little off
ANGLES = 72  # rim points looked at around each circle
RIM_BAND_MM = 0.75  # a rim point is looked for this far in or out of the circle (printing, blur)
LEAST_RIM = 0.55  # the share of its rim a token must show to be taken (a hand may cover the rest)
EDGE_OVER_NOISE = 4.0  # a rim point's edge must stand this many times over the patch's typical edge
LEAST_EDGE = 3.0  # ... and at least this strong (Lab units per patch pixel), for a bare, even table
MOST_SHIFT = 0.75  # the circle fit may move the centre at most this share of a radius from the best circle

# (N, 3) table mm -> (N, 2) pixels of the camera picture
ToPixels = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Snap:
    """Where one tap ends up: on the centre of the token it landed on, or (none clear) where it was."""

    tap: tuple[float, float]  # pixel tapped
    pixel: tuple[float, float]  # pixel of the place: the token's centre, or the tap itself
    snapped: bool
    rim_seen: float  # share of the best circle's rim backed by edges (0-1)
    residual_mm: float  # how far the rim points lie from the fitted circle (RMS; NaN when not snapped)

    @property
    def moved_px(self) -> float:
        return float(np.hypot(self.pixel[0] - self.tap[0], self.pixel[1] - self.tap[1]))


def snap_tap(image: np.ndarray, tap: tuple[float, float], radius_mm: float, centre_mm: tuple[float, float],
             to_pixels: ToPixels) -> Snap:
    """The tap at pixel ``tap`` of ``image`` (BGR), whose ray meets the tokens' tops at ``centre_mm``,
    moved to the centre of the token of ``radius_mm`` it lands on; kept as it was when none is clear."""
    kept = Snap(tap, tap, False, 0.0, float("nan"))
    patch = _patch(image, centre_mm, radius_mm, to_pixels)
    if patch is None:
        return kept
    found = _best_circle(patch, radius_mm / MM_PER_PX)
    if found is None:
        return kept
    (u, v), seen, residual = found
    half = (patch.shape[0] - 1) / 2
    x_mm = centre_mm[0] + (u - half) * MM_PER_PX
    y_mm = centre_mm[1] + (v - half) * MM_PER_PX
    pixel = to_pixels(np.array([[x_mm, y_mm, TOKEN_TOP_MM]]))[0]
    if not np.all(np.isfinite(pixel)):
        return kept
    return Snap(tap, (float(pixel[0]), float(pixel[1])), True, seen, residual * MM_PER_PX)


def _patch(image: np.ndarray, centre_mm: tuple[float, float], radius_mm: float, to_pixels: ToPixels) -> np.ndarray | None:
    """The table around ``centre_mm`` as seen from straight above at the tokens' height, in Lab, float:
    (2n+1, 2n+1, 3) with x_mm along columns and y_mm along rows; None when it is off the picture."""
    half_mm = (SEARCH + max(SIZES)) * radius_mm + 3.0
    n = int(np.ceil(half_mm / MM_PER_PX))
    steps = np.arange(-n, n + 1) * MM_PER_PX
    xs, ys = np.meshgrid(centre_mm[0] + steps, centre_mm[1] + steps)
    grid = np.c_[xs.ravel(), ys.ravel(), np.full(xs.size, TOKEN_TOP_MM)]
    pixels = to_pixels(grid).reshape(xs.shape + (2,)).astype(np.float32)
    h, w = image.shape[:2]
    inside = (pixels[..., 0] >= 0) & (pixels[..., 0] <= w - 1) & (pixels[..., 1] >= 0) & (pixels[..., 1] <= h - 1)
    if inside.mean() < 0.9:
        return None
    bgr = cv2.remap(image, pixels[..., 0], pixels[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    return cv2.GaussianBlur(lab, (0, 0), 1.0)


def _best_circle(lab: np.ndarray, radius_px: float) -> tuple[tuple[float, float], float, float] | None:
    """The centre (patch pixels) of the circle of about ``radius_px`` near the patch's middle best backed
    by edges, the share of its rim seen and the fit's RMS residual (patch pixels); None when none is clear."""
    gx = np.stack([cv2.Sobel(lab[..., c], cv2.CV_32F, 1, 0, ksize=3) / 8 for c in range(3)])
    gy = np.stack([cv2.Sobel(lab[..., c], cv2.CV_32F, 0, 1, ksize=3) / 8 for c in range(3)])
    magnitude = np.sqrt((gx ** 2 + gy ** 2).sum(axis=0))
    strong = max(EDGE_OVER_NOISE * float(np.median(magnitude)), LEAST_EDGE)
    size = lab.shape[0]
    middle = (size - 1) // 2
    band = max(1, int(round(RIM_BAND_MM / MM_PER_PX)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * band + 1, 2 * band + 1))
    reach = int(np.ceil(SEARCH * radius_px))
    theta = np.arange(ANGLES) * 2 * np.pi / ANGLES
    seen_maps, strength_maps = [], []
    for a in theta:
        c, s = np.cos(a), np.sin(a)
        # The edge across the rim at this angle: the gradient along the radius, in whichever channel.
        radial = np.sqrt(((gx * c + gy * s) ** 2).sum(axis=0))
        backed = ((radial >= strong) & (radial >= 0.7 * magnitude)).astype(np.uint8)
        seen_maps.append(cv2.dilate(backed, kernel))
        # How strongly, up to a few times the least: one very strong edge (a hand's) cannot carry a circle.
        strength_maps.append(cv2.dilate(np.minimum(radial * backed / strong, 3.0).astype(np.float32), kernel))
    seen_stack, strength_stack = np.stack(seen_maps), np.stack(strength_maps)  # (ANGLES, size, size)
    centres = np.arange(middle - reach, middle + reach + 1)
    cu, cv_ = np.meshgrid(centres, centres)
    near = (cu - middle) ** 2 + (cv_ - middle) ** 2 <= reach ** 2
    # Of two circles equally backed, the one nearer the tap: the token the finger meant.
    nearer = 0.3 * ((cu - middle) ** 2 + (cv_ - middle) ** 2) / reach ** 2
    best: tuple[float, float, int, float] | None = None  # (score, rim seen, centre index, radius)
    for scale in SIZES:
        r = radius_px * scale
        du = np.rint(r * np.cos(theta)).astype(int)
        dv = np.rint(r * np.sin(theta)).astype(int)
        share = np.zeros(cu.shape, np.float32)
        score = np.zeros(cu.shape, np.float32)
        for k in range(ANGLES):
            share += seen_stack[k, cv_ + dv[k], cu + du[k]]
            score += strength_stack[k, cv_ + dv[k], cu + du[k]]
        score = np.where(near, score / (3.0 * ANGLES) - nearer, -np.inf)
        i = int(np.argmax(score))
        if best is None or score.flat[i] > best[0]:
            best = (float(score.flat[i]), float(share.flat[i]) / ANGLES, i, r)
    assert best is not None
    _, seen, i, r = best
    if seen < LEAST_RIM:
        return None
    u0, v0 = float(cu.flat[i]), float(cv_.flat[i])
    fitted = _fit_rim(gx, gy, strong, (u0, v0), r, band, theta)
    if fitted is None:
        return None
    (u, v), residual = fitted
    if np.hypot(u - u0, v - v0) > MOST_SHIFT * r or np.hypot(u - middle, v - middle) > reach + band:
        return None
    return (u, v), seen, residual


def _fit_rim(gx: np.ndarray, gy: np.ndarray, strong: float, centre: tuple[float, float], r: float, band: int,
             theta: np.ndarray) -> tuple[tuple[float, float], float] | None:
    """A least-squares circle through the strongest radial edge along each ray from ``centre`` within
    ``band`` of radius ``r`` (rays with no strong edge left out), refitted without its worst points."""
    size = gx.shape[1]
    points = []
    offsets = np.arange(-2 * band, 2 * band + 1, 0.5)
    for a in theta:
        c, s = np.cos(a), np.sin(a)
        us, vs = centre[0] + (r + offsets) * c, centre[1] + (r + offsets) * s
        if us.min() < 0 or vs.min() < 0 or us.max() > size - 2 or vs.max() > size - 2:
            continue
        radial = np.sqrt(sum((_sample(gx[ch], us, vs) * c + _sample(gy[ch], us, vs) * s) ** 2 for ch in range(3)))
        j = int(np.argmax(radial))
        if radial[j] < strong:
            continue
        # The edge's middle to a fraction of a pixel: a parabola through the peak and its neighbours.
        shift = 0.0
        if 0 < j < len(radial) - 1:
            left, mid, right = radial[j - 1], radial[j], radial[j + 1]
            denominator = left - 2 * mid + right
            shift = float(np.clip(0.5 * (left - right) / denominator, -0.5, 0.5)) if denominator < 0 else 0.0
        d = r + offsets[j] + shift * 0.5
        points.append((centre[0] + d * c, centre[1] + d * s))
    if len(points) < LEAST_RIM * len(theta):
        return None
    rim = np.array(points)
    for _ in range(2):
        (u, v), radius = _circle(rim)
        off = np.abs(np.hypot(rim[:, 0] - u, rim[:, 1] - v) - radius)
        keep = off <= max(1.0, 2.5 * float(np.median(off)))
        if keep.all() or keep.sum() < LEAST_RIM * len(theta):
            break
        rim = rim[keep]
    (u, v), radius = _circle(rim)
    if not 0.85 <= radius / r <= 1.15:  # the rim points fit some other round thing, not this token
        return None
    residual = float(np.sqrt(np.mean((np.hypot(rim[:, 0] - u, rim[:, 1] - v) - radius) ** 2)))
    return (u, v), residual


def _circle(points: np.ndarray) -> tuple[tuple[float, float], float]:
    """Centre and radius of the circle through (N, 2) points, least squares (Kåsa's method)."""
    x, y = points[:, 0], points[:, 1]
    a = np.c_[2 * x, 2 * y, np.ones(len(x))]
    (u, v, c), *_ = np.linalg.lstsq(a, x ** 2 + y ** 2, rcond=None)
    return (float(u), float(v)), float(np.sqrt(max(c + u ** 2 + v ** 2, 0.0)))


def _sample(channel: np.ndarray, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
    """Bilinear samples of one (H, W) channel at the points (us, vs)."""
    u0, v0 = np.floor(us).astype(int), np.floor(vs).astype(int)
    fu, fv = us - u0, vs - v0
    return ((1 - fu) * (1 - fv) * channel[v0, u0] + fu * (1 - fv) * channel[v0, u0 + 1]
            + (1 - fu) * fv * channel[v0 + 1, u0] + fu * fv * channel[v0 + 1, u0 + 1])

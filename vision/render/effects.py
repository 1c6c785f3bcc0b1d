"""What a real camera does to a picture: light level and colour, blur, sensor noise, JPEG."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Conditions:
    """One frame's imaging conditions.

    gain: overall light level (1 = as drawn); tint: (3,) BGR multipliers of the light's colour;
    gradient: brightness change from one image side to the other (a lamp off to one side);
    blur_px: length of a motion-blur streak; defocus: Gaussian sigma in pixels; noise: sensor noise
    sigma in grey levels; jpeg: quality 1-100 (100 = no compression)."""

    gain: float = 1.0
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    gradient: float = 0.0
    gradient_angle: float = 0.0
    blur_px: float = 0.0
    blur_angle: float = 0.0
    defocus: float = 0.0
    noise: float = 1.5
    jpeg: int = 92


def nominal(rng: np.random.Generator) -> Conditions:
    """A steady, well-lit table: small variations only."""
    return Conditions(gain=rng.uniform(0.9, 1.1), tint=tuple(rng.uniform(0.96, 1.04, 3)), noise=1.5, jpeg=92)


def hard(rng: np.random.Generator) -> Conditions:
    """Dim or bright, warm or cold light, a lamp to one side, blur, noise and strong JPEG."""
    warm = rng.uniform(-1, 1)
    return Conditions(gain=rng.uniform(0.55, 1.35), tint=(1 - 0.15 * warm, 1.0, 1 + 0.15 * warm),
                      gradient=rng.uniform(0, 0.35), gradient_angle=rng.uniform(0, 2 * np.pi),
                      blur_px=rng.uniform(0, 5), blur_angle=rng.uniform(0, np.pi), defocus=rng.uniform(0, 1.0),
                      noise=rng.uniform(2, 7), jpeg=int(rng.integers(45, 85)))


def apply(image: np.ndarray, c: Conditions, rng: np.random.Generator, glow: np.ndarray | None = None) -> np.ndarray:
    """HxWx3 uint8 -> HxWx3 uint8 as the camera would have delivered it. ``glow`` (HxW float32, 0..1)
    marks light sources (LEDs), which shine the same whatever the room's light."""
    out: np.ndarray = image.astype(np.float32)
    h, w = image.shape[:2]
    light = np.broadcast_to(_light((h, w), c), out.shape)
    if glow is not None:
        light = light + (1.0 - light) * glow[:, :, None]
    out *= light
    if c.blur_px >= 1.0:
        out = cv2.filter2D(out, -1, _streak(c.blur_px, c.blur_angle))
    if c.defocus > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), c.defocus)
    if c.noise > 0:
        noise = np.empty(out.shape, np.float32)
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(noise, 0.0, float(c.noise))  # type: ignore[call-overload]  # scalar mean/stddev, as OpenCV takes them
        out += noise
    out = np.clip(out, 0, 255).astype(np.uint8)
    if c.jpeg < 100:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(c.jpeg)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def _light(shape: tuple[int, int], c: Conditions) -> np.ndarray:
    """HxWx3 float32 per-pixel light multiplier."""
    h, w = shape
    tint = np.asarray(c.tint, np.float32) * c.gain
    if c.gradient == 0:
        return tint[None, None, :]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = ((x / w - 0.5) * np.cos(c.gradient_angle) + (y / h - 0.5) * np.sin(c.gradient_angle)) * c.gradient
    return (1 + ramp)[:, :, None] * tint[None, None, :]


def _streak(length: float, angle: float) -> np.ndarray:
    """A normalised line kernel of ``length`` pixels at ``angle`` radians."""
    k = int(np.ceil(length)) | 1
    kernel = np.zeros((k, k), np.float32)
    c = k // 2
    d = np.array([np.cos(angle), np.sin(angle)]) * (length / 2)
    cv2.line(kernel, (int(round(c - d[0])), int(round(c - d[1]))), (int(round(c + d[0])), int(round(c + d[1]))), 1.0, 1)  # type: ignore[call-overload]  # scalar colour of a 1-channel kernel
    return kernel / kernel.sum()

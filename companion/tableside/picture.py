"""One unsure wand's picture for the tablet: the camera's frame at the deciding moment, cropped around
the wand's tip (or where it was last seen), with each candidate token outlined in its own colour and
named as the board names it, so one look says which token the wand was on.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from companion.question import Choice

WIDTH = 480  # px of the picture sent: sharp on a tablet, small enough to send at once (tens of kB)
MIN_SIDE = 160  # px of the camera's frame shown at least, so a lone tip has its surroundings
MARGIN = 1.6  # the crop reaches this far past the farthest candidate's disc, so every outline shows whole
TIP = (255, 255, 255)


def _bgr(hex_colour: str) -> tuple[int, int, int]:
    rgb = bytes.fromhex(hex_colour.lstrip("#"))
    return (rgb[2], rgb[1], rgb[0])


def crop_box(image_shape: tuple[int, ...], centre: tuple[float, float],
             discs: Sequence[tuple[float, float, float]]) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of a square around ``centre`` that holds every disc, inside the image."""
    h, w = image_shape[:2]
    cx, cy = centre
    reach = max([MIN_SIDE / 2] + [max(abs(x - cx), abs(y - cy)) + r * MARGIN for x, y, r in discs])
    side = int(min(2 * reach, w, h))
    x0 = int(round(min(max(cx - side / 2, 0), w - side)))
    y0 = int(round(min(max(cy - side / 2, 0), h - side)))
    return x0, y0, x0 + side, y0 + side


def wand_picture(image: np.ndarray, tip_px: tuple[float, float] | None, choices: Sequence[Choice],
                 places_px: Mapping[str, tuple[float, float, float]]) -> bytes:
    """PNG of ``image`` (BGR) around ``tip_px`` (None: around the candidates) with each choice that has
    a place in the picture outlined in its ``outline`` colour and named."""
    shown = [(c, places_px[c.place]) for c in choices if c.place is not None and c.place in places_px]
    discs = [d for _, d in shown]
    if tip_px is None:
        centre = (float(np.mean([d[0] for d in discs])), float(np.mean([d[1] for d in discs]))) if discs else \
            (image.shape[1] / 2, image.shape[0] / 2)
    else:
        centre = tip_px
    x0, y0, x1, y1 = crop_box(image.shape, centre, discs)
    scale = WIDTH / max(x1 - x0, 1)
    picture = cv2.resize(image[y0:y1, x0:x1], (WIDTH, WIDTH),
                         interpolation=cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA)
    at = lambda x, y: (int(round((x - x0) * scale)), int(round((y - y0) * scale)))  # noqa: E731
    for choice, (x, y, r) in shown:
        colour = _bgr(choice.outline or "#ffffff")
        cv2.circle(picture, at(x, y), max(int(r * scale), 6), (0, 0, 0), 7, cv2.LINE_AA)  # seen on any token
        cv2.circle(picture, at(x, y), max(int(r * scale), 6), colour, 3, cv2.LINE_AA)
    taken: list[tuple[int, int, int, int]] = []  # names are written after every outline, so none is hidden
    for choice, (x, y, r) in shown:
        _label(picture, choice.name, at(x, y), int(r * scale), _bgr(choice.outline or "#ffffff"), taken)
    if tip_px is not None:
        tx, ty = at(*tip_px)
        cv2.drawMarker(picture, (tx, ty), (0, 0, 0), cv2.MARKER_CROSS, 22, 5, cv2.LINE_AA)
        cv2.drawMarker(picture, (tx, ty), TIP, cv2.MARKER_CROSS, 22, 2, cv2.LINE_AA)
    ok, png = cv2.imencode(".png", picture)
    if not ok:
        raise ValueError("the wand's picture could not be encoded as PNG")
    return png.tobytes()


def _label(picture: np.ndarray, name: str, centre: tuple[int, int], radius: int, colour: tuple[int, int, int],
           taken: list[tuple[int, int, int, int]]) -> None:
    """The name on a dark plate beside its outline: above it, else below, right or left, wherever it
    covers no name already written (two candidates side by side); kept inside the picture."""
    text = name.encode("ascii", "replace").decode()  # OpenCV's font draws ASCII only
    font, size, weight = cv2.FONT_HERSHEY_SIMPLEX, 0.55, 1
    (tw, th), base = cv2.getTextSize(text, font, size, weight)
    h, w = picture.shape[:2]
    cx, cy, gap = centre[0], centre[1], radius + 8
    spots = [(cx - tw // 2, cy - gap), (cx - tw // 2, cy + gap + th), (cx + gap, cy + th // 2),
             (cx - gap - tw, cy + th // 2)]
    plates = []
    for x, y in spots:
        x, y = min(max(x, 3), w - tw - 3), min(max(y, th + 3), h - base - 2)
        plates.append((x - 3, y - th - 3, x + tw + 3, y + base + 1))
    free = [p for p in plates if not any(_overlap(p, t) for t in taken)]
    x0, y0, x1, y1 = (free or plates)[0]
    taken.append((x0, y0, x1, y1))
    cv2.rectangle(picture, (x0, y0), (x1, y1), (20, 18, 28), -1)
    cv2.putText(picture, text, (x0 + 3, y1 - base - 1), font, size, colour, weight, cv2.LINE_AA)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

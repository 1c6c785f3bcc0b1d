"""How long MediaPipe takes per frame: the yardstick the rest of the pipeline is measured against.

Run ``python -m vision.bench.hands`` to print the figures for the real photos as JSON.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable

import cv2
import numpy as np

from vision.frames import Frame
from vision.hands.config import HandsConfig
from vision.hands.legacy import LegacyHands

BENCH_SIZE = (640, 480)


def _as_bench_image(frame: Frame | np.ndarray) -> np.ndarray:
    """(480, 640, 3) uint8 BGR: every frame is timed at the size the table camera gives."""
    image = frame.image if isinstance(frame, Frame) else frame
    return image if image.shape[1::-1] == BENCH_SIZE else cv2.resize(image, BENCH_SIZE)


def _median_ms(detect: Callable[[np.ndarray], object], images: list[np.ndarray],
               clock: Callable[[], float]) -> float:
    detect(images[0])  # the first call loads the graph
    times = []
    for image in images:
        start = clock()
        detect(image)
        times.append((clock() - start) * 1000.0)
    return float(np.median(times))


def measure(frames: Iterable[Frame | np.ndarray], clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Median milliseconds per 640x480 frame.

    mediapipe_ms_p50: one pass of MediaPipe's hand solution (static image mode), the model alone.
    hands_detect_ms_p50: Incanto's default HandsConfig (every view, look-behind), all it costs.
    """
    images = [_as_bench_image(f) for f in frames]
    if not images:
        raise ValueError("measure needs at least one frame, got none")
    one_pass = HandsConfig(views=("plain",), look_behind=False)
    with LegacyHands(one_pass) as model, LegacyHands() as tracker:
        return {
            "mediapipe_ms_p50": round(_median_ms(model.detect, images, clock), 2),
            "hands_detect_ms_p50": round(_median_ms(tracker.detect, images, clock), 2),
            "frames": len(images),
        }


def main() -> None:
    from vision.bench.realdata import hand_photos

    images = [cv2.imread(str(p)) for p in hand_photos()]
    print(json.dumps(measure(images)))


if __name__ == "__main__":
    main()

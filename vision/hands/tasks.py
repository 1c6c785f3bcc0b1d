"""Hands from MediaPipe's Tasks API with a ``hand_landmarker.task`` file the user supplies."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from vision.hands.config import HandsConfig
from vision.hands.hand import Hand
from vision.hands.tracker import ViewedTracker, unmirrored


class HandModelMissing(FileNotFoundError):
    """The model file the configuration names is not there (Incanto never downloads models)."""


class TasksHands(ViewedTracker):
    """``mediapipe.tasks.python.vision.HandLandmarker`` in image mode over a local model file."""

    def __init__(self, model_path: str | Path, config: HandsConfig | None = None) -> None:
        super().__init__(config)
        self.model_path = Path(model_path)
        if not self.model_path.is_file():
            raise HandModelMissing(
                f"hand model {str(self.model_path)!r} not found: copy a MediaPipe "
                "hand_landmarker.task file to that path (Incanto never downloads models), "
                "or use LegacyHands, whose model ships inside the mediapipe wheel")
        self._landmarker = _open_landmarker(self.model_path, self.config)

    def _infer(self, view: str, image_rgb: np.ndarray) -> list[Hand]:
        import mediapipe as mp

        result = self._landmarker.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=image_rgb))
        height, width = image_rgb.shape[:2]
        return [_hand(marks, labels, width, height)
                for marks, labels in zip(result.hand_landmarks, result.handedness)]

    def close(self) -> None:
        self._landmarker.close()


def _open_landmarker(path: Path, config: HandsConfig) -> Any:
    from mediapipe.tasks.python import BaseOptions, vision

    options = vision.HandLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=str(path)),
        running_mode=vision.RunningMode.IMAGE,
        num_hands=config.max_hands,
        min_hand_detection_confidence=config.min_detection_confidence,
        min_hand_presence_confidence=config.min_tracking_confidence,
    )
    try:
        return vision.HandLandmarker.create_from_options(options)
    except (RuntimeError, ValueError) as e:
        raise ValueError(f"hand model {str(path)!r} could not be loaded: {e}") from e


def _hand(marks: Any, labels: Any, width: int, height: int) -> Hand:
    points = np.array([(p.x * width, p.y * height, p.z * width) for p in marks], dtype=np.float64)
    best = labels[0]
    return Hand(points[:, :2], unmirrored(best.category_name), float(best.score), points[:, 2].copy())

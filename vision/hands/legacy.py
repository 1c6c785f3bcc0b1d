"""Hands from ``mediapipe.solutions.hands``, whose models ship inside the mediapipe wheel."""
from __future__ import annotations

from typing import Any

import numpy as np

from vision.hands.config import HandsConfig
from vision.hands.hand import Hand
from vision.hands.tracker import LOOK_BEHIND, ViewedTracker, unmirrored


class LegacyHands(ViewedTracker):
    """MediaPipe's legacy hand solution: one model instance per view, since in video mode
    (``static_image_mode=False``) each instance tracks hands from its own previous frame."""

    def __init__(self, config: HandsConfig | None = None) -> None:
        super().__init__(config)
        from mediapipe.python.solutions import hands as mp_hands  # imported here: it loads TFLite

        self._solution_class = mp_hands.Hands
        self._models: dict[str, Any] = {}

    def _model(self, view: str) -> Any:
        if view not in self._models:
            c = self.config
            self._models[view] = self._solution_class(
                static_image_mode=c.static_image_mode or view == LOOK_BEHIND,
                max_num_hands=c.max_hands,
                model_complexity=c.model_complexity,
                min_detection_confidence=c.min_detection_confidence,
                min_tracking_confidence=c.min_tracking_confidence,
            )
        return self._models[view]

    def _infer(self, view: str, image_rgb: np.ndarray) -> list[Hand]:
        result = self._model(view).process(image_rgb)
        if not result.multi_hand_landmarks:
            return []
        height, width = image_rgb.shape[:2]
        return [_hand(marks, label, width, height)
                for marks, label in zip(result.multi_hand_landmarks, result.multi_handedness)]

    def close(self) -> None:
        for model in self._models.values():
            model.close()
        self._models.clear()


def _hand(marks: Any, label: Any, width: int, height: int) -> Hand:
    """One solution result (normalised landmarks + classification) as a Hand in pixels."""
    points = np.array([(p.x * width, p.y * height, p.z * width) for p in marks.landmark], dtype=np.float64)
    best = label.classification[0]
    return Hand(points[:, :2], unmirrored(best.label), float(best.score), points[:, 2].copy())

"""The one seam every hand model sits behind, and the recipe all of them share."""
from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Protocol

import numpy as np

from vision.hands.config import HandsConfig
from vision.hands.hand import Hand, Handedness
from vision.hands.views import VIEWS, merge, paint_out

LOOK_BEHIND = "look_behind"


class HandTracker(Protocol):
    """Finds hands in BGR images; the pipeline never knows which model is behind it."""

    def detect(self, image_bgr: np.ndarray) -> list[Hand]:
        """Hands in an (H, W, 3) uint8 BGR image, surest first, landmarks in its pixels."""

    def close(self) -> None:
        """Release the model."""

    def __enter__(self) -> HandTracker: ...

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None: ...


def unmirrored(model_label: str) -> Handedness:
    """The person's hand: MediaPipe labels hands as if the image were a mirrored selfie."""
    if model_label not in ("Left", "Right"):
        raise ValueError(f"hand model gave handedness {model_label!r}, expected 'Left' or 'Right'")
    return "Right" if model_label == "Left" else "Left"


def check_image(image_bgr: np.ndarray) -> None:
    if not isinstance(image_bgr, np.ndarray) or image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
        raise ValueError(f"hands need an (H, W, 3) BGR image, got shape {np.shape(image_bgr)!r}")
    if image_bgr.dtype != np.uint8:
        raise ValueError(f"hands need a uint8 image, got dtype {str(image_bgr.dtype)!r}")


class ViewedTracker(ABC):
    """Shows the model every configured view of the image and merges what it finds.

    Subclasses fill in one hook: ``_infer(view, image_rgb)``, the model run on one view, giving
    hands in that view's pixels. ``view`` names the view so stateful models keep one state each.
    """

    def __init__(self, config: HandsConfig | None = None) -> None:
        self.config = config or HandsConfig()

    @abstractmethod
    def _infer(self, view: str, image_rgb: np.ndarray) -> list[Hand]: ...

    def close(self) -> None:  # noqa: B027 - a hook with nothing to release by default
        """Nothing to release unless a model says so."""

    def detect(self, image_bgr: np.ndarray) -> list[Hand]:
        check_image(image_bgr)
        found: list[Hand] = []
        for name in self.config.views:
            found = merge(found, self._look(name, image_bgr), self.config)
        if self.config.look_behind:
            found = self._look_behind(image_bgr, found)
        return sorted(found, key=lambda h: -h.score)[: self.config.max_hands]

    def _look(self, name: str, image_bgr: np.ndarray, model_view: str | None = None) -> list[Hand]:
        view_image, offset = VIEWS[name](image_bgr, self.config)
        rgb = np.ascontiguousarray(view_image[..., ::-1])
        return [h.moved(offset) for h in self._infer(model_view or name, rgb)]

    def _look_behind(self, image_bgr: np.ndarray, found: list[Hand]) -> list[Hand]:
        """Paint out the hands found and look again, until nothing new turns up."""
        while found and len(found) < self.config.max_hands:
            behind = self._look("padded", paint_out(image_bgr, found), LOOK_BEHIND)
            more = merge(found, [h for h in behind if self._whole_hand(h, found)], self.config)
            if len(more) == len(found):
                break
            found = more
        return found

    def _whole_hand(self, hand: Hand, found: list[Hand]) -> bool:
        """A hand behind another sits at about the same height, so looks about as big; what is
        found much smaller is a scrap of a painted-out hand (a wrist, a fingertip)."""
        typical = float(np.median([h.size_px for h in found]))
        return hand.size_px >= self.config.look_behind_min_size * typical

    def __enter__(self) -> ViewedTracker:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

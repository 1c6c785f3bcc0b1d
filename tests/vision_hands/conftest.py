"""Fixtures: the real photos of tests/data/realdata and one tracker for the whole session."""
from __future__ import annotations

from pathlib import Path
from collections.abc import Callable, Iterator

import cv2
import numpy as np
import pytest

from vision.hands import Hand, HandsConfig, LegacyHands
from vision.bench.realdata import REALDATA


def photo(name: str) -> np.ndarray:
    """A real photo by its path under realdata/, as (H, W, 3) BGR."""
    image = cv2.imread(str(REALDATA / name))
    assert image is not None, f"missing photo {name!r} under {REALDATA}"
    return image


@pytest.fixture(scope="session")
def tracker() -> Iterator[LegacyHands]:
    with LegacyHands() as t:
        yield t


@pytest.fixture(scope="session")
def hands_in(tracker: LegacyHands) -> Callable[[str], list[Hand]]:
    """Hands the default tracker finds in a photo, each photo detected once per session."""
    seen: dict[str, list[Hand]] = {}

    def find(name: str) -> list[Hand]:
        if name not in seen:
            seen[name] = tracker.detect(photo(name))
        return seen[name]

    return find


@pytest.fixture(scope="session")
def plain_tracker() -> Iterator[LegacyHands]:
    """One pass over the image as it is: no padding, no other view, no second look."""
    with LegacyHands(HandsConfig(views=("plain",), look_behind=False)) as t:
        yield t


def realdata_available() -> bool:
    return Path(REALDATA / "hands_mediapipe_samples").is_dir()

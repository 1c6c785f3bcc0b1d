"""The Tasks API tracker with a user-supplied model file, and the MediaPipe benchmark function."""
from __future__ import annotations

import zipfile
from pathlib import Path
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from vision.hands import Hand, HandModelMissing, TasksHands
from vision.bench.hands import measure

from .conftest import photo


def test_a_missing_model_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "models" / "hand_landmarker.task"
    with pytest.raises(HandModelMissing, match=str(missing)) as error:
        TasksHands(missing)
    assert isinstance(error.value, FileNotFoundError)
    assert not missing.exists()  # nothing was fetched


def test_a_damaged_model_file_is_named(tmp_path: Path) -> None:
    damaged = tmp_path / "hand_landmarker.task"
    damaged.write_bytes(b"not a model")
    with pytest.raises(ValueError, match=str(damaged)):
        TasksHands(damaged)


@pytest.fixture(scope="module")
def user_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A hand_landmarker.task bundled from the two models inside the mediapipe wheel: the same
    layout (a zip of hand_detector.tflite + hand_landmarks_detector.tflite) a user would supply."""
    import mediapipe

    modules = Path(mediapipe.__file__).parent / "modules"
    bundle = tmp_path_factory.mktemp("model") / "hand_landmarker.task"
    with zipfile.ZipFile(bundle, "w") as z:
        z.write(modules / "palm_detection" / "palm_detection_full.tflite", "hand_detector.tflite")
        z.write(modules / "hand_landmark" / "hand_landmark_full.tflite", "hand_landmarks_detector.tflite")
    return bundle


@pytest.fixture(scope="module")
def tasks_tracker(user_model: Path) -> Iterator[TasksHands]:
    with TasksHands(user_model) as t:
        yield t


@pytest.mark.parametrize("name", ["hands_mediapipe_samples/hand_victory_1200px.jpg",
                                  "hands_sign_digits/digit1_IMG_4234.jpg",
                                  "hands_mediapipe_samples/gr_test_video_frame000.jpg",
                                  "hands_mediapipe_samples/hl_test_video_frame100.jpg"])
def test_tasks_tracker_agrees_with_the_legacy_one(name: str, tasks_tracker: TasksHands,
                                                  hands_in: Callable[[str], list[Hand]]) -> None:
    legacy, tasks = hands_in(name), tasks_tracker.detect(photo(name))
    assert len(tasks) == len(legacy)
    for a, b in zip(legacy, tasks):
        assert np.linalg.norm(a.landmarks - b.landmarks, axis=1).mean() < 0.1 * a.size_px


def test_measure_reports_median_milliseconds_per_frame() -> None:
    ticks = iter(np.arange(0.0, 100.0, 0.004))  # every clock reading 4 ms after the last
    figures = measure([photo("hands_sign_digits/example_1.jpg")] * 3, clock=lambda: float(next(ticks)))
    assert figures["mediapipe_ms_p50"] == pytest.approx(4.0)
    assert figures["hands_detect_ms_p50"] == pytest.approx(4.0)
    assert figures["frames"] == 3
    with pytest.raises(ValueError, match="none"):
        measure([])

"""Camera sources: recorded videos and image folders made here, errors that name the bad spec,
and CameraWatch keeping a game going while a camera disappears and comes back."""
from __future__ import annotations

import importlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.frames import Frame
from vision.sources import (Backoff, BadSourceSpec, CameraStatus, CameraWatch, ImageFolderSource,
                            SourceUnavailable, open_source)

FPS = 20.0


def shade(i: int) -> int:
    return 20 + 20 * i


def write_video(path: Path, frames: int = 8) -> Path:
    """A real MJPG video, frame i a flat grey of shade(i), with its number drawn on it."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (160, 120))
    assert writer.isOpened()
    for i in range(frames):
        image = np.full((120, 160, 3), shade(i), np.uint8)
        cv2.putText(image, str(i), (60, 70), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 255, 255), 2)
        writer.write(image)
    writer.release()
    return path


def read_all(source) -> list[Frame]:  # type: ignore[no-untyped-def]
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    return frames


def test_a_recorded_video_gives_its_frames_on_its_own_timeline(tmp_path: Path) -> None:
    source = open_source(str(write_video(tmp_path / "night.avi")))
    frames = read_all(source)
    source.close()
    assert [f.index for f in frames] == list(range(8))
    assert [f.t for f in frames] == pytest.approx([i / FPS for i in range(8)])
    assert [int(np.median(f.image)) for f in frames] == pytest.approx([shade(i) for i in range(8)], abs=4)
    assert frames[0].image.shape == (120, 160, 3) and frames[0].image.dtype == np.uint8


def write_folder(folder: Path, times: dict[str, float] | None) -> Path:
    folder.mkdir()
    for i in range(4):
        cv2.imwrite(str(folder / f"shot{i}.png"), np.full((30, 40, 3), shade(i), np.uint8))
    if times is not None:
        rows = "".join(f"{name},{t}\n" for name, t in times.items())
        (folder / "timestamps.csv").write_text("file,t\n" + rows)
    return folder


def test_an_image_folder_takes_its_times_from_timestamps_csv(tmp_path: Path) -> None:
    times = {"shot2.png": 105.25, "shot0.png": 100.0, "shot1.png": 100.5, "shot3.png": 106.0}
    frames = read_all(open_source(str(write_folder(tmp_path / "rec", times))))
    assert [f.t for f in frames] == [100.0, 100.5, 105.25, 106.0]
    assert [int(f.image[0, 0, 0]) for f in frames] == [shade(i) for i in range(4)]
    assert [f.index for f in frames] == [0, 1, 2, 3]


def test_an_image_folder_without_times_needs_a_frame_rate(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "rec", None)
    with pytest.raises(BadSourceSpec, match="fps"):
        open_source(str(folder))
    frames = read_all(open_source(str(folder), fps=4.0))
    assert [f.t for f in frames] == [0.0, 0.25, 0.5, 0.75]


def test_bad_timestamp_rows_are_all_named(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "rec", {"shot0.png": 1.0})
    (folder / "timestamps.csv").write_text("file,t\nshot0.png,soon\nshot1.png,2.0\n,3.0\n")
    with pytest.raises(BadSourceSpec, match="soon") as error:
        ImageFolderSource(folder)
    assert "row 4" in str(error.value)


@pytest.mark.parametrize("spec,error,named", [
    ("camera:left", BadSourceSpec, "'camera:left'"),
    ("/no/such/night.mp4", SourceUnavailable, "'/no/such/night.mp4'"),
    ("webcam", SourceUnavailable, "'webcam'"),
])
def test_bad_specs_are_named(spec: str, error: type[Exception], named: str) -> None:
    with pytest.raises(error, match=named):
        open_source(spec)


def test_a_missing_usb_camera_is_named() -> None:
    index = 57
    if Path(f"/dev/video{index}").exists():
        pytest.skip(f"/dev/video{index} exists here")
    with pytest.raises(SourceUnavailable, match=f"camera {index}"):
        open_source(f"camera:{index}")


def test_without_picamera2_the_error_says_what_to_install() -> None:
    try:
        importlib.import_module("picamera2")
        pytest.skip("picamera2 is installed here")
    except ImportError:
        pass
    with pytest.raises(SourceUnavailable) as error:
        open_source("picamera2")
    assert "sudo apt install python3-picamera2" in str(error.value)
    assert "--system-site-packages" in str(error.value)


def test_rendered_scenes_come_from_the_renderer_or_a_clear_error() -> None:
    try:
        importlib.import_module("vision.render.source")
    except ImportError:
        with pytest.raises(SourceUnavailable, match="vision.render.source"):
            open_source("render:hover")
        return
    source = open_source("render:hover")
    frame = source.read()
    source.close()
    assert frame is not None and frame.image.ndim == 3


class SteppedClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def unplugging(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A recorded camera whose file can be pulled away and put back, and how often it was opened."""
    video = write_video(tmp_path / "camera.avi", frames=4)
    away = tmp_path / "unplugged.avi"
    opened: list[float] = []
    clock = SteppedClock()

    def opener():  # type: ignore[no-untyped-def]
        opened.append(clock.now)
        return open_source(str(video))

    return video, away, opened, clock, opener


def test_camera_watch_survives_an_unplugged_camera(unplugging) -> None:  # type: ignore[no-untyped-def]
    video, away, opened, clock, opener = unplugging
    seen: list[CameraStatus] = []
    watch = CameraWatch(opener, "overhead camera", clock=clock, backoff=Backoff(1.0, 8.0, 2), on_change=seen.append)
    assert watch.status.state == "reconnecting"
    assert [f.index for f in iter(watch.read, None)] == [0, 1, 2, 3]  # ... then one read without
    assert watch.status.state == "ok"  # one dropped frame is forgiven

    video.rename(away)  # the recording has ended and the "camera" is gone
    assert watch.read() is None and watch.status.state == "missing"
    assert watch.status.level == "error" and "tablet" in watch.status.message
    assert watch.status.retry_at == clock.now + 1.0

    tries = []
    for _step in range(16):  # 8 seconds in half-second steps
        clock.now += 0.5
        assert watch.read() is None
        tries.append(len(opened))
    assert [t - 1 for t in sorted(set(tries))] == [0, 1, 2, 3]  # retried after 1 s, then 2 s, then 4 s
    assert np.diff([t for t in opened[1:]]).tolist() == [2.0, 4.0]

    away.rename(video)  # plugged back in
    clock.now = watch.status.retry_at or clock.now
    assert watch.read() is None and watch.status.state == "reconnecting"
    frame = watch.read()
    assert frame is not None and frame.index == 0 and watch.status.state == "ok"
    assert [s.state for s in seen] == ["reconnecting", "ok", "missing", "reconnecting", "ok"]
    watch.close()


class UnpluggableCamera:
    """A device back-end that behaves like a USB camera on a loose cable: while unplugged,
    reads raise the OSError a driver gives and opening fails."""

    def __init__(self) -> None:
        self.plugged, self.count = True, 0

    def open(self) -> UnpluggableCamera:
        if not self.plugged:
            raise SourceUnavailable("cannot open camera 0")
        return self

    def read(self) -> Frame | None:
        if not self.plugged:
            raise OSError(19, "No such device")
        self.count += 1
        return Frame(np.zeros((4, 4, 3), np.uint8), float(self.count), self.count - 1)

    def close(self) -> None:
        pass


def test_camera_watch_never_raises_into_the_game() -> None:
    camera, clock = UnpluggableCamera(), SteppedClock()
    camera.plugged = False
    watch = CameraWatch(camera.open, clock=clock, backoff=Backoff(1.0, 4.0, 1))
    assert watch.status.state == "missing" and "cannot open camera 0" in watch.status.message
    camera.plugged = True
    assert watch.read() is None  # not yet time to retry
    clock.now += 1.0
    watch.read()
    assert watch.read() is not None and watch.status.state == "ok"
    camera.plugged = False
    assert watch.read() is None and watch.status.state == "missing"
    for _ in range(5):
        clock.now += 10.0
        assert watch.read() is None
    assert "Trying again in 4 s" in watch.status.message  # the wait stops growing at the longest


FAKE_PICAMERA2 = '''
"""A stand-in picamera2 that behaves like one camera: XRGB8888-sized BGR buffers and metadata."""
import time
import numpy as np

class _Request:
    def __init__(self, camera):
        self.camera = camera
    def make_array(self, name):
        w, h = self.camera.size
        image = np.zeros((h, w, 4), np.uint8)
        image[..., 0] = 200  # blue, as picamera2's "RGB888" lays bytes out B, G, R
        return image
    def get_metadata(self):
        return {"SensorTimestamp": time.monotonic_ns() - 20_000_000}
    def release(self):
        self.camera.released += 1

class Picamera2:
    def __init__(self):
        self.size, self.started, self.released = None, False, 0
    def create_video_configuration(self, main):
        return {"main": main}
    def configure(self, config):
        assert config["main"]["format"] == "RGB888"
        self.size = config["main"]["size"]
    def start(self):
        self.started = True
    def capture_request(self):
        if not self.started:
            raise RuntimeError("camera not started")
        return _Request(self)
    def stop(self):
        self.started = False
    def close(self):
        pass
'''


def test_the_pi_camera_gives_bgr_frames_stamped_at_exposure(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import sys
    import time

    (tmp_path / "picamera2.py").write_text(FAKE_PICAMERA2)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    source = open_source("picamera2", size=(320, 240))
    frames = [source.read()]
    after = time.monotonic()
    frames.append(source.read())
    source.close()
    assert [f.index for f in frames if f] == [0, 1]
    first = frames[0]
    assert first is not None and first.image.shape == (240, 320, 3)
    assert first.image[0, 0].tolist() == [200, 0, 0]
    assert after - 0.5 < first.t <= after - 0.02  # the exposure, 20 ms before the request came back

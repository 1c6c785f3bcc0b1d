"""A recorded session as a folder of images, with the time of each in ``timestamps.csv``.

``timestamps.csv`` has a header row ``file,t`` and one row per image: its file name and the
monotonic time in seconds it was taken. Without it, images are taken in name order at ``fps``.
"""
from __future__ import annotations

import csv
from pathlib import Path

import cv2

from vision.frames import Frame
from vision.sources.errors import BadSourceSpec, SourceUnavailable

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")
TIMESTAMPS = "timestamps.csv"


def read_timestamps(path: Path) -> list[tuple[str, float]]:
    """(file name, t) rows in time order; every bad row is reported at once."""
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    problems = [f"row {i + 2}: {row!r}" for i, row in enumerate(rows) if not _is_row(row)]
    if problems or not rows:
        raise BadSourceSpec(f"{str(path)!r} needs rows `file,t` with t in seconds; bad: {problems or 'no rows'}")
    return sorted(((row["file"], float(row["t"])) for row in rows), key=lambda r: r[1])


def _is_row(row: dict[str, str]) -> bool:
    try:
        float(row.get("t") or "")
    except ValueError:
        return False
    return bool(row.get("file"))


class ImageFolderSource:
    """Images of a folder, one frame each, in time order."""

    def __init__(self, folder: str | Path, fps: float | None = None, start: float = 0.0) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise SourceUnavailable(f"no image folder at {str(self.folder)!r}")
        self._shots = self._timeline(fps, start)
        self._next = 0

    def _timeline(self, fps: float | None, start: float) -> list[tuple[Path, float]]:
        stamps = self.folder / TIMESTAMPS
        if stamps.is_file():
            return [(self.folder / name, t) for name, t in read_timestamps(stamps)]
        if not fps or fps <= 0:
            raise BadSourceSpec(f"image folder {str(self.folder)!r} has no {TIMESTAMPS}: give its frame rate (fps), got {fps!r}")
        images = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        return [(p, start + i / fps) for i, p in enumerate(images)]

    def read(self) -> Frame | None:
        if self._next >= len(self._shots):
            return None
        path, t = self._shots[self._next]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise SourceUnavailable(f"cannot read image {str(path)!r} of the recording")
        self._next += 1
        return Frame(image, t, self._next - 1)

    def close(self) -> None:
        self._next = len(self._shots)

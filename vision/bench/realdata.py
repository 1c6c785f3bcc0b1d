"""Where the real hand photos are: ``tests/data/realdata`` in the repository (sources and licences
in its ``SOURCES.md``). Only the hand benchmark and the tests read them; the table never does."""
from __future__ import annotations

from pathlib import Path

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")
REALDATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "realdata"


def hand_photos() -> list[Path]:
    """Every photo of the two hand folders of ``realdata/``, sorted by name."""
    folders = [REALDATA / "hands_mediapipe_samples", REALDATA / "hands_sign_digits"]
    photos = sorted(p for f in folders if f.is_dir() for p in f.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
    if not photos:
        raise FileNotFoundError(f"no hand photos under {str(REALDATA)!r}: run from a checkout of Incanto")
    return photos

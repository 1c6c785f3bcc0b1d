"""Where the shared real photos are: the ``shared`` folder beside the repository."""
from __future__ import annotations

import os
from pathlib import Path

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")


def shared_dir() -> Path:
    """``$INCANTO_SHARED`` if set, else ``../shared`` next to the repository root."""
    override = os.environ.get("INCANTO_SHARED")
    return Path(override) if override else Path(__file__).resolve().parents[2] / ".." / "shared"


def hand_photos() -> list[Path]:
    """Every photo of the two hand folders of ``realdata/``, sorted by name."""
    root = shared_dir() / "realdata"
    folders = [root / "hands_mediapipe_samples", root / "hands_sign_digits"]
    photos = sorted(p for f in folders if f.is_dir() for p in f.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
    if not photos:
        raise FileNotFoundError(f"no hand photos under {str(root)!r}: set INCANTO_SHARED to the shared folder")
    return photos

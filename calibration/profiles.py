"""Reading and writing the profile for the tool: every refusal a CalibrationError in plain words, and
the last good profile kept beside it.

Each profile the tool writes is also copied to ``NAME.last-good``. When the profile is refused
(damaged, stale, another camera resolution), ``load_kept`` says why and gives the last good one, so a
night can go on with what worked while the reason is shown.
"""
from __future__ import annotations

from pathlib import Path

from calibration.model import CalibrationError
from vision.profile import Profile, ProfileError, load_profile, save_profile

LAST_GOOD = ".last-good"


def last_good_path(path: Path) -> Path:
    return Path(path).with_name(Path(path).name + LAST_GOOD)


def load(path: Path, resolution: tuple[int, int] | None = None) -> Profile:
    try:
        return load_profile(Path(path), resolution)
    except ProfileError as e:
        raise CalibrationError(str(e)) from None


def save(profile: Profile, path: Path) -> None:
    """Write the profile and keep it as the last good one (both atomically)."""
    save_profile(profile, Path(path))
    save_profile(profile, last_good_path(path))


def load_kept(path: Path, resolution: tuple[int, int] | None = None) -> tuple[Profile, str | None]:
    """The profile, or, when it is refused, the last good one and the reason it was refused."""
    try:
        return load(path, resolution), None
    except CalibrationError as refused:
        kept = last_good_path(path)
        if not kept.exists():
            raise
        return load(kept, resolution), f"{refused}; using the last good profile ({str(kept)!r}) meanwhile"


def load_if_present(path: Path) -> Profile | None:
    return load(path) if Path(path).exists() else None

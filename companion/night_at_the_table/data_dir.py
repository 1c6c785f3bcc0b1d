"""Where a night's state lives: one data directory, never the source tree.

``--data-dir`` if given, else ``$XDG_DATA_HOME/incanto`` (``~/.local/share/incanto``); the system
service uses ``/var/lib/incanto`` (its ``StateDirectory``). Inside it:

    incanto.sqlite      the nights and their games (the latest night resumes)
    calibration.json    what ``python -m calibration`` measured (unless $INCANTO_CALIBRATION says where)
    cue/templates/      the group's own "In-can-to!" (unless $INCANTO_CUE_TEMPLATES says where)
    settings.json       the display's and the table side's settings, if the table has any
"""
from __future__ import annotations

import os
from pathlib import Path

STORE, CALIBRATION, CUE_TEMPLATES, SETTINGS = "incanto.sqlite", "calibration.json", "cue/templates", "settings.json"


def default() -> Path:
    xdg = os.environ.get("XDG_DATA_HOME", "")
    # The XDG spec: a relative value is invalid and must be ignored.
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "incanto"


def prepare(folder: Path | None) -> Path:
    """The data directory, made if it is missing (OSError when it cannot be)."""
    folder = Path(folder) if folder is not None else default()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def calibration(folder: Path) -> Path:
    return Path(os.environ.get("INCANTO_CALIBRATION") or folder / CALIBRATION)


def cue_templates(folder: Path) -> Path:
    return Path(os.environ.get("INCANTO_CUE_TEMPLATES") or folder / CUE_TEMPLATES)

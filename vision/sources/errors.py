"""Errors of the camera seam: each is also the built-in it resembles, and names the bad value."""
from __future__ import annotations


class BadSourceSpec(ValueError):
    """A source description that cannot be read, e.g. ``'camera:left'``."""


class SourceUnavailable(OSError):
    """A source that was understood but cannot be opened now (no camera, missing file)."""

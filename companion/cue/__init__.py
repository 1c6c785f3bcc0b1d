"""The cue: the moment the holder of wand 4 finishes calling "In-can-to!" and every wand points.

It can come from the spoken chant (``detector``), the cue button on the hub or a GPIO pin, or the
button on the tablet (``sources``); all of them report the same small ``Cue`` value.
"""
from __future__ import annotations

from dataclasses import dataclass


class CueError(ValueError):
    """A bad value given to the cue: a player name, a setting, a template folder."""


@dataclass(frozen=True)
class Cue:
    """A cue was given. ``t_end`` is host monotonic time (``time.monotonic()``) when the last
    syllable ended or the button went down: the moment the pointing starts. ``player`` and
    ``distance`` say whose enrolled chant matched and how closely (None for buttons)."""

    source: str
    t_end: float
    player: str | None = None
    distance: float | None = None


__all__ = ["Cue", "CueError"]

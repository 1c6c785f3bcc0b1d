"""Input events: small immutable values that every source (hub, GPIO, tablet, microphone) emits."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Press:
    """A wand's button went down. `hub_us`: the source's microsecond clock at the first touch;
    `host_t`: the same moment on the host's `time.monotonic()` clock (as well as it is known)."""

    wand: int
    hub_us: int
    host_t: float


@dataclass(frozen=True)
class Release:
    wand: int
    hub_us: int
    host_t: float


@dataclass(frozen=True)
class CueHeard:
    """The cue: `t_end` is the host monotonic time the last syllable ended (or the cue button was
    pressed), which is when the pointing starts. `source`: "hub", "gpio", "tablet" or "microphone"."""

    source: str
    t_end: float


@dataclass(frozen=True)
class RaceArmed:
    race: int
    hub_us: int


@dataclass(frozen=True)
class RaceWon:
    """The first press of a race by source timestamps. `tie`: every wand that pressed in the same
    microsecond, in seating order (empty when the win was clean); `wand` is the first of them."""

    wand: int
    hub_us: int
    tie: tuple[int, ...] = ()
    race: int = 0


@dataclass(frozen=True)
class EarlyPress:
    """A press during a race from a wand still locked out for pressing before the race was armed."""

    race: int
    wand: int
    hub_us: int


@dataclass(frozen=True)
class TipPressed:
    """A wand's tip bead is pressed against something (a token, the table): its tip switch closed.
    `hub_us`: the first contact of that change on the source's clock. Not a press: it never races.
    A hub also sends it, stamped with that change, when asked for every tip's state (TIPS)."""

    wand: int
    hub_us: int
    host_t: float


@dataclass(frozen=True)
class TipLifted:
    """A wand's tip bead is in the air (its tip switch open). `hub_us` 0: it never touched since the
    hub started (or no switch is fitted: an open switch and no switch read the same)."""

    wand: int
    hub_us: int
    host_t: float


InputEvent = Press | Release | CueHeard | RaceArmed | RaceWon | EarlyPress | TipPressed | TipLifted

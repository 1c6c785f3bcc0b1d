"""Input events as proposals for the rules engine: plain dicts the engine validates before use.

A press names its wand and its hub time; a race result names the winner by hub timestamps and
every tied wand; a cue says when the last syllable ended on the host's monotonic clock.
"""
from __future__ import annotations

from functools import singledispatch
from typing import Any
from collections.abc import Callable

from companion.inputs.events import (CueHeard, EarlyPress, InputEvent, Press, RaceArmed, RaceWon, Release, TipLifted,
                                     TipPressed)

Proposal = dict[str, Any]


@singledispatch
def proposal(event: object) -> Proposal:
    raise TypeError(f"not an input event: {event!r}")


@proposal.register
def _press(event: Press) -> Proposal:
    return {"type": "press", "wand": event.wand, "hub_us": event.hub_us, "t": event.host_t}


@proposal.register
def _release(event: Release) -> Proposal:
    return {"type": "release", "wand": event.wand, "hub_us": event.hub_us, "t": event.host_t}


@proposal.register
def _race_armed(event: RaceArmed) -> Proposal:
    return {"type": "race_armed", "race": event.race, "hub_us": event.hub_us}


@proposal.register
def _race_won(event: RaceWon) -> Proposal:
    return {"type": "race_won", "race": event.race, "wand": event.wand, "hub_us": event.hub_us,
            "tie": list(event.tie)}


@proposal.register
def _early(event: EarlyPress) -> Proposal:
    return {"type": "early_press", "race": event.race, "wand": event.wand, "hub_us": event.hub_us}


@proposal.register
def _cue(event: CueHeard) -> Proposal:
    return {"type": "cue", "source": event.source, "t_end": event.t_end}


def tablet_cue(t_end: float) -> CueHeard:
    """The cue button on the tablet: `t_end` is the host monotonic time it was pressed."""
    return CueHeard("tablet", t_end)


def to_engine(submit: Callable[[Proposal], None]) -> Callable[[InputEvent], None]:
    """An `on_event` for a HubLink or GpioWands that hands every event on as a proposal. Tip switches
    are left out: they tell the camera how to read a casting, the rules never hear of them."""
    def forward(event: InputEvent) -> None:
        if not isinstance(event, (TipPressed, TipLifted)):
            submit(proposal(event))
    return forward

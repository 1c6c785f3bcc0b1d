"""The race rule from the host side, and input events as engine proposals."""
from __future__ import annotations

import pytest

from companion.inputs.events import CueHeard, EarlyPress, Press, RaceWon, Release, TipLifted, TipPressed
from companion.inputs.proposals import proposal, tablet_cue, to_engine
from companion.inputs.race import Referee, seating_order


def test_seating_order_starts_with_the_catcher_and_goes_clockwise() -> None:
    assert seating_order(5, [2, 5, 7, 1]) == (5, 7, 1, 2)


def test_seating_order_refuses_a_wand_not_at_the_table() -> None:
    with pytest.raises(ValueError, match="wand 4"):
        seating_order(4, [2, 5])


def test_referee_lockout_expires() -> None:
    referee = Referee(lockout_us=500_000)
    assert referee.press(3, 1_000) is None
    referee.arm(2, 100_000)
    assert referee.press(3, 400_000) == EarlyPress(2, 3, 400_000)
    assert referee.press(3, 600_000) == RaceWon(3, 600_000, (), 2)
    assert referee.race is None


def test_a_press_from_before_arming_cannot_win_and_locks_the_wand_out() -> None:
    referee = Referee(lockout_us=100)
    referee.arm(1, 50)
    assert referee.press(1, 40) == EarlyPress(1, 1, 40)
    assert referee.press(1, 120) == EarlyPress(1, 1, 120)
    assert referee.press(1, 150) == RaceWon(1, 150, (), 1)


@pytest.mark.parametrize("event, expected", [
    (Press(3, 10, 1.5), {"type": "press", "wand": 3, "hub_us": 10, "t": 1.5}),
    (Release(3, 20, 1.6), {"type": "release", "wand": 3, "hub_us": 20, "t": 1.6}),
    (RaceWon(5, 30, (5, 2), 9), {"type": "race_won", "race": 9, "wand": 5, "hub_us": 30, "tie": [5, 2]}),
    (EarlyPress(9, 4, 25), {"type": "early_press", "race": 9, "wand": 4, "hub_us": 25}),
    (CueHeard("microphone", 12.25), {"type": "cue", "source": "microphone", "t_end": 12.25}),
    (tablet_cue(3.0), {"type": "cue", "source": "tablet", "t_end": 3.0}),
])
def test_events_become_proposals(event: object, expected: dict) -> None:
    assert proposal(event) == expected


def test_anything_else_is_not_a_proposal() -> None:
    with pytest.raises(TypeError, match="'press'"):
        proposal("press")


def test_tip_switches_never_reach_the_rules_engine() -> None:
    submitted: list[dict] = []
    forward = to_engine(submitted.append)
    for event in (TipPressed(2, 10, 1.0), Press(2, 10, 1.0), TipLifted(2, 20, 1.1)):
        forward(event)
    assert submitted == [{"type": "press", "wand": 2, "hub_us": 10, "t": 1.0}]

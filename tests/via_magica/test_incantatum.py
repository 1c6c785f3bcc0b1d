"""INCANTATUM! on the button wands: the wand hub's own race code (firmware/hub.py, as the Pico runs it)
decides who called first by its timestamps; its WIN line, decoded by the host, becomes the action."""
from __future__ import annotations

from random import Random
from typing import Any

import pytest

from companion.inputs.events import RaceWon
from companion.inputs.firmware import hub_module
from companion.inputs.protocol import MessageDecoder, unframe
from companion.inputs.race import seating_order
from tests.firmware.fake_pins import Buttons, Leds
from companion.games.via_magica.steps import SelectPortal
from via_magica_helpers import RULES, act, position

WANDS = {1: "Tom", 2: "Paola", 3: "Lera"}  # wand number -> who holds it; seats clockwise Tom, Paola, Lera


def race(presses: dict[int, int], catcher_wand: int) -> RaceWon:
    """Arm the hub with the Catcher's seating order, hold each wand's button down from its time (µs),
    scan as the Pico does, and decode the WIN line the hub writes."""
    firmware, lines, clock = hub_module(), list[bytes](), [0]
    hub = firmware.Hub(Buttons(), Leds(), lambda: clock[0], lambda a, b: a - b, lines.append, n_wands=3)
    hub.cmd_arm(["7", ",".join(map(str, seating_order(catcher_wand, [1, 2, 3])))])
    for now in range(clock[0], clock[0] + 5000, 50):
        clock[0] = now
        hub.inputs.mask = sum(1 << (w - 1) for w, at in presses.items() if now >= at)
        hub.poll()
    wins = [unframe(line.strip())[1] for line in lines if b" WIN " in line]
    assert len(wins) == 1, lines
    won = MessageDecoder(3).decode(wins[0][0], wins[0][1:], 0.0)
    assert isinstance(won, RaceWon)
    return won


def incantatum(won: RaceWon) -> dict[str, Any]:
    """The race's result as the game's action: the winner, and every wand of the same instant."""
    action: dict[str, Any] = {"type": "incantatum", "first": WANDS[won.wand]}
    if won.tie:
        action["tie"] = [WANDS[w] for w in won.tie]
    return action


@pytest.fixture
def everyone_full() -> Any:
    """Tom, Paola and Lera each one Fire away from opening a portal; Tom is the Catcher."""
    players = {"Tom": {"stockpile": 5, "area": {"P36a": [0, 1]}},  # Water Water Fire
               "Paola": {"stockpile": 5, "area": {"P36b": [0, 1]}},
               "Lera": {"stockpile": 5, "area": {"P37a": [0, 1]}}}  # Air Life Fire
    state = position(players, catcher="Tom")
    return act(state, {"type": "draw", "animus": "Fire"},
               *({"type": "crystal", "player": p, "to": {"portal": portal, "space": 2}}
                 for p, portal in (("Tom", "P36a"), ("Paola", "P36b"), ("Lera", "P37a"))))


def order_after(state: Any, action: dict[str, Any]) -> list[str]:
    after = RULES.apply(state, RULES.parse_action(action), Random(0))
    return next(e["order"] for e in after.notes if e["event"] == "incantatum")


def test_the_first_to_call_plays_first_then_to_their_left(everyone_full: Any) -> None:
    won = race({2: 1000, 3: 1600, 1: 2400}, catcher_wand=1)  # Paola first, then Lera, then Tom
    action = incantatum(won)
    assert action == {"type": "incantatum", "first": "Paola"}
    assert RULES.check(everyone_full, action) == []
    assert order_after(everyone_full, action) == ["Paola", "Lera", "Tom"]


def test_calls_in_the_same_instant_go_to_the_catcher_first(everyone_full: Any) -> None:
    won = race({2: 1000, 1: 1000}, catcher_wand=1)
    assert won.tie == (1, 2)
    action = incantatum(won)
    assert action == {"type": "incantatum", "first": "Tom", "tie": ["Tom", "Paola"]}
    assert order_after(everyone_full, action) == ["Tom", "Paola", "Lera"]


def test_without_the_catcher_the_same_instant_goes_to_the_catchers_left(everyone_full: Any) -> None:
    won = race({3: 1000, 2: 1000}, catcher_wand=1)
    action = incantatum(won)
    assert action["first"] == "Paola" and action["tie"] == ["Paola", "Lera"]
    assert order_after(everyone_full, action) == ["Paola", "Lera", "Tom"]


def test_a_tie_entered_in_the_wrong_order_is_refused_and_nothing_changes(everyone_full: Any) -> None:
    before = RULES.public_view(everyone_full)
    problems = RULES.check(everyone_full, {"type": "incantatum", "first": "Lera", "tie": ["Paola", "Lera"]})
    assert [(p.rule, p.player) for p in problems] == [("incantatum-tie", "Lera")]
    assert "Paola" in problems[0].message
    assert RULES.public_view(everyone_full) == before


def test_a_tie_naming_a_player_twice_is_refused_and_nothing_is_stored(everyone_full: Any) -> None:
    problems = RULES.check(everyone_full, {"type": "incantatum", "first": "Paola", "tie": ["Paola", "Paola"]})
    assert [(p.rule, p.player, p.target) for p in problems] == [("incantatum-tie", "Paola", "Paola")]
    assert "twice" in problems[0].message


def test_only_a_player_who_opened_a_portal_can_call() -> None:
    state = position({"Tom": {"stockpile": 5, "area": {"P36a": [0, 1]}},
                      "Paola": {"stockpile": 7, "area": {"P34a": []}}}, catcher="Tom")
    state = act(state, {"type": "draw", "animus": "Fire"},
                {"type": "crystal", "player": "Tom", "to": {"portal": "P36a", "space": 2}})
    problems = RULES.check(state, {"type": "incantatum", "first": "Paola"})
    assert [(p.rule, p.player, p.target) for p in problems] == [("incantatum", "Paola", "Paola")]


def test_a_slower_opener_still_plays_this_turn_in_their_seats_place() -> None:
    players = {"Tom": {"stockpile": 5, "area": {"P36a": [0, 1]}}, "Paola": {"stockpile": 5, "area": {"P36b": [0, 1]}},
               "Lera": {"stockpile": 5, "area": {"P37a": [0, 1]}}}
    state = act(position(players, catcher="Tom"), {"type": "draw", "animus": "Fire"},
                {"type": "crystal", "player": "Tom", "to": {"portal": "P36a", "space": 2}},
                {"type": "crystal", "player": "Paola", "to": {"portal": "P36b", "space": 2}},
                {"type": "incantatum", "first": "Paola"})
    assert state.pending == SelectPortal("Paola", 1) and state.order == ("Paola", "Tom")
    in_time = act(state, {"type": "crystal", "player": "Lera", "to": {"portal": "P37a", "space": 2}})
    assert in_time.order == ("Paola", "Lera", "Tom") and in_time.pending == SelectPortal("Paola", 1)
    in_time = act(in_time, {"type": "portal", "player": "Paola", "take": "P20a"})
    assert in_time.pending == SelectPortal("Lera", 1)
    too_late = act(state, {"type": "portal", "player": "Paola", "take": "P20a"})
    assert too_late.pending == SelectPortal("Tom", 1)
    too_late = act(too_late, {"type": "crystal", "player": "Lera", "to": {"portal": "P37a", "space": 2}})
    assert too_late.order == ("Paola", "Tom", "Lera")  # Lera's place came before Tom's: she plays last
    too_late = act(too_late, {"type": "portal", "player": "Tom", "take": "P21a"})
    assert too_late.pending == SelectPortal("Lera", 1)
    assert RULES.check(too_late, {"type": "crystal", "player": "Lera", "to": {"portal": "P37a", "space": 0}})

"""INCANTATUM! at a live table: Via Magica's prompt asks for a race, the table side arms it on the simulated
hub behind a real socat pty, wands are pressed, and the hub's result reaches the engine as the game's
``incantatum`` action, with the players who hold the wands (by seat: Tom 1, Paola 2, Lera 3)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.inputs.events import RaceWon
from companion.inputs.gpio import GpioWiring
from companion.inputs.ptypair import PtyPair
from companion.inputs.simhub import SimHub
from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.tableside.hub import WandHub
from companion.tableside.notices import Notices
from companion.web.table import Table

from .conftest import device, wait_for

SEATS = ["Tom", "Paola", "Lera"]  # clockwise; each holds the button wand of their seat: 1, 2, 3
ROW = ["P20a", "P21a", "P22a", "P23a", "P24a"]
ONE_FIRE_AWAY = {"Tom": {"stockpile": 5, "area": {"P36a": [0, 1]}},  # Water Water Fire
                 "Paola": {"stockpile": 5, "area": {"P36b": [0, 1]}},
                 "Lera": {"stockpile": 5, "area": {"P37a": [0, 1]}}}  # Air Life Fire
PORTAL = {"Tom": "P36a", "Paola": "P36b", "Lera": "P37a"}


def via_magica(store: Store, status: StatusBoard, catcher: str) -> Table:
    night = Night.resume_or_start(store, "Race night")
    night.start_game("via_magica", SEATS, {"draws": "table"}, seed=1,
                     position={"catcher": catcher, "row": ROW, "players": ONE_FIRE_AWAY})
    return Table(night, status)


def place(table: Table, *players: str) -> None:
    for p in players:
        table.propose({"type": "crystal", "player": p, "to": {"portal": PORTAL[p], "space": 2}}, None, None)


def incantatums(table: Table) -> list[dict[str, Any]]:
    return [e["payload"] for e in table.history() if e["kind"] == "action" and e["payload"]["type"] == "incantatum"]


@pytest.fixture
def started(sim: SimHub, pty_pair: PtyPair, status: StatusBoard) -> Iterator[Any]:
    """A function starting the wand hub for a table; every hub started is stopped at the end."""
    made: list[WandHub] = []

    def start(table: Table) -> tuple[WandHub, Notices]:
        notices = Notices()
        made.append(WandHub(str(pty_pair.host_end), status, lambda cue: None, notices, table).start())
        assert wait_for(lambda: (device(status, "hub") or {}).get("level") == "ok"), status.snapshot()
        return made[-1], notices

    yield start
    for hub in made:
        hub.stop()


def test_the_first_press_of_an_opener_is_the_incantatum_and_a_refused_press_rearms_the_race(
        store: Store, status: StatusBoard, sim: SimHub, started: Any) -> None:
    table = via_magica(store, status, catcher="Tom")
    wands, notices = started(table)
    table.propose({"type": "draw", "animus": "Fire"}, None, None)
    assert "race" not in table.view()["legal"]  # nobody's portal is full yet: no race
    place(table, "Paola")
    assert table.view()["legal"]["race"] == {"action": "incantatum", "order": ["Tom", "Paola", "Lera"]}
    assert wait_for(lambda: notices.recent("race_armed"))
    place(table, "Lera")  # still the same prompt: the race already armed stays the one race
    sim.tap(1)  # Tom opened nothing: his press wins the race, the game refuses it, a new race is armed
    assert wait_for(lambda: len(notices.recent("race_armed")) == 2), notices.recent()
    assert "Tom won the race, but the game refused it" in notices.recent("race_result")[0]["message"]
    assert incantatums(table) == []
    sim.tap(3)
    sim.tap(2)
    assert wait_for(lambda: incantatums(table))
    assert incantatums(table) == [{"type": "incantatum", "first": "Lera"}]
    assert table.view()["order"] == ["Lera", "Paola"]  # from the first caller, to each one's left
    assert "race" not in table.view()["legal"]
    assert len(notices.recent("race_armed")) == 2


def test_presses_of_the_same_hub_microsecond_go_to_the_catcher_and_a_repeated_result_applies_once(
        store: Store, status: StatusBoard, sim: SimHub, started: Any) -> None:
    table = via_magica(store, status, catcher="Lera")  # Lera, then Tom, then Paola
    wands, notices = started(table)
    table.propose({"type": "draw", "animus": "Fire"}, None, None)
    place(table, "Tom", "Paola", "Lera")
    assert wait_for(lambda: notices.recent("race_armed"))
    sim.press_together(2, 3)  # Paola and Lera in the same scan: the Catcher Lera plays first, not wand 2
    assert wait_for(lambda: incantatums(table))
    sim.release(2)
    sim.release(3)
    assert incantatums(table) == [{"type": "incantatum", "first": "Lera", "tie": ["Lera", "Paola"]}]
    assert table.view()["order"] == ["Lera", "Tom", "Paola"]
    won = notices.recent("race")[0]
    wands.heard(RaceWon(3, 0, (3, 2), won["race"]))  # the same WIN line heard again after a glitch
    assert len(incantatums(table)) == 1
    assert notices.recent("race_result") == [] and len(notices.recent("race_armed")) == 1


def test_gpio_buttons_run_the_same_race_on_the_pis_pins(store: Store, status: StatusBoard) -> None:
    table = via_magica(store, status, catcher="Tom")
    factory = MockFactory()
    notices = Notices()
    wands = WandHub("gpio", status, lambda cue: None, notices, table, gpio_factory=factory).start()
    try:
        table.propose({"type": "draw", "animus": "Fire"}, None, None)
        place(table, "Tom", "Lera")
        assert wait_for(lambda: notices.recent("race_armed"))
        factory.pin(GpioWiring().wand_buttons[2]).drive_low()  # wand 3: Lera
        assert wait_for(lambda: incantatums(table))
        assert incantatums(table) == [{"type": "incantatum", "first": "Lera"}]
        assert table.view()["order"] == ["Lera", "Tom"]
    finally:
        wands.stop()

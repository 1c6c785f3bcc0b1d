"""Each wand's LED tells its player how the casting reads them: the hub's real firmware in the
MicroPython interpreter, behind a socat pty, driven by the table side while the rendered table is read.
What is asserted is what the firmware holds and drives on its LED pins."""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from companion.cue import Cue
from companion.inputs.link import HubOffline
from companion.inputs.ptypair import PtyPair
from companion.night_at_the_table.rendered import RenderedTable
from companion.status import StatusBoard
from companion.tableside import TableSide, TableSideConfig
from companion.tableside.lights import BLINK, OFF, STEADY, WandLights
from companion.tableside.places import standard_places
from companion.web.table import Table
from tests.firmware.micropython_hub import MicroPythonHub, blinks
from vision.decide import MISSING, NONE, TARGET, UNSURE, CastingSoFar, WandReading

from .conftest import wait_for

TARGETS = {"Lera": "r1", "Kirill": "r4", "Katya": "r6", "Rosa": "r6"}


@pytest.fixture
def rendered(table: Table) -> RenderedTable:
    """Players who keep their tips down until their LEDs go out, as the table card teaches: the casting
    then closes on the LEDs, not on a player who went back to rest while a slow machine drew the table."""
    view = table.view()
    table_ = RenderedTable(standard_places(), [p["name"] for p in view["players"]], view["wands"], hold_s=8.0)
    table_.lay_out(list(view["legal"]["tokens"]))
    return table_


@pytest.fixture
def mp_hub(pty_pair: PtyPair) -> Iterator[MicroPythonHub]:
    with MicroPythonHub(pty_pair.hub_end) as hub:
        yield hub


def reading(wand: int, status: str) -> WandReading:
    return WandReading(wand, status, "r1" if status == TARGET else None, 1.0, None, {}, "band", "r1")


@pytest.fixture
def side(make_side: Callable[..., TableSide], mp_hub: MicroPythonHub, pty_pair: PtyPair, rendered: RenderedTable,
         calibration: Path, status: StatusBoard) -> TableSide:
    """The table side on the rendered table, its hub the real firmware behind the pty, connected."""
    side = make_side(TableSideConfig(hub=str(pty_pair.host_end), camera="render", calibration=calibration),
                     opener=lambda: rendered)
    assert wait_for(lambda: side.camera.sees and side.hub.link and side.hub.link.connected.is_set()), status.snapshot()
    return side


def test_a_read_wand_is_lit_steady_an_unsure_one_blinks_and_all_go_off_when_the_casting_closes(
        side: TableSide, mp_hub: MicroPythonHub, rendered: RenderedTable, table: Table) -> None:
    wands = table.view()["wands"]
    rosa = wands["Rosa"]
    seen = [wands[p] for p in TARGETS if p != "Rosa"]
    # Rosa's wand is under a sleeve: Incanto cannot tell where it points.
    start = rendered.point({wands[p]: t for p, t in TARGETS.items()}, hidden=[rosa])
    side.on_cue(Cue("tablet", start))

    def steady_and_blinking() -> bool:
        modes, levels, _ = mp_hub.snapshot()
        return all(modes[w - 1] == STEADY and levels[w - 1] == 1 for w in seen) and modes[rosa - 1] == BLINK

    assert wait_for(steady_and_blinking, 30), (mp_hub.snapshot(), side.reader.last)
    flips_when_read = mp_hub.snapshot()[2]
    # While the casting waits for Rosa, her LED pin goes on and off; the others stay lit, untouched.
    assert blinks(mp_hub, rosa, lambda c: bool(wait_for(c, 10))), mp_hub.snapshot()
    modes, levels, flips = mp_hub.snapshot()
    assert side.reader.count == 0                          # still waiting for her: no question yet
    assert all(levels[w - 1] == 1 and flips[w - 1] == flips_when_read[w - 1] for w in seen), mp_hub.snapshot()
    assert [modes[w - 1] for w in range(1, 9) if w not in wands.values()] == [OFF] * 4
    # Time runs out: the casting closes, every LED goes off, the tablet asks only about Rosa.
    assert wait_for(lambda: side.reader.count >= 1, 30)
    last = side.reader.last
    assert last is not None and last.outcome == "asked", last
    (question,) = table.questions.open()
    assert list(question["unsure"]) == ["Rosa"]
    assert wait_for(lambda: mp_hub.snapshot()[0] == [OFF] * 8 and mp_hub.snapshot()[1] == [0] * 8), mp_hub.snapshot()
    assert mp_hub.errors == []


def test_a_casting_read_at_once_lights_every_wand_steady_then_off(
        side: TableSide, mp_hub: MicroPythonHub, rendered: RenderedTable, table: Table) -> None:
    wands = table.view()["wands"]
    side.on_cue(Cue("tablet", rendered.point({wands[p]: t for p, t in TARGETS.items()})))
    assert wait_for(lambda: side.reader.count >= 1, 30)
    assert side.reader.last is not None and side.reader.last.outcome == "cast", side.reader.last
    # The firmware held each wand blinking from the cue, then steady once read, then off at the close.
    assert wait_for(lambda: mp_hub.snapshot()[0] == [OFF] * 8 and mp_hub.snapshot()[1] == [0] * 8), mp_hub.snapshot()
    for wand in wands.values():
        assert mp_hub.held(wand) == [OFF, BLINK, STEADY, OFF], (wand, mp_hub.history)


# The lights on their own ------------------------------------------------------------------------

class Leds:
    """A hub's LEDs as the firmware keeps them (mode per wand): unplugged, or plugged in a session."""

    def __init__(self) -> None:
        self.modes: dict[int, int] = {}
        self.commands = 0
        self.greeting: int | None = 1

    def light(self, wand: int, mode: int) -> None:
        if self.greeting is None:
            raise HubOffline("no hub connected")
        self.commands += 1
        self.modes[wand] = mode

    def session(self) -> int | None:
        return self.greeting


def frame(t: float, statuses: Mapping[int, str]) -> CastingSoFar:
    """A casting after one frame: wands at a target or at none taken as read."""
    return CastingSoFar(t, {wand: reading(wand, status) for wand, status in statuses.items()},
                        frozenset(wand for wand, status in statuses.items() if status in (TARGET, NONE)))


def test_only_changes_are_sent_and_a_pulled_cable_or_a_restarted_hub_is_survived() -> None:
    leds = Leds()
    leds.modes = {7: BLINK}                                # left blinking by a night that ended mid-casting
    lights = WandLights(leds.light, leds.session)
    watch = lights.began([1, 2, 3])
    assert watch is not None and leds.modes == {1: BLINK, 2: BLINK, 3: BLINK, 4: OFF, 5: OFF, 6: OFF, 7: OFF, 8: OFF}
    sent = leds.commands
    for _ in range(5):
        watch(frame(0.1, {1: TARGET, 2: NONE, 3: UNSURE}))
    assert [leds.modes[w] for w in (1, 2, 3)] == [STEADY, STEADY, BLINK] and leds.commands == sent + 2
    leds.greeting = None                                   # the cable is out
    watch(frame(0.2, {1: TARGET, 2: NONE, 3: MISSING}))
    watch(frame(0.3, {1: TARGET, 2: NONE, 3: TARGET}))     # wand 3 read while the cable was out
    leds.greeting, leds.modes = 2, {}                      # back: a restarted hub, every LED dark
    watch(frame(0.4, {1: TARGET, 2: NONE, 3: TARGET}))
    assert leds.modes == {1: STEADY, 2: STEADY, 3: STEADY}
    lights.closed(None)
    assert leds.modes == {1: OFF, 2: OFF, 3: OFF}


def test_at_the_close_a_read_wand_stays_lit_a_moment_and_an_unsure_one_goes_out_at_once() -> None:
    """Read on the closing frame itself, a wand is still seen steady; a new casting's LEDs are its own."""
    from vision.decide import CastingResult

    leds = Leds()
    lights = WandLights(leds.light, leds.session, shown_s=0.2)
    watch = lights.began([1, 2])
    assert watch is not None
    lights.closed(CastingResult({1: reading(1, TARGET), 2: reading(2, UNSURE)}, 1.0, 0.0))
    assert leds.modes[1] == STEADY and leds.modes[2] == OFF
    assert wait_for(lambda: leds.modes[1] == OFF, 5)
    lights.began([1, 2])
    lights.closed(CastingResult({1: reading(1, TARGET), 2: reading(2, TARGET)}, 1.0, 0.0))
    lights.began([1])  # the next casting begins before the last one's LEDs went out
    threading.Event().wait(0.5)
    assert leds.modes[1] == BLINK and leds.modes[2] == OFF  # not put out under the new casting; not in it: out


def test_without_wand_leds_nothing_is_lit_and_the_casting_is_not_held() -> None:
    leds = Leds()
    leds.greeting = None
    assert WandLights(leds.light, leds.session).began([1, 2]) is None
    assert leds.commands == 0


def test_the_lights_bench_refuses_a_bad_count_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.night_at_the_table import lights_bench
    assert lights_bench.main(["--castings", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.strip() == "--castings must be at least 1, not 0"

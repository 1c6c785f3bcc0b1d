"""The button wands at the table: a wand hub on USB serial, buttons on the Pi's GPIO pins, or none.

Whichever it is, its health is mirrored into the status board (connected, unplugged, old protocol,
garbled lines), the cue button gives the cue, and presses and races are shown on the display. A race
a game asks for in its legal actions (``legal["race"]``, Via Magica's INCANTATUM!) is armed on the
wands and its result proposed as the game's action (``race``); any other race result is proposed
only when the game is waiting for one (Incantibus never is).
"""
from __future__ import annotations

import logging
import os
import threading
import time
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Sequence

from companion.cue import Cue
from companion.errors import IncantoError
from companion.inputs.events import CueHeard, EarlyPress, InputEvent, Press, RaceArmed, RaceWon
from companion.inputs.link import PICO_PID, PICO_VID, PORT_ENV, HubLink, find_hub_port
from companion.inputs.protocol import PROTOCOL_VERSION
from companion.inputs.proposals import proposal
from companion.status import ERROR, OK, OFF, WARNING, StatusBoard
from companion.tableside.lights import WandLights
from companion.tableside.notices import Notices
from companion.tableside.race import RaceCaller, holders
from companion.tableside.table import Table
from companion.tableside.tips import WandTips
from companion.words.said import Said
from vision.decide import CastingResult, CastingWatch
from vision.touch import SILENT_CASTINGS, resting

if TYPE_CHECKING:  # gpiozero loads only when the buttons are on the Pi's pins
    from gpiozero.pins import Factory

    from companion.inputs.gpio import GpioWands

log = logging.getLogger("incanto.tableside")
MIRROR_EVERY_S = 0.2
GARBAGE_NEWS_S = 30.0  # garbled lines this recent make the hub's status a warning
REFLASH = Said("status.hub.reflash", "reflash the hub with mpremote (hardware.md, 'Flashing the hub')")
PLUG_BACK = Said("status.hub.plug_back", "plug the hub's USB cable back in")

OnCue = Callable[[Cue], None]


def link_report(snap: dict[str, Any], ever_connected: bool, garbage_recent: bool) -> tuple[str, str, str]:
    """(level, message, fix) for the status page from a ``HubLink.status.snapshot()``."""
    port = snap.get("port") or "its port"
    version = snap.get("protocol_version")
    if version is not None and version != PROTOCOL_VERSION:
        return (ERROR, Said("status.hub.protocol", "wand hub on {port} speaks protocol v{version} (firmware {firmware}), "
                            "Incanto speaks v{ours}: its buttons are ignored", port=port, version=version,
                            firmware=repr(snap.get("firmware")), ours=PROTOCOL_VERSION), REFLASH)
    if not snap.get("connected"):
        if ever_connected:
            return ERROR, Said("status.hub.unplugged", "wand hub unplugged ({why}); presses made meanwhile are fetched "
                               "when it is back", why=snap.get("last_error") or "no answer yet"), PLUG_BACK
        if snap.get("last_error"):
            return (ERROR, Said("status.hub.not_answering_why", "wand hub not answering on {port} ({why})", port=port,
                                why=snap["last_error"]), Said("status.hub.plug_back_or_port", f"{PLUG_BACK}, or start with --hub PORT"))
        return (ERROR, Said("status.hub.not_answering", "wand hub not answering on {port} (no answer yet)", port=port),
                Said("status.hub.plug_back_or_port", f"{PLUG_BACK}, or start with --hub PORT"))
    return _connected_report(snap, port, garbage_recent)


def _connected_report(snap: dict[str, Any], port: str, garbage_recent: bool) -> tuple[str, str, str]:
    hub = {"port": port, "firmware": str(snap.get("firmware")), "presses": snap.get("presses", 0)}
    on = "wand hub on {port}, firmware {firmware}: {presses} presses"
    if snap.get("lines_lost"):
        return (WARNING, Said("status.hub.lines_lost", on + "; {lost} lines never came back, a press may be missing",
                              lost=snap["lines_lost"], **hub),
                Said("status.hub.lines_lost_fix", "check the last race on the tablet and correct it there"))
    if snap.get("tip_switches") == "unsupported":
        return (WARNING, Said("status.hub.no_tips", on + "; its firmware has no tip switches, so the camera reads the "
                              "wands alone", **hub), REFLASH)
    if snap.get("garbage") and garbage_recent:
        return (WARNING, Said("status.hub.garbled", on + "; {garbled} garbled lines so far (all asked for again)",
                              garbled=snap["garbage"], **hub),
                Said("status.hub.garbled_fix", "check the hub's USB cable: a loose or very long cable garbles lines"))
    return OK, Said("status.hub.connected", on, **hub), ""


class WandHub:
    """``spec``: "auto" ($INCANTO_HUB_PORT, else the first port with the Pico's USB id), "gpio",
    "none", or a serial port / pyserial URL. ``tip_switches``: the group fitted the wands' tip
    switches; ``tips`` (vision's ``TipSwitches``) then says whether each wand's tip is down."""

    def __init__(self, spec: str, status: StatusBoard, on_cue: OnCue, notices: Notices,
                 table: Table | None = None, *, find_port: Callable[[], str | None] | None = None,
                 gpio_factory: Factory | None = None, tip_switches: bool = False) -> None:
        self.spec, self.status, self.on_cue, self.notices, self.table = spec, status, on_cue, notices, table
        self.find_port = find_port or (lambda: os.environ.get(PORT_ENV) or find_hub_port())
        self.gpio_factory = gpio_factory
        self.tips = WandTips(tip_switches, self._tip_session, self._report_tips)
        self.lights = WandLights(self.led, self._led_session)
        self.link: HubLink | None = None
        self.gpio: GpioWands | None = None
        self.races: RaceCaller | None = None
        self._stop = threading.Event()
        self._mirror: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._said: tuple[str, str, str] | None = None
        self._garbage = (0, 0.0)  # count, when it last grew

    # -- life cycle --------------------------------------------------------------------------

    def start(self) -> WandHub:
        if self.spec == "none":
            self._report(OFF, Said("status.hub.none", "no button wands (started with --hub none)"),
                         Said("status.hub.none_fix", "start with --hub auto to use a wand hub"))
        elif self.spec == "gpio":
            self._start_gpio()
        else:
            port = self.find_port() if self.spec == "auto" else self.spec
            if port is None:
                self._report(OFF, Said("status.hub.not_plugged", "no wand hub plugged in (USB {usb}): button wands are "
                                       "off, the cue comes from the microphone or the tablet", usb=f"{PICO_VID:04x}:{PICO_PID:04x}"),
                             Said("status.hub.not_plugged_fix", "plug the hub in and start again, or start with --hub PORT"))
            else:
                self._start_link(port)
        if self.table is not None and (self.link is not None or self.gpio is not None):
            self.races = RaceCaller(self.table, self._arm, self._disarm, self.notices).start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self.races is not None:
            self.races.stop()
        if self._mirror is not None:
            self._mirror.join(timeout=2)
        if self.link is not None:
            self.link.stop()
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self.gpio is not None:
            self.gpio.close()

    def _start_link(self, port: str) -> None:
        self._report(WARNING, Said("status.hub.hello", "wand hub on {port}: saying hello", port=port), "")
        # Named before it starts: its first lines (the tips' states) ask ``_tip_session`` which
        # link they came from, and a link not yet named would file them under no connection.
        self.link = HubLink(port, self.heard, tips=self.tips.fitted)
        self.link.start()
        self._mirror = threading.Thread(target=self._mirror_link, name="hub-status", daemon=True)
        self._mirror.start()

    def _start_gpio(self) -> None:
        from companion.inputs.gpio import GpioWands, pin_factory
        try:
            self.gpio = GpioWands(self.heard, factory=self.gpio_factory or pin_factory(), tips=self.tips.fitted)
        except (ImportError, ValueError, OSError) as e:  # no lgpio, a bad factory name, pins busy
            self.status.report("gpio", ERROR, Said("status.gpio.failed", "GPIO buttons could not start: {error}", error=str(e)),
                               Said("status.gpio.failed_fix",
                                    "on a Raspberry Pi install python3-lgpio; elsewhere set GPIOZERO_PIN_FACTORY=mock"))
            return
        factory = type(self.gpio.factory).__name__
        if "Mock" in factory:
            self.status.report("gpio", OK, Said("status.gpio.mock", "wand buttons on the Pi's GPIO pins, {factory} (mock pins: "
                                                "this is not a Raspberry Pi)", factory=factory))
        else:
            self.status.report("gpio", OK, Said("status.gpio.ok", "wand buttons on the Pi's GPIO pins, {factory}", factory=factory))
        self._report(OFF, Said("status.hub.gpio", "no wand hub: the buttons are on the Pi's GPIO pins"), "")
        # The green and red LEDs say at a glance whether the status page has something to say.
        self._unsubscribe = self.status.subscribe(lambda _: self._show_ready())
        self._show_ready()

    def _show_ready(self) -> None:
        if self.gpio is not None:
            self.gpio.show_ready(all(d["level"] != ERROR for d in self.status.snapshot()))

    # -- races (a game's ``legal["race"]``, see ``race``) -------------------------------------

    def _arm(self, race: int, order: tuple[int, ...]) -> None:
        if self.link is not None:
            self.link.arm(race, order)
        elif self.gpio is not None:
            self.gpio.arm(race, order)

    def _disarm(self, race: int) -> None:
        if self.link is not None:
            self.link.disarm(race)
        elif self.gpio is not None:
            self.gpio.disarm()

    # -- tip switches ------------------------------------------------------------------------

    def _tip_session(self) -> int | None:
        """The hub's greeting while it is connected (tips heard before a pulled cable or a restart are
        stale), None while it is not; GPIO pins stay put; no buttons, no tips."""
        if self.link is not None:
            return self.link.greetings if self.link.connected.is_set() else None
        return 0 if self.spec == "gpio" else None

    # -- the wands' LEDs and the casting (``reading.CastingWatcher``) ---------------------------

    def led(self, wand: int, mode: int) -> None:
        """Wand ``wand``'s LED: 0 off, 1 steady, 2 blinking (only a hub has wand LEDs)."""
        if self.link is not None:
            self.link.led(wand, mode)

    def _led_session(self) -> int | None:
        """The hub's greeting while it is connected (its LEDs as they were set in it), None without
        wand LEDs."""
        if self.link is not None and self.link.connected.is_set():
            return self.link.greetings
        return None

    def began(self, wands: Sequence[int]) -> CastingWatch | None:
        """A casting's reading begins: the LEDs follow it (and it waits for unsure wands while they
        blink); the tip switches' record starts."""
        self.tips.casting_began()
        return self.lights.began(wands)

    def closed(self, result: CastingResult | None) -> None:
        self.lights.closed(result)
        if result is not None:
            self.tips.casting_closed(resting(result))

    def _report_tips(self) -> None:
        """The status page's "tips" line: which wands' switches are doubted, and what to do."""
        doubted = self.tips.doubted()
        if not doubted:
            self.status.report("tips", OK, Said("status.tips.ok", "every wand's tip switch clicks"))
            return
        wands = ", ".join(map(str, doubted))
        castings = max(doubted.values())
        said = (Said("status.tips.doubted_one", "wand {wand}'s tip switch has not clicked in the last {castings} castings: "
                     "the camera reads that wand alone until it clicks again", wand=wands, castings=castings)
                if len(doubted) == 1 else
                Said("status.tips.doubted", "the tip switches of wands {wands} have not clicked in the last {castings} "
                     "castings: the camera reads them alone until they click again", wands=wands, castings=castings))
        self.status.report("tips", WARNING, said,
                           Said("status.tips.fix", "check its cable (the wand's plug pushed home), or press the tip down on the token"),
                           {"doubted": {str(w): n for w, n in doubted.items()}, "after": SILENT_CASTINGS})

    # -- status ------------------------------------------------------------------------------

    def _mirror_link(self) -> None:
        ever = False
        while not self._stop.wait(MIRROR_EVERY_S):
            assert self.link is not None
            snap = self.link.status.snapshot()
            ever = ever or bool(snap["connected"])
            self._report(*link_report(snap, ever, self._garbage_recent(snap["garbage"])), details=snap)

    def _garbage_recent(self, count: int) -> bool:
        seen, at = self._garbage
        if count > seen:
            self._garbage = (count, time.monotonic())
            return True
        return count > 0 and time.monotonic() - at < GARBAGE_NEWS_S

    def _report(self, level: str, message: str, fix: str, details: dict[str, Any] | None = None) -> None:
        said = (level, message, fix)
        if said != self._said:  # counters alone change every press: only news is pushed to the pages
            self._said = said
            self.status.report("hub", level, message, fix, details)

    # -- events (the link's or gpiozero's thread) -------------------------------------------

    def heard(self, event: InputEvent) -> None:
        self.tips.heard(event)
        if isinstance(event, CueHeard):
            self.on_cue(Cue(event.source, event.t_end))
        elif isinstance(event, Press):
            self.notices.say("press", f"{self._who(event.wand)} pressed", wand=event.wand,
                             words=("notice.press", {"player": self._who(event.wand)}))
        elif isinstance(event, RaceArmed):
            self.notices.say("race_armed", f"race {event.race}: the first to press wins", race=event.race,
                             words=("notice.race_armed", {"race": event.race}))
        elif isinstance(event, RaceWon):
            self._race_won(event)
        elif isinstance(event, EarlyPress):
            self.notices.say("early_press", f"{self._who(event.wand)} pressed too early in race {event.race}",
                             wand=event.wand, race=event.race,
                             words=("notice.early_press", {"player": self._who(event.wand), "race": event.race}))

    def _race_won(self, event: RaceWon) -> None:
        tied = ", ".join(self._who(w) for w in event.tie[1:])
        tie = f" (tied with {tied}; seating order decided)" if event.tie else ""
        said = ("notice.race_tied", {"player": self._who(event.wand), "tied": tied}) if event.tie \
            else ("notice.race", {"player": self._who(event.wand)})
        self.notices.say("race", f"{self._who(event.wand)} was first{tie}", wand=event.wand, race=event.race,
                         tie=list(event.tie), words=said)
        if self.races is None or not self.races.won(event):
            self._offer(proposal(event))

    def _offer(self, action: dict[str, Any]) -> None:
        """Propose an input to the engine only when the rules are waiting for that kind of action."""
        if self.table is None:
            return
        try:
            view = self.table.view()
            if view["legal"].get("kind") == action["type"]:
                self.table.propose(action, f"hub-{action['type']}-{action.get('race')}-{action.get('hub_us')}",
                                   view["version"])
        except IncantoError as e:
            log.info("the engine did not take %r: %s", action, e)

    def _who(self, wand: int) -> str:
        holder = None
        if self.table is not None:
            try:
                holder = holders(self.table.view()).get(wand)
            except IncantoError:
                pass
        return f"{holder} (wand {wand})" if holder else f"wand {wand}"

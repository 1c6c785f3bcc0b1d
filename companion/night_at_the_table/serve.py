"""``python -m companion serve``: a real night at the table (the display, the wand hub, the camera,
the cue), its state in one data directory."""
from __future__ import annotations

import argparse
import contextlib
import logging
import socket
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit
from typing import Any

import uvicorn
from fastapi import FastAPI

from calibration.desk import open_desk

from companion.announce import Announcer, Playback, SpeakerError, SpeakerSettings, join_code_words
from companion.night_at_the_table import (CannotStart, announce_join, backups, chime_at_the_cue, data_dir, display,
                                          listen_to_the_table, open_store, resume_night, screen, show_join_address,
                                          table_side)
from companion.night_at_the_table.backups import AfterEveryGame
from companion.night_at_the_table import speaker_route
from companion.night_at_the_table.join_led import JoinCodeLed, status_led
from companion.night_at_the_table import settings as night_settings
from companion.status import StatusBoard
from companion.cue.microphone import Microphone
from companion.tableside import TableSide, TableSideConfig
from companion.tableside.config import TableSideError, default_camera
from companion.tableside.places import load_places
from companion.web.routers import calibration as calibration_route
from companion.night_at_the_table.port import listen
from companion.web.serve import UVICORN
from vision.frames import Frame
from vision.touch import TipSwitches

# Flag -> (part of the settings file, key); a flag left out leaves the file's value (or the default).
FLAGS = {"host": ("display", "host"), "port": ("display", "port"), "join_code": ("display", "join_code"),
         "hub": ("table", "hub"), "camera": ("table", "camera"), "calibration": ("table", "calibration"),
         "vision_config": ("table", "vision_config"), "places": ("table", "places"), "mic": ("table", "mic"),
         "hands": ("table", "hands"), "tip_switches": ("table", "tip_switches"), "record": ("table", "record"),
         "mute": ("speaker", "mute"), "voice": ("speaker", "voice"), "volume": ("speaker", "volume")}


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m companion serve",
                                     description="A night at a real table: the display, the wand hub, the camera, the cue.")
    parser.add_argument("--data-dir", type=Path, help=f"where the night's state lives (default {data_dir.default()})")
    parser.add_argument("--store", type=Path, help=f"SQLite store (default: {data_dir.STORE} in the data directory)")
    parser.add_argument("--settings", type=Path, help=f"settings file (default: {data_dir.SETTINGS} in the data "
                                                      "directory, when there is one)")
    parser.add_argument("--host", help="address to listen on (default 0.0.0.0: every interface)")
    parser.add_argument("--port", type=int, help="default 8000")
    parser.add_argument("--join-code", help="six digits (default: a new random code each start)")
    parser.add_argument("--hub", metavar="auto|PORT|gpio|none",
                        help="button wands: a hub if one is plugged in (default), a serial port, GPIO pins, or none")
    parser.add_argument("--camera", metavar="SPEC|none",
                        help=f"the overhead camera: picamera2, camera:N, a video or folder, or none "
                             f"(default here: {default_camera()})")
    parser.add_argument("--calibration", type=Path, help=f"calibration file (default: $INCANTO_CALIBRATION, else "
                                                         f"{data_dir.CALIBRATION} in the data directory)")
    parser.add_argument("--vision-config", type=Path, help="vision settings JSON (default: vision's defaults)")
    parser.add_argument("--places", type=Path, help="where each token place and seat lies on the table "
                                                    "(default: the standard Incantibus layout)")
    parser.add_argument("--mic", action=argparse.BooleanOptionalAction,
                        help="listen for the spoken cue (default: on, when a chant is enrolled)")
    parser.add_argument("--hands", action=argparse.BooleanOptionalAction,
                        help="MediaPipe hands for a wand whose band is hidden (default: on)")
    parser.add_argument("--tip-switches", action=argparse.BooleanOptionalAction,
                        help="the wands' tip beads sit on push switches wired to the hub (default: off)")
    parser.add_argument("--mute", action=argparse.BooleanOptionalAction, help="the speaker says nothing (default: it speaks)")
    parser.add_argument("--voice", help="the speaker's espeak-ng voice, e.g. en-gb, en-us, de (default en-gb)")
    parser.add_argument("--volume", type=int, help="the speaker's volume, 0-100 (default 80)")
    parser.add_argument("--record", type=Path, metavar="DIR",
                        help="keep each casting's frames, cue and the table's answer in DIR, for "
                             "`python -m vision read --recording DIR` (default: not kept)")
    return parser.parse_args(argv)


def defaults(folder: Path | None) -> dict[str, dict[str, Any]]:
    """What a real table starts with: a hub if one is plugged in, the camera, the microphone, the hands."""
    table: dict[str, Any] = {"hub": "auto", "camera": default_camera(), "mic": True, "hands": True}
    if folder is not None:
        table |= {"calibration": data_dir.calibration(folder), "cue_templates": data_dir.cue_templates(folder)}
    return {"display": {}, "table": table, "speaker": {}}


def flags(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    given: dict[str, dict[str, Any]] = {"display": {}, "table": {}, "speaker": {}}
    for flag, (part, key) in FLAGS.items():
        if getattr(args, flag) is not None:
            given[part][key] = getattr(args, flag)
    return given


def settings_of(args: argparse.Namespace, folder: Path | None = None) -> night_settings.NightSettings:
    """The night's settings: defaults, the settings file, then the flags; CannotStart lists every problem.
    The file is checked on its own first, so what is left to refuse came from the command line."""
    path = args.settings or (folder / data_dir.SETTINGS if folder is not None else None)
    from_file = night_settings.read(path if args.settings or (path and path.exists()) else None)
    names = {f"{part}.{key}": f"--{flag.replace('_', '-')} ({part}.{key})" for flag, (part, key) in FLAGS.items()}
    return night_settings.merged(defaults(folder), from_file, flags(args), "command line", names)


def table_side_config(args: argparse.Namespace, folder: Path | None = None) -> TableSideConfig:
    return settings_of(args, folder).table_side()


def main(argv: list[str]) -> int:
    args = parse(argv)
    try:
        return _serve(args)
    except (CannotStart, OSError) as e:
        print(str(e) if isinstance(e, CannotStart) else f"cannot start: {e}", file=sys.stderr)
        return 2


def _serve(args: argparse.Namespace) -> int:
    folder = data_dir.prepare(args.data_dir)
    settings = settings_of(args, folder)
    config = settings.table_side()
    try:
        load_places(config.places)  # every file is checked before the store is opened or made
    except TableSideError as e:
        raise CannotStart(e.problems) from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    with listen(settings.display.host, settings.display.port) as sock, \
            open_store(args.store or folder / data_dir.STORE) as store:
        status = StatusBoard()  # one board: the devices report to it, the pages read it
        app = display(resume_night(store), status, settings.display)
        listen_to_the_table(app, AfterEveryGame(store.path, folder / backups.FOLDER))  # a backup when a game ends
        announcer = speaker(settings.speaker, status)
        if announcer is not None:
            listen_to_the_table(app, announcer)
            speaker_route.attach(app, announcer, speaker_route.keep_in(args.settings or folder / data_dir.SETTINGS))
        side = table_side(app, status, config)
        if announcer is not None:
            chime_at_the_cue(side, announcer)
        where = show_join_address(app, settings.display.host, sock.getsockname()[1])
        announce_join(app, where)  # the join code in force (kept in the store), at the Pi's LAN address
        camera = None if config.camera == "none" else side.camera.ring.latest
        with side, calibration_desk(app, config.calibration, camera, side.hub.tips, pi_microphone(side)), \
                contextlib.ExitStack() as extras:
            if announcer is not None:
                extras.enter_context(announcer)
            if not screen.attached():
                without_a_screen(app, announcer, extras, blink=config.hub != "gpio")
            serve_on(app, sock)
    return 0


def pi_microphone(side: TableSide) -> Callable[[], Any]:
    """The Pi's microphone for the setup's chant recording: while the cue's listener has it open, what
    it hears (a sound card opened twice is refused without a sound server); else the sound card."""
    return lambda: side.cue.overhear() if side.cue.hearing() else Microphone()


def without_a_screen(app: FastAPI, announcer: Announcer | None, extras: contextlib.ExitStack, blink: bool) -> None:
    """No screen shows the join code: the speaker says it, and the status LED blinks it until a tablet
    joins (not when the wand buttons are on the Pi's pins: that LED then says whether they are ready)."""
    sessions = app.state.sessions
    if announcer is not None:
        announcer.say(join_code_words(sessions.join_code, urlsplit(app.state.join_base).netloc, announcer.settings.language))
    lamp = status_led() if blink else None
    if lamp is not None:
        extras.enter_context(JoinCodeLed(lamp, lambda: sessions.join_code, lambda: sessions.count() == 0))


def speaker(settings: SpeakerSettings, status: StatusBoard) -> Announcer | None:
    """The announcer on the Pi's speaker (muted or not: a tablet may unmute it); None, and the status
    page says why, when it cannot speak at all."""
    try:
        announcer = Announcer(settings, Playback())
    except SpeakerError as e:
        status.report("speaker", "warning", f"no announcements: {e}", "install the espeak-ng package on the Pi and restart Incanto")
        return None
    return announcer  # on the status board once attached (``speaker_route.attach``)


def serve_on(app: FastAPI, sock: socket.socket) -> None:
    """Serve ``app`` on the socket opened at start until interrupted."""
    uvicorn.Server(uvicorn.Config(app, log_level="warning", **UVICORN)).run(sockets=[sock])


@contextlib.contextmanager
def calibration_desk(app: FastAPI, profile: Path | None, latest: Callable[[], Frame | None] | None,
                     tips: TipSwitches | None = None, microphone: Callable[[], Any] | None = None) -> Iterator[None]:
    """The guided calibration on the tablets (``/calibration``) on the camera the table side reads
    (``latest``: its newest picture), the hub's tip switches and the Pi's microphone (``microphone``:
    opens a cue sound source; the sound card unless told); with no camera the page says so."""
    if latest is None or profile is None:
        yield
        return
    desk = open_desk(profile, latest, tips=tips, microphone=microphone)
    calibration_route.attach(app, desk)
    try:
        yield
    finally:
        desk.chant.close()
        desk.feed.stop()

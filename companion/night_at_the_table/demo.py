"""``python -m companion demo``: a whole table working with no hardware at all.

A fresh night in a temporary store, four players at Incantibus, and bots playing a casting every
couple of seconds. Any game started from the night page is played by the same bots (all five games), and a
bot move that fails is reported on the status page and skipped: it never stops the bots. The table side
is the one a real night runs: the wand hub is the simulated hub (the
real firmware logic behind a real socat pty), whose cue button the caller presses before each casting;
the camera is the rendered table (``--camera render``, the default): the players are drawn pointing at
the bots' targets and the real vision pipeline reads them, proposing the casting or asking the tablets
when it is unsure. With ``--camera bots`` the bots' own targets are proposed, and now and then a
simulated doubt about one wand is put to the tablets. A question is answered by a tap on the controls
(or by a bot, after a while). When a game ends, the same game starts again with the same players.
"""
from __future__ import annotations

import argparse
import contextlib
import logging
import random
import shutil
import sys
import tempfile
import threading
import time
import webbrowser
from pathlib import Path
from typing import Any
from collections.abc import Iterator

from fastapi import FastAPI

from companion import settings_file
from companion.errors import IncantoError
from companion.announce import Announcer, SpeakerSettings
from companion.night_at_the_table import (CannotStart, announce_join, chime_at_the_cue, display, listen_to_the_table,
                                          open_store, resume_night, show_join_address, speaker_route, table_side)
from companion.night_at_the_table.port import listen
from companion.night import Night
from companion.night_at_the_table.rendered import RenderedTable
from companion.question import NOTHING, OUTLINES, AskedWand, CastQuestion, Choice
from companion.status import CALIBRATION_FIX, StatusBoard
from companion.tableside import TableSide, TableSideConfig, TableSideError
from companion.tableside.asking import place_names
from companion.tableside.places import TablePlaces, load_places
from companion.web.errors import UnknownQuestion
from companion.web.serve import running
from companion.web.settings import Settings
from companion.web.table import Table

log = logging.getLogger(__name__)

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]
UNSURE_EVERY = 3  # one casting in three, the camera asks about one wand
TAP_WAIT_S = 8.0  # how long a question waits for a tap before a bot answers it
READING_WAIT_S = 8.0  # a reading takes a second or two; after this the bots enter the casting themselves
SWAP_AFTER_S = 1.0  # the players hand their wands over this long after a contest...
FORGET_EVERY = 4  # ...but one swap in four is forgotten for a while, and the camera notices
FORGOTTEN_S = 7.0


class Bots:
    """The players at the demo table, and a camera that is sometimes unsure."""

    def __init__(self, table: Table, pace_s: float, rng: random.Random, status: StatusBoard | None = None) -> None:
        self.table, self.pace_s, self.rng, self.status = table, pace_s, rng, status
        self.castings = 0
        self.failures = 0  # moves that failed and were skipped
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(self.pace_s):
            self.step_safely()

    def step_safely(self) -> None:
        """One move; whatever goes wrong in it (a tablet moved the game on, a game the bots read wrongly)
        is logged and skipped, so the bots keep playing this game and every game started after it."""
        try:
            self.step()
        except IncantoError as e:  # refused: the table moved on under the bot; it chooses again
            log.info("a bot's move was refused: %s", e)
        except Exception as e:  # noqa: BLE001 - a bot must never stop the others, whatever the game did
            self.failures += 1
            log.exception("a bot's move failed")
            if self.status is not None:
                self.status.report("bots", "warning", f"a bot's move failed and was skipped: {type(e).__name__}: {e}",
                                   fix="nothing to do: the bots carry on; tell the developers if it repeats")

    def step(self) -> None:
        game = self.table.game
        action = game.rules.random_action(game.state, self.rng)
        if action is None:  # game over: a moment to look at the board, then the same game again
            if not self.stop.wait(self.pace_s * 4) and self.table.game is game:
                self.table.start_game(game.rules.name, game.players, game.options, seed=self.rng.randrange(2**31))
            return
        if action["type"] == "cast" and is_wand_casting(action, game.view()):
            self.castings += 1
            if self.castings % UNSURE_EVERY == 0:
                return self.ask_the_table(action, game.view())
        self.table.propose(action, f"bot-{game.version + 1}-{self.rng.randrange(2**31)}", game.version)

    def ask_the_table(self, action: dict[str, Any], view: dict[str, Any]) -> None:
        """What the camera would ask: one wand between the place it took and another."""
        wands = view["wands"]
        doubted = self.rng.choice(list(action["targets"]))
        seen = action["targets"][doubted]
        legal = view["legal"]["targets"][doubted]
        runner_up = self.rng.choice([t for t in legal if t != seen] or [None])
        offered = [t for t in (seen, runner_up) if t is not None]
        names = place_names(view, offered)
        choices = tuple(Choice(t, names[t], None, OUTLINES[i]) for i, t in enumerate(offered)) + (Choice(None, NOTHING),)
        question = self.table.ask(CastQuestion({p: t for p, t in action["targets"].items() if p != doubted},
                                               (AskedWand(doubted, wands[doubted], choices, "between"),), view["version"]))
        deadline = time.monotonic() + TAP_WAIT_S
        while time.monotonic() < deadline:
            if self.stop.wait(0.2) or not any(q["id"] == question.id for q in self.table.questions.open()):
                return  # stopping, or a tablet answered
        try:
            self.table.answer(question.id, {doubted: seen}, None)
        except (UnknownQuestion, ValueError):
            pass  # a tablet answered first, or the table moved on


class TableBots(Bots):
    """The same bots at the simulated table: before a casting the caller presses the hub's cue button
    while the rendered players point at the bots' targets, and the table side reads it like any night."""

    def __init__(self, table: Table, pace_s: float, rng: random.Random, side: TableSide,
                 rendered: RenderedTable, press_cue: Any, status: StatusBoard | None = None) -> None:
        super().__init__(table, pace_s, rng, status)
        self.side, self.rendered, self.press_cue = side, rendered, press_cue
        self.swaps = 0

    def step(self) -> None:
        game = self.table.game
        action = game.rules.random_action(game.state, self.rng)
        if action is not None and action["type"] == "cast" and self.can_draw(game.view()):
            self.castings += 1
            return self.cast(action, game.view())
        super().step()

    def can_draw(self, view: dict[str, Any]) -> bool:
        """The rendered table draws an Incantibus casting of the players it was laid out for; any other
        game's moves (a Grimoire spell is also a "cast") are entered as on the tablet."""
        return view.get("game") == "incantibus" and sorted(view.get("wands", {})) == sorted(self.rendered.players)

    def cast(self, action: dict[str, Any], view: dict[str, Any]) -> None:
        self.rendered.lay_out(list(view["legal"]["tokens"]))
        self.rendered.hold(view["wands"])
        before = self.side.reader.count
        self.rendered.point({view["wands"][p]: t for p, t in action["targets"].items()})
        self.press_cue()
        reading = self.wait_for_reading(before)
        if reading is not None and reading.outcome == "asked" and reading.question_id:
            self.answer_when_nobody_taps(reading.question_id, action)
        elif (reading is None or reading.outcome not in ("cast", "asked")) and not self.stop.is_set():
            with contextlib.suppress(IncantoError):  # as the table would: entered on the tablet
                self.table.propose(action, f"bot-{view['version'] + 1}-{self.rng.randrange(2**31)}", view["version"])
        self.hand_wands_over(view["version"])

    def wait_for_reading(self, before: int) -> Any:
        reader, deadline = self.side.reader, time.monotonic() + READING_WAIT_S
        with reader.finished:
            while reader.count == before and not self.stop.is_set() and time.monotonic() < deadline:
                reader.finished.wait(0.2)
            return reader.last if reader.count > before else None

    def answer_when_nobody_taps(self, question_id: str, action: dict[str, Any]) -> None:
        deadline = time.monotonic() + TAP_WAIT_S
        while time.monotonic() < deadline:
            if self.stop.wait(0.2) or not any(q["id"] == question_id for q in self.table.questions.open()):
                return
        with contextlib.suppress(IncantoError):  # a tablet answered first, or the table moved on
            question = self.table.questions.get(question_id)
            self.table.answer(question_id, {p: action["targets"][p] for p in question.unsure}, None)

    def hand_wands_over(self, version: int) -> None:
        """After a contest the players swap wands on the rendered table; one swap in a few is forgotten
        until the status page says so, and the table waits while they sort it out."""
        game = self.table.game
        if game.version == version or not any(c.get("swap") for c in (game.view().get("last_cast") or {}).get("claims", [])):
            return
        self.swaps += 1
        forgotten = self.swaps % FORGET_EVERY == 0
        if not self.stop.wait(FORGOTTEN_S if forgotten else SWAP_AFTER_S):
            self.rendered.hold(game.view()["wands"])


def is_wand_casting(action: dict[str, Any], view: dict[str, Any]) -> bool:
    """A casting the camera reads: every player's wand pointed at a token (Incantibus). A Grimoire
    spell is also of type "cast" but names a spell, not targets, and nobody's wand is read."""
    return isinstance(action.get("targets"), dict) and "wands" in view and "targets" in view.get("legal", {})


def simulated_devices(status: StatusBoard) -> None:
    """With ``--camera bots`` the bots' targets stand in for the camera."""
    status.report("camera", "ok", "simulated camera (demo, --camera bots): the bots' own targets",
                  words=("status.camera.demo", {}))
    status.report("calibration", "warning", "demo: no calibration on file", fix=CALIBRATION_FIX, details={"step": "camera"},
                  words=("status.calibration.demo", {}))


def demo_speaker(app: FastAPI, status: StatusBoard) -> Announcer | None:
    """The announcer on this machine's speaker, and the status page's Speaker part (changes are not kept)."""
    from companion.night_at_the_table.serve import speaker

    announcer = speaker(SpeakerSettings(), status)
    if announcer is not None:
        listen_to_the_table(app, announcer)
        speaker_route.attach(app, announcer, lambda _: None)
    return announcer


def demo_calibration(app: FastAPI, side: TableSide, folder: Path, chant: Path | None, camera: bool) -> Any:
    """The guided calibration (``/calibration``) on the rendered camera the table side reads; the Pi's
    microphone is this machine's, or ``chant`` played at real-time pace through the same seam."""
    from companion.cue.microphone import Microphone, PlayedSoundCard
    from companion.night_at_the_table.serve import calibration_desk

    if not camera:  # --camera bots: no picture to set up on
        return contextlib.nullcontext()
    microphone = None if chant is None else (lambda: Microphone(sound=PlayedSoundCard(chant)))
    return calibration_desk(app, folder / "calibration.json", side.camera.ring.latest, side.hub.tips, microphone)


def summary(side: TableSide) -> str:
    """What the table side did during the demo, in one line."""
    counts = ", ".join(f"{o} {n}" for o, n in sorted(side.reader.outcomes.items())) or "none"
    return f"castings read by the camera: {counts}; swaps found missing: {len(side.notices.recent('swap'))}"


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m companion demo", description=__doc__)
    parser.add_argument("--port", type=int, default=8000, help="default 8000; 0: any free port")
    parser.add_argument("--port-named", default="--port", help=argparse.SUPPRESS)  # `make demo` says PORT=
    parser.add_argument("--host", default="0.0.0.0", help="0.0.0.0: tablets on the LAN can watch too")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--seconds", type=float, help="stop after this long (default: until Ctrl-C)")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between the bots' moves")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--camera", choices=("render", "bots"), default="render",
                        help="render: the rendered table read by the real vision pipeline (default); "
                             "bots: the bots' own targets, with a simulated doubt now and then")
    parser.add_argument("--speak", action="store_true", help="announce the castings, races and winners on this "
                                                                "machine's speaker (espeak-ng), with a chime at each cue")
    parser.add_argument("--store", type=Path, help="keep the demo night in this SQLite store (default: a temporary one)")
    parser.add_argument("--chant", type=Path, help="the demo Pi's microphone plays this WAV file when the chant is "
                                                   "recorded on the calibration page (default: this machine's microphone)")
    parser.add_argument("--places", type=Path, help="lay the rendered table out from this layout file "
                                                    "(default: the standard Incantibus layout)")
    return parser.parse_args(argv)


@contextlib.contextmanager
def simulated_hub(folder: Path) -> Iterator[Any]:
    """The simulated hub behind a socat pty pair: yields (host end, simulated hub), or (None, None)
    when socat is not installed (the cue then comes from the tablet)."""
    if shutil.which("socat") is None:
        yield None, None
        return
    from companion.inputs.ptypair import PtyPair
    from companion.inputs.simhub import SimHub

    with PtyPair(folder / "hub", folder / "host") as pair, SimHub(pair.hub_end) as sim:
        yield str(pair.host_end), sim


def simulated_table_side(app: FastAPI, status: StatusBoard, folder: Path, port: str | None, camera: str,
                         places: TablePlaces) -> tuple[TableSide, RenderedTable | None]:
    """The real table side on the simulated devices: the hub on its pty, the rendered table's camera."""
    view = app.state.table.view()
    rendered, calibration = None, None
    if camera == "render":
        rendered = RenderedTable(places, [p["name"] for p in view["players"]], view["wands"])
        calibration = rendered.save_calibration(folder / "calibration.json")
    config = TableSideConfig(hub=port or "none", camera="render" if rendered else "none", calibration=calibration,
                             mic=False, swap_check_after_s=3.0)
    side = table_side(app, status, config, opener=(lambda: rendered) if rendered else None)
    return side, rendered


def main(argv: list[str]) -> int:
    args = parse(argv)
    try:
        settings = settings_file.validate(Settings, {"host": args.host, "port": args.port}, "settings", CannotStart)
        places = load_places(args.places)
        if args.chant is not None and not args.chant.is_file():
            raise CannotStart(f"--chant: no WAV file at {str(args.chant)!r}")
        if args.port:
            listen(args.host, args.port, args.port_named).close()  # a taken port: one line, before anything starts
        with tempfile.TemporaryDirectory(prefix="incanto-demo-") as folder:
            store_path = args.store or Path(folder) / "demo.sqlite"
            with open_store(store_path) as store, simulated_hub(Path(folder)) as (port, sim):
                night = resume_night(store, "Demo night")
                return play(args, settings, night, Path(folder), port, sim, places)
    except (CannotStart, TableSideError) as e:  # a store or a places file that cannot be used
        print(str(e), file=sys.stderr)
        return 2


def play(args: argparse.Namespace, settings: Settings, night: Night, folder: Path, port: str | None, sim: Any,
         places: TablePlaces) -> int:
    rng = random.Random(args.seed)
    night.start_game("incantibus", PLAYERS, seed=rng.randrange(2**31))
    status = StatusBoard()
    app = display(night, status, settings)
    announcer = demo_speaker(app, status) if args.speak else None
    side, rendered = simulated_table_side(app, status, folder, port, args.camera, places)
    if announcer is not None:
        chime_at_the_cue(side, announcer)
    with running(app, args.host, args.port) as local_url, side, announcer or contextlib.nullcontext(), \
            demo_calibration(app, side, folder, args.chant, rendered is not None):
        if rendered is None:
            simulated_devices(status)
        announce_join(app, show_join_address(app, args.host, int(local_url.rsplit(":", 1)[1])))
        print(f"On this machine: {local_url}/   controls: {local_url}/join?code={app.state.settings.join_code}", flush=True)
        press_cue = sim.cue if sim is not None else side.cue.tablet
        bots = (TableBots(app.state.table, args.pace, rng, side, rendered, press_cue, status) if rendered
                else Bots(app.state.table, args.pace, rng, status))
        playing = threading.Thread(target=bots.run, daemon=True, name="bots")
        playing.start()
        if not args.no_browser:
            webbrowser.open(f"{local_url}/")
        try:
            bots.stop.wait(args.seconds)  # None: until Ctrl-C
        except KeyboardInterrupt:
            print("\nDemo stopped.")
        bots.stop.set()
        playing.join(timeout=READING_WAIT_S + 2)  # the bots finish their move before the store closes
        print(summary(side), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

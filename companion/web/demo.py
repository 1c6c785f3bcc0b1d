"""``python -m companion demo``: the tablets working with no hardware at all.

A fresh night in a temporary store, four players at Incantibus, and bots playing a casting every
couple of seconds through the same door as the tablets. Now and then the simulated camera is unsure
of one wand: the question appears on the controls, and a tap answers it (or a bot does, after a
while). When a game ends, the next one starts.
"""
from __future__ import annotations

import argparse
import random
import tempfile
import threading
import time
import webbrowser
from pathlib import Path
from typing import Any

from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.web.app import create_app
from companion.web.errors import UnknownQuestion
from companion.web.serve import announce, running
from companion.web.settings import Settings
from companion.web.table import Table

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]
UNSURE_EVERY = 3  # one casting in three, the camera asks about one wand
TAP_WAIT_S = 8.0  # how long a question waits for a tap before a bot answers it


class Bots:
    """The players at the demo table, and a camera that is sometimes unsure."""

    def __init__(self, table: Table, pace_s: float, rng: random.Random) -> None:
        self.table, self.pace_s, self.rng = table, pace_s, rng
        self.castings = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(self.pace_s):
            self.step()

    def step(self) -> None:
        game = self.table.game
        action = game.rules.random_action(game.state, self.rng)
        if action is None:  # game over: a moment to look at the board, then the next game
            if not self.stop.wait(self.pace_s * 4):
                self.table.start_game("incantibus", PLAYERS, seed=self.rng.randrange(2**31))
            return
        if action["type"] == "cast":
            self.castings += 1
            if self.castings % UNSURE_EVERY == 0:
                return self.ask_the_table(action, game.view())
        self.table.propose(action, f"bot-{game.version + 1}-{self.rng.randrange(2**31)}", game.version)

    def ask_the_table(self, action: dict[str, Any], view: dict[str, Any]) -> None:
        """What the camera would send: targets by wand strength, one wand marked unsure."""
        wands = view["wands"]
        doubted = self.rng.choice(list(action["targets"]))
        seen = action["targets"][doubted]
        legal = view["legal"]["targets"][doubted]
        runner_up = self.rng.choice([t for t in legal if t != seen] or [None])
        reading = {"type": "cast", "source": "camera", "unsure": [wands[doubted]],
                   "targets": {str(wands[p]): t for p, t in action["targets"].items()}}
        question = self.table.ask(reading, candidates={wands[doubted]: [seen, runner_up]})
        deadline = time.monotonic() + TAP_WAIT_S
        while time.monotonic() < deadline:
            if self.stop.wait(0.2) or not any(q["id"] == question.id for q in self.table.questions.open()):
                return  # stopping, or a tablet answered
        try:
            self.table.answer(question.id, {doubted: seen}, None)
        except (UnknownQuestion, ValueError):
            pass  # a tablet answered first, or the table moved on


def simulated_devices(status: StatusBoard) -> None:
    status.report("camera", "ok", "simulated camera (demo): sees the whole table")
    status.report("hub", "ok", "simulated wand hub (demo): 4 wands")
    status.report("cue", "ok", "simulated cue detector (demo)")
    status.report("calibration", "warning", "demo: no calibration on file",
                  fix="run `python -m calibration` with the camera over the table before a real night")


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m companion demo", description=__doc__)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="0.0.0.0", help="0.0.0.0: tablets on the LAN can watch too")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--seconds", type=float, help="stop after this long (default: until Ctrl-C)")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between the bots' moves")
    parser.add_argument("--seed", type=int)
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse(argv)
    rng = random.Random(args.seed)
    settings = Settings(host=args.host, port=args.port)
    with tempfile.TemporaryDirectory(prefix="incanto-demo-") as folder, Store(Path(folder) / "demo.sqlite") as store:
        night = Night.resume_or_start(store, "Demo night")
        night.start_game("incantibus", PLAYERS, seed=rng.randrange(2**31))
        status = StatusBoard()
        app = create_app(night, status, settings)
        with running(app, args.host, args.port) as local_url:
            simulated_devices(status)
            announce(settings, int(local_url.rsplit(":", 1)[1]))
            print(f"On this machine: {local_url}/   controls: {local_url}/join?code={settings.join_code}", flush=True)
            bots = Bots(app.state.table, args.pace, rng)
            threading.Thread(target=bots.run, daemon=True, name="bots").start()
            if not args.no_browser:
                webbrowser.open(f"{local_url}/")
            try:
                bots.stop.wait(args.seconds)  # None: until Ctrl-C
            except KeyboardInterrupt:
                print("\nDemo stopped.")
            bots.stop.set()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(__import__("sys").argv[1:]))

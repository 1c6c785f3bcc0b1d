"""``python -m companion bench faults --json``: pulling the plug loses nothing, and no request breaks
the display.

    kills               times ``serve`` was killed with SIGKILL at a random moment while two tablets played
    acknowledged        actions a tablet was answered 200 for (undos included)
    acknowledged_lost   of those, entries missing or different in the store after a kill (must be 0)
    restarts_failed     restarts that did not come back with the same join code and the game at least as far
                        as every acknowledged tap (must be 0)
    rejoins             times a tablet's session was refused after a restart (sessions are kept: 0)
    fuzz_cases          requests schemathesis made from the OpenAPI schema (valid and invalid), with and
                        without a session
    fuzz_5xx            of those, answered with a server error (must be 0)
    fuzz_undeclared     of those, failing a schema check (a status or body the schema does not declare)
    join_while_spammed_success
                        share of a real tablet's join attempts (the right code, from its own address) that
                        succeed while wrong codes arrive from 10 other addresses as fast as they are refused
                        (floor 0.99)
    game_get_ms_p99_under_calibration_load
                        99th percentile of ``GET /api/game`` while 45 ten-second wand reads, table finds and
                        hostile calibration requests (huge boards, 1 Hz WAVs) are sent at once (floor 100 ms)
    calibration_cpu_s_max
                        the most CPU one calibration request cost in that run (floor 5 s)

``serve`` runs as a real subprocess on a real store file, as on the Pi; the two tablets are HTTP
clients that know only the API: each rebuilds the game from ``/api/game/history``, picks a random
legal move the way a player would, and taps it with an action id, retrying the same tap across a
restart as a page does.
"""
from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

import companion
from companion import games
from companion.engine.events import Event
from companion.engine.game import Game
from companion.engine.log import MemoryLog
from companion.figures import print_figures
from companion.store import Store

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]
GAME = "incantibus"
READY_S = 60.0  # a restart on a busy Pi: anything slower counts as failed
UNDO_EVERY = 12  # about one tap in this many is an undo, so undone branches are killed mid-way too
TAP_GAP_S = (0.0, 0.1)  # a quick player; the two tablets still race each other for the same version


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Serve:
    """``python -m companion serve`` on ``store``: no hub, no camera, no microphone."""

    def __init__(self, store: Path, port: int, log: Path) -> None:
        self.store, self.port, self.log = store, port, log
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[str] | None = None
        self.join_code: str | None = None

    def start(self) -> bool:
        """Start and wait until it answers; False if it did not."""
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(Path(companion.__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")])}
        command = [sys.executable, "-m", "companion", "serve", "--store", str(self.store), "--host", "127.0.0.1",
                   "--port", str(self.port), "--hub", "none", "--camera", "none", "--no-mic", "--no-hands"]
        with open(self.log, "a") as err:
            self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, text=True, env=env)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        self.join_code = line.rsplit("join code:", 1)[-1].strip() if "join code:" in line else None
        return self.join_code is not None and self._answers()

    def _answers(self) -> bool:
        deadline = time.monotonic() + READY_S
        while time.monotonic() < deadline and self.process is not None and self.process.poll() is None:
            with contextlib.suppress(httpx.TransportError):
                return httpx.get(f"{self.url}/api/night", timeout=5).status_code == 200
            time.sleep(0.05)
        return False

    def resumed(self, acks: list[dict[str, Any]]) -> bool:
        """The restarted display shows the game at least as far as every tap it acknowledged."""
        if not acks:
            return True
        with contextlib.suppress(httpx.TransportError, ValueError, KeyError):
            return int(httpx.get(f"{self.url}/api/game", timeout=10).json()["version"]) >= max(a["seq"] for a in acks)
        return False

    def kill(self) -> None:
        """SIGKILL: no goodbye, no flush, as when the plug is pulled."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()


def replica(history: list[dict[str, Any]]) -> Game:
    """The game as a tablet can know it: rebuilt from the public history."""
    log = MemoryLog()
    for e in history:
        log.append(Event(e["seq"], e["kind"], e["payload"], None, e["at"]))
    return Game(games.get(history[0]["payload"]["game"]), log)


class Tablet(threading.Thread):
    """A tablet at the table: joins once, then taps random legal moves until told to stop."""

    def __init__(self, name: str, url: str, code: str, seed: int) -> None:
        super().__init__(name=f"tablet-{name}", daemon=True)
        self.tablet, self.url, self.code = name, url, code
        self.rng = random.Random(seed)
        self.stop = threading.Event()
        self.acks: list[dict[str, Any]] = []  # every event a 200 answered, as the tablet was told it
        self.rejoins = 0
        self.taps = 0
        self.client = httpx.Client(base_url=url, timeout=10)

    def run(self) -> None:
        self._join()
        while not self.stop.wait(self.rng.uniform(*TAP_GAP_S)):
            with contextlib.suppress(httpx.TransportError, ValueError):
                self._tap_once()

    def _join(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(httpx.TransportError):
                if self.client.post("/api/session", json={"code": self.code}).status_code == 200:
                    return
            time.sleep(0.05)

    def _tap_once(self) -> None:
        answer = self.client.get("/api/game/history")
        if answer.status_code == 404:  # no game yet: this tablet starts one
            self._post("/api/night/games", {"game": GAME, "players": PLAYERS})
            return
        game = replica(answer.json())
        action = game.rules.random_action(game.state, self.rng)
        if action is None or self.rng.randrange(UNDO_EVERY) == 0:
            action = {"type": "undo"}
        self.taps += 1
        body = {"action": action, "action_id": f"{self.tablet}-{self.taps}", "base": game.version}
        if (event := self._post("/api/game/actions", body)) is not None:
            self.acks.append(event["event"])

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any] | None:
        """The same tap until the display answers it (across a restart), as a page retries."""
        while not self.stop.is_set():
            try:
                answer = self.client.post(path, json=body)
            except httpx.TransportError:
                time.sleep(0.05)
                continue
            if answer.status_code == 401:  # the session did not survive: a tablet would have to rejoin
                self.rejoins += 1
                self._join()
                continue
            return answer.json() if answer.status_code == 200 else None  # 409: the table moved on
        return None


def lost(store_path: Path, acks: list[dict[str, Any]]) -> int:
    """Acknowledged entries that the store does not hold exactly as the tablet was told them."""
    with Store(store_path) as store:
        night = store.latest_night()
        rows = store.games(night) if night is not None else []
        kept = {e.seq: e for e in store.events(rows[-1]["id"])} if rows else {}
    return sum(1 for a in acks if (e := kept.get(a["seq"])) is None or (e.kind, e.payload) != (a["kind"], a["payload"]))


def kill_runs(folder: Path, kills: int, seed: int, play_s: tuple[float, float] = (0.2, 1.2)) -> dict[str, Any]:
    """Two tablets play while ``serve`` is killed ``kills`` times at random moments and restarted."""
    rng = random.Random(seed)
    store, port, log = folder / "night.sqlite", free_port(), folder / "serve.log"
    server = Serve(store, port, log)
    if not server.start():
        raise RuntimeError(f"serve did not start; see {log}")
    code = server.join_code
    assert code is not None
    tablets = [Tablet(name, server.url, code, rng.randrange(2**31)) for name in ("north", "south")]
    for t in tablets:
        t.start()
    lost_now, restarts_failed = 0, 0
    try:
        for _ in range(kills):
            time.sleep(rng.uniform(*play_s))
            server.kill()
            acks = [a for t in tablets for a in list(t.acks)]
            lost_now = max(lost_now, lost(store, acks))
            server = Serve(store, port, log)
            restarts_failed += not (server.start() and server.join_code == code and server.resumed(acks))
    finally:
        for t in tablets:
            t.stop.set()
        for t in tablets:
            t.join(timeout=15)
        server.kill()
    acks = [a for t in tablets for a in t.acks]
    return {"kills": kills, "acknowledged": len(acks), "acknowledged_lost": max(lost_now, lost(store, acks)),
            "restarts_failed": restarts_failed, "rejoins": sum(t.rejoins for t in tablets)}


# -- fuzzing the API from its own schema ---------------------------------------------------------

def fuzz(cases_per_operation: int, seed: int) -> dict[str, Any]:
    """schemathesis over the display's OpenAPI schema, in process, valid and invalid requests, with
    and without a session."""
    try:
        import schemathesis
        from schemathesis.core.result import Ok
    except ImportError as e:
        return {"fuzz_cases": None, "fuzz_5xx": None, "fuzz_undeclared": None, "fuzz_note": f"not installed: {e}"}
    from fastapi.testclient import TestClient

    from companion.night import Night
    from companion.status import StatusBoard
    from companion.web.app import create_app
    from companion.web.settings import Settings

    with tempfile.TemporaryDirectory(prefix="incanto-fuzz-") as folder, Store(Path(folder) / "fuzz.sqlite") as store:
        night = Night.resume_or_start(store, "Fuzz night")
        night.start_game(GAME, PLAYERS, seed=seed)
        app = create_app(night, StatusBoard(), Settings(join_code="424242", actions_per_minute=10**6))
        schema = schemathesis.openapi.from_asgi("/openapi.json", app)
        fuzzer = Fuzzer(cases_per_operation)
        with TestClient(app) as tablet:
            tablet.post("/api/session", json={"code": "424242"})
            session = {"X-Incanto-Session": tablet.cookies["incanto_session"]}
            for result in schema.get_all_operations():
                if not isinstance(result, Ok):  # the schema itself is broken: that is a finding too
                    fuzzer.problems.add(f"invalid schema: {result.err()}")
                    continue
                for headers, mode in itertools.product(({}, session), schemathesis.GenerationMode):
                    fuzzer.run(result.ok(), mode, headers)
    return fuzzer.figures()


class Fuzzer:
    """Counts what the display answered to schemathesis's requests, and what broke a promise."""

    def __init__(self, cases_per_operation: int) -> None:
        from schemathesis.checks import (content_type_conformance, not_a_server_error,
                                         response_schema_conformance, status_code_conformance)
        self.cases_per_operation = cases_per_operation
        # What the display promises: no server error, and only the statuses and bodies its schema
        # declares. (A body the schema allows may still be refused by the rules: that is their job.)
        self.checks = [not_a_server_error, status_code_conformance, content_type_conformance,
                       response_schema_conformance]
        self.cases = self.server_errors = self.undeclared = 0
        self.problems: set[str] = set()

    def run(self, operation: Any, mode: Any, headers: dict[str, str]) -> None:
        from hypothesis import HealthCheck, given, settings
        from hypothesis.errors import Unsatisfiable

        @given(case=operation.as_strategy(mode))
        @settings(max_examples=self.cases_per_operation, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        def call(case: Any) -> None:
            self.check(operation.label, case, case.call(headers=headers))

        with contextlib.suppress(Unsatisfiable):  # no invalid request exists for a GET without parameters
            call()

    def check(self, label: str, case: Any, response: Any) -> None:
        from schemathesis.core.failures import FailureGroup

        self.cases += 1
        self.server_errors += response.status_code >= 500
        try:
            case.validate_response(response, checks=self.checks)
        except (AssertionError, FailureGroup) as e:  # the kind of each failure is kept
            self.undeclared += 1
            kinds = [type(x).__name__ for x in getattr(e, "exceptions", [e])]
            self.problems.add(f"{label} {response.status_code}: {', '.join(kinds)}")

    def figures(self) -> dict[str, Any]:
        return {"fuzz_cases": self.cases, "fuzz_5xx": self.server_errors,
                "fuzz_undeclared": self.undeclared + sum(p.startswith("invalid schema") for p in self.problems),
                "fuzz_problems": sorted(self.problems)[:10]}


# -- joining while wrong codes pour in -----------------------------------------------------------------

def join_while_spammed(folder: Path, tries: int = 200, spammers: int = 10) -> dict[str, Any]:
    """A real ``serve``; ``spammers`` addresses send wrong codes as fast as they are refused while one
    tablet, at its own address, joins with the right code ``tries`` times (a fresh tablet each time)."""
    server = Serve(folder / "spam.sqlite", free_port(), folder / "spam.log")
    if not server.start():
        raise RuntimeError(f"serve did not start; see {folder / 'spam.log'}")
    stop, wrong = threading.Event(), [0]

    def spam(n: int) -> None:
        rng = random.Random(n)
        with httpx.Client(transport=httpx.HTTPTransport(local_address=f"127.0.0.{10 + n}"), timeout=10) as client:
            while not stop.is_set():
                with contextlib.suppress(httpx.TransportError):
                    client.post(f"{server.url}/api/session", json={"code": f"{rng.randrange(10**6):06d}"})
                    wrong[0] += 1
    threads = [threading.Thread(target=spam, args=(n,), daemon=True) for n in range(spammers)]
    for t in threads:
        t.start()
    joined = 0
    try:
        time.sleep(1.0)  # the spam is well under way before the tablet arrives
        for _ in range(tries):
            with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3"), timeout=10) as tablet:
                with contextlib.suppress(httpx.TransportError):
                    joined += tablet.post(f"{server.url}/api/session", json={"code": server.join_code}).status_code == 200
            time.sleep(0.02)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=15)
        server.kill()
    return {"join_while_spammed_success": round(joined / tries, 4), "join_while_spammed_tries": tries,
            "join_while_spammed_wrong_codes": wrong[0]}


# -- the game under calibration load ---------------------------------------------------------------------

def calibration_load(folder: Path, seed: int, readers: int = 45, polls: int = 300) -> dict[str, Any]:
    """The display with a camera (a rendered table), in a process of its own as on the Pi, served by a
    real uvicorn: ``readers`` ten-second wand reads, table finds and hostile calibration requests at once,
    from the Pi's own screen (a host), while a tablet asks for the game every 50 ms."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    display = context.Process(target=calibrated_display, args=(str(folder), seed, theirs), daemon=True)
    display.start()
    try:
        if not ours.poll(READY_S):
            raise RuntimeError("the display with a camera did not start")
        url = ours.recv()
        figures = _under_load(url, readers, polls)
        ours.send("stop")
        figures["calibration_cpu_s_max"] = round(float(ours.recv()), 2) if ours.poll(30) else None
        return figures
    finally:
        display.join(timeout=10)
        if display.is_alive():
            display.kill()


def calibrated_display(folder: str, seed: int, pipe: Any) -> None:
    """The display's process: a night, a game and the calibration desk on a rendered camera; sends its
    URL, serves until told to stop, then sends the most CPU one calibration step cost."""
    from calibration.desk import open_desk
    from calibration.profiles import save
    from companion.night import Night
    from companion.status import StatusBoard
    from companion.web.app import create_app
    from companion.web.routers.calibration import attach
    from companion.web.serve import running
    from companion.web.settings import Settings
    from vision.frames import Frame
    from vision.render.source import RenderedSource

    source = RenderedSource("hover", seed % 1000, castings=1)
    first = source.read()
    assert first is not None
    profile = Path(folder) / "calibration" / "profile.json"
    save(source.profile(), profile)  # camera and table known, as after those steps
    picture = first.image

    def latest() -> Frame:  # the camera's newest picture: the same table, a new moment each time
        return Frame(picture, time.monotonic(), 0)

    with Store(Path(folder) / "load.sqlite") as store:
        night = Night.resume_or_start(store, "Load night")
        night.start_game(GAME, PLAYERS, seed=seed)
        app = create_app(night, StatusBoard(), Settings(join_code="424242", actions_per_minute=10**6))
        desk = open_desk(profile, latest)
        attach(app, desk)
        try:
            with running(app) as url:
                pipe.send(url)
                pipe.recv()
                pipe.send(app.state.workshop.cpu_s_max)
        finally:
            desk.feed.stop()


HOSTILE = [("/api/calibration/camera/photo", {"board": "charuco:30x30:40:20:DICT_6X6_1000"}),
           ("/api/calibration/camera/photo", {"board": "chessboard:30x30:25"}),
           ("/api/calibration/camera/photo", {"board": "charuco:99999x99999:40:20:DICT_6X6_250"}),
           ("/api/calibration/table", None), ("/api/calibration/wands/empty", None)]


def _under_load(url: str, readers: int, polls: int) -> dict[str, Any]:
    import struct

    one_hz = (b"RIFF" + struct.pack("<I", 36 + 6000) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 1, 2, 2, 16)
              + b"data" + struct.pack("<I", 6000) + bytes(6000))
    statuses: dict[int, int] = {}
    httpx.post(url + "/api/calibration/wands/empty", timeout=60).raise_for_status()  # so each wand read runs whole

    def load(path: str, body: Any = None, content: bytes | None = None) -> None:
        with contextlib.suppress(httpx.TransportError):
            answer = httpx.post(url + path, json=body, content=content, timeout=120)
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1

    jobs: list[tuple[str, Any, bytes | None]] = [("/api/calibration/wands", {"seconds": 10.0}, None)] * readers
    jobs += [(p, b, None) for p, b in HOSTILE]
    jobs += [("/api/calibration/cue/audio?offset=0", None, one_hz), ("/api/calibration/cue", {"player": "Lera"}, None)]
    threads = [threading.Thread(target=load, args=job, daemon=True) for job in jobs]
    for t in threads:
        t.start()
    times = []
    with httpx.Client(base_url=url, timeout=60) as tablet:
        for _ in range(polls):
            started = time.perf_counter()
            tablet.get("/api/game").raise_for_status()
            times.append((time.perf_counter() - started) * 1000)
            time.sleep(0.05)
    for t in threads:
        t.join(timeout=120)
    times.sort()
    return {"game_get_ms_p99_under_calibration_load": round(times[int(0.99 * (len(times) - 1))], 1),
            "game_get_ms_p50_under_calibration_load": round(times[len(times) // 2], 1),
            "calibration_load_answers": {str(k): v for k, v in sorted(statuses.items())}}


def measure(kills: int, seed: int, cases_per_operation: int) -> dict[str, Any]:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="incanto-faults-") as folder:
        figures = kill_runs(Path(folder), kills, seed)
        figures["kill_runs_s"] = round(time.monotonic() - started, 1)
        figures.update(join_while_spammed(Path(folder)))
        figures.update(calibration_load(Path(folder), seed))
    return {**figures, **fuzz(cases_per_operation, seed)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion bench faults", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cases", type=int, default=50, help="schemathesis cases per operation and session kind")
    args = parser.parse_args(argv)
    print_figures(measure(args.kills, args.seed, args.cases), args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

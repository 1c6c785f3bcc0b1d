"""`python -m companion bench inputs --json`: how the wand inputs hold up, through a real pty.

    press_to_event_ms_p99     button pressed -> event delivered by the link (ms, p99), at 200
                              presses/s for 60 s through a socat pty to the simulated hub
    stamp_to_event_ms_p99     the hub's stamp -> event delivered (the serial path alone)
    presses_lost              presses of that run that never reached the host
    reconnect_s               port back (socat restarted) -> link connected again (worst of 5)
    reconnect_resync_s        port back -> every press made during the outage delivered (worst of 5)
    garbage_phantom_presses   presses delivered that the hub never sent, with 10^5 random bytes
                              on the line between real presses
    garbage_presses_lost      real presses among that noise that never arrived
    cue_*                     from the spoken-cue detector (companion.cue.bench.measure) on the
                              held-out speech engine named in cue_held_out_engine (docs/cue.md)

`--quick` runs the press stream for 5 s instead of 60 s.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.figures import print_figures
from companion.inputs.events import InputEvent, Press
from companion.inputs.link import HubLink
from companion.inputs.ptypair import PtyPair
from companion.inputs.simhub import SimHub

RATE = 200.0
SECONDS = 60.0
QUICK_SECONDS = 5.0
GARBAGE_BYTES = 100_000
RECONNECT_TRIALS = 5
CUE_KEYS = ("cue_detection_rate", "cue_false_triggers_per_hour", "cue_timing_error_ms_p50",
            "cue_detection_rate_10db", "cue_false_triggers_per_hour_near_miss", "cue_timing_error_ms_p95",
            "cue_held_out_engine", "cue_cpu_share")


class Recorder:
    """Presses as the link delivers them, with the moment each arrived."""

    def __init__(self) -> None:
        self.presses: list[tuple[Press, float]] = []
        self._lock = threading.Lock()

    def __call__(self, event: InputEvent) -> None:
        if isinstance(event, Press):
            with self._lock:
                self.presses.append((event, time.monotonic()))

    def keys(self) -> set[tuple[int, int]]:
        with self._lock:
            return {(press.wand, press.hub_us) for press, _ in self.presses}


def wait_until(condition: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.001)
    return bool(condition())


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# Press stream ----------------------------------------------------------------------------------

def measure_stream(folder: Path, rate: float, seconds: float) -> dict[str, Any]:
    """The simulated hub in its own process (as a real hub is), driven on a fixed schedule."""
    recorder = Recorder()
    with PtyPair(folder / "stream-hub", folder / "stream-host") as pair, \
            HubLink(str(pair.host_end), recorder) as link:
        report = run_simulated_hub(pair.hub_end, rate, seconds)
        time.sleep(0.5)
        status = link.status.snapshot()
    figures = stream_figures(report["pressed_at"], [tuple(p) for p in report["sent"]], recorder)
    return {**figures, "stream_resends": status["resends"], "stream_garbage": status["garbage"]}


def run_simulated_hub(port: Path, rate: float, seconds: float) -> dict[str, Any]:
    """Run ``driven_hub`` in its own process; its report says when each press was made and which
    presses the firmware sent."""
    start = time.monotonic() + 3.0          # time for the process to start and be greeted
    command = [sys.executable, "-c", DRIVEN_HUB, str(port), str(rate), str(seconds), repr(start)]
    hub = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60,
                         env={**os.environ, "PYTHONUNBUFFERED": "1"})
    if hub.returncode != 0 or not hub.stdout.strip():
        raise RuntimeError(f"simulated hub exited with {hub.returncode}: {hub.stderr[-500:]}")
    report: dict[str, Any] = json.loads(hub.stdout.strip().splitlines()[-1])
    return report


# The simulated hub's own process, pressing on a schedule ----------------------------------------

DRIVEN_HUB = "import sys; from companion.inputs.bench import driven_hub; sys.exit(driven_hub(*sys.argv[1:]))"


def driven_hub(port: str, rate: str, seconds: str, start_at: str) -> int:
    """The simulated hub on ``port``, pressed ``rate`` times a second from ``start_at`` (the host's
    monotonic clock, shared across processes); prints when each press was made and what it sent."""
    with SimHub(port) as sim:
        pressed_at = drive(sim, press_schedule(float(rate), float(seconds), float(start_at)))
        time.sleep(0.5)
        print(json.dumps({"pressed_at": pressed_at, "sent": sim.sent_presses}), flush=True)
    return 0


def press_schedule(rate: float, seconds: float, start: float, wands: int = 8,
                   hold_s: float = 0.015) -> list[tuple[float, int, bool]]:
    """(host monotonic time, wand, down) for `rate` presses a second, round-robin over the wands."""
    steps: list[tuple[float, int, bool]] = []
    for index in range(int(rate * seconds)):
        at = start + index / rate
        wand = index % wands + 1
        steps += [(at, wand, True), (at + hold_s, wand, False)]
    return sorted(steps)


def drive(sim: SimHub, steps: list[tuple[float, int, bool]]) -> list[float]:
    """Make the presses; returns the moment each press was actually made, in schedule order."""
    pressed_at: list[float] = []
    for at, wand, down in steps:
        delay = at - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        sim.buttons.hold(wand - 1, down)
        if down:
            pressed_at.append(time.monotonic())
    return pressed_at


def stream_figures(pressed_at: list[float], sent: list[tuple[int, int]], recorder: Recorder) -> dict[str, Any]:
    arrivals = {(press.wand, press.hub_us): arrival for press, arrival in recorder.presses}
    latencies, transport = [], []
    for (wand, stamp), pressed in zip(sent, made_order(sent, made_times(pressed_at))):
        if (wand, stamp) in arrivals:
            latencies.append((arrivals[(wand, stamp)] - pressed) * 1000)
            transport.append((arrivals[(wand, stamp)] - stamp / 1e6) * 1000)
    return {
        "press_to_event_ms_p99": round(percentile(latencies, 0.99), 3) if latencies else None,
        "press_to_event_ms_p50": round(percentile(latencies, 0.50), 3) if latencies else None,
        "stamp_to_event_ms_p99": round(percentile(transport, 0.99), 3) if transport else None,
        "presses_lost": len(pressed_at) - len(latencies),
        "presses_made": len(pressed_at),
        "presses_sent_by_hub": len(sent),
    }


def made_times(pressed_at: list[float], wands: int = 8) -> dict[int, list[float]]:
    """When each wand's presses were made, in order (the schedule goes round the wands)."""
    by_wand: dict[int, list[float]] = {wand: [] for wand in range(1, wands + 1)}
    for index, moment in enumerate(pressed_at):
        by_wand[index % wands + 1].append(moment)
    return by_wand


def made_order(sent: list[tuple[int, int]], made: dict[int, list[float]]) -> list[float]:
    """For each press the hub sent, the moment it was made: a wand's k-th press sent is its k-th
    press made (the simulated contact is held until the firmware has seen it)."""
    seen: dict[int, int] = {}
    moments = []
    for wand, _ in sent:
        index = seen.get(wand, 0)
        seen[wand] = index + 1
        moments.append(made[wand][index] if index < len(made[wand]) else float("nan"))
    return moments


# Unplug and replug -------------------------------------------------------------------------------

def measure_reconnect(folder: Path) -> dict[str, Any]:
    recorder = Recorder()
    back, resynced, lost = [], [], 0
    with PtyPair(folder / "plug-hub", folder / "plug-host") as pair, SimHub(pair.hub_end) as sim, \
            HubLink(str(pair.host_end), recorder) as link:
        link.wait_connected(10)
        for trial in range(RECONNECT_TRIALS):
            pair.unplug()
            wait_until(lambda: not link.connected.is_set(), 5)
            for wand in (1 + trial % 8, 2 + trial % 7, 3):
                sim.tap(wand)
            pair.replug()
            returned = time.monotonic()
            link.wait_connected(10)
            back.append(time.monotonic() - returned)
            wait_until(lambda: set(sim.sent_presses) <= recorder.keys(), 10)
            resynced.append(time.monotonic() - returned)
        lost = len(set(sim.sent_presses) - recorder.keys())
    return {"reconnect_s": round(max(back), 3), "reconnect_resync_s": round(max(resynced), 3),
            "reconnect_presses_lost": lost}


# Noise on the line -------------------------------------------------------------------------------

def measure_garbage(folder: Path, total: int = GARBAGE_BYTES) -> dict[str, Any]:
    recorder = Recorder()
    rng = random.Random(20240601)
    chunk = 1000
    with PtyPair(folder / "noise-hub", folder / "noise-host") as pair, SimHub(pair.hub_end) as sim, \
            HubLink(str(pair.host_end), recorder) as link:
        link.wait_connected(10)
        for index in range(total // chunk):
            sim.inject(rng.randbytes(chunk))
            if index % 4 == 0:
                sim.tap(index % 8 + 1, hold_s=0.015, gap_s=0.015)
            else:
                time.sleep(0.002)
        sent = set(sim.sent_presses)
        wait_until(lambda: sent <= recorder.keys(), 10)
        time.sleep(0.5)
        status = link.status.snapshot()
    received = recorder.keys()
    return {"garbage_phantom_presses": len(received - sent), "garbage_presses_lost": len(sent - received),
            "garbage_real_presses": len(sent), "garbage_lines_rejected": status["garbage"]}


# The spoken cue (another module's figures) -------------------------------------------------------

def cue_figures() -> dict[str, Any]:
    try:
        from companion.cue.bench import measure
        figures = measure()
    except Exception as exc:  # the detector may be absent or broken; the other figures still count
        print(f"cue figures unavailable (companion.cue.bench.measure): {exc!r}", file=sys.stderr)
        return {key: None for key in CUE_KEYS}
    missing = [key for key in CUE_KEYS if key not in figures]
    if missing:
        print(f"companion.cue.bench.measure() did not report {missing!r}", file=sys.stderr)
    return {key: figures.get(key) for key in CUE_KEYS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion bench inputs", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help=f"a {QUICK_SECONDS:g} s press stream")
    parser.add_argument("--no-cue", action="store_true", help="skip the spoken-cue figures")
    args = parser.parse_args(argv)
    seconds = QUICK_SECONDS if args.quick else SECONDS
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="incanto-bench-") as folder:
        results.update(measure_stream(Path(folder), RATE, seconds))
        results.update(measure_reconnect(Path(folder)))
        results.update(measure_garbage(Path(folder)))
    results["press_rate_per_s"], results["press_seconds"] = RATE, seconds
    results.update({key: None for key in CUE_KEYS} if args.no_cue else cue_figures())
    print_figures(results, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

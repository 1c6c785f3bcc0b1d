"""Run the hub scenarios (scenarios.py) under CPython and under the real MicroPython interpreter."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
HUB = ROOT / "firmware" / "hub.py"
SCENARIOS = HERE / "scenarios.py"
MICROPYTHON = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"

Transcript = dict[str, list[str]]


def parse(output: str) -> tuple[Transcript, Transcript]:
    """{scenario: hub lines}, {scenario: notes} from the scenario printout."""
    lines: Transcript = defaultdict(list)
    notes: Transcript = defaultdict(list)
    for row in output.splitlines():
        kind, _, rest = row.partition(" ")
        name, _, text = rest.partition(" ")
        if kind == "OUT":
            lines[name].append(text)
        elif kind == "NOTE":
            notes[name].append(text)
    assert "DONE" in output.splitlines(), f"scenarios did not finish:\n{output[-2000:]}"
    return dict(lines), dict(notes)


SCENARIO_FILES = ("scenarios", [HUB, SCENARIOS])
BOARD_FILES = ("board", [HUB, HERE / "machine.py", ROOT / "firmware" / "main.py", HERE / "board.py"])


def run_cpython(entry: str, files: list[Path]) -> str:
    """Load each file as a top-level module named after it (as on the Pico), then run `entry`."""
    names = [path.stem for path in files]
    saved = {name: sys.modules.get(name) for name in names}
    buffer = io.StringIO()
    try:
        for name, path in zip(names, files):
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec and spec.loader
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        with contextlib.redirect_stdout(buffer):
            sys.modules[entry].run_all()
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    return buffer.getvalue()


def run_micropython(entry: str, files: list[Path]) -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: cannot run the MicroPython (WebAssembly) interpreter")
    if not MICROPYTHON.is_file():
        pytest.skip(f"npm package @micropython/micropython-webassembly-pyscript missing at {MICROPYTHON}; run `make venv`")
    result = subprocess.run([node, str(HERE / "run_micropython.mjs"), MICROPYTHON.as_uri(), entry, *map(str, files)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"MicroPython run failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    assert "IMPL micropython" in result.stdout
    return result.stdout


@pytest.fixture(scope="session")
def cpython_output() -> str:
    return run_cpython(*SCENARIO_FILES)


@pytest.fixture(scope="session")
def micropython_output() -> str:
    return run_micropython(*SCENARIO_FILES)


@pytest.fixture(scope="session", params=["cpython", "micropython"])
def transcript(request: pytest.FixtureRequest) -> tuple[Transcript, Transcript]:
    """Hub lines and notes per scenario, from one interpreter or the other."""
    return parse(request.getfixturevalue(f"{request.param}_output"))


@pytest.fixture(scope="session", params=["cpython", "micropython"])
def board(request: pytest.FixtureRequest) -> list[str]:
    """What firmware/main.py's board wiring reports, under one interpreter or the other."""
    run = run_cpython if request.param == "cpython" else run_micropython
    lines, _ = parse(run(*BOARD_FILES))
    return lines["board"]

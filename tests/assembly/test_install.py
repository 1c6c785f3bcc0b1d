"""``pip install .`` of the checkout into a fresh virtualenv, used from an unrelated folder: the
commands work, the firmware comes from the installed package, and nothing is written into the
checkout.

Fast and offline: a wheel is built from a copy of the working tree (``--no-build-isolation``, no
download), installed with ``--no-deps``, and the shared environment's third-party packages are made
visible through a ``.pth`` file listing its site-packages (never the checkout or its editable finder).
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
HUB_SIMULATION = """
import sys, tempfile, time
from pathlib import Path
import companion.inputs.firmware as firmware
from companion.inputs.events import Press
from companion.inputs.link import HubLink
from companion.inputs.ptypair import PtyPair
from companion.inputs.simhub import SimHub
print("firmware", firmware.hub_module().__file__)
events = []
with tempfile.TemporaryDirectory() as d, PtyPair(Path(d) / "hub", Path(d) / "host") as pair, SimHub(pair.hub_end) as sim:
    link = HubLink(str(pair.host_end), events.append).start()
    deadline = time.monotonic() + 20
    while not link.status.snapshot()["connected"] and time.monotonic() < deadline:
        time.sleep(0.05)
    sim.press(5)
    while not any(isinstance(e, Press) for e in events) and time.monotonic() < deadline:
        time.sleep(0.05)
    link.stop()
print("pressed", [e.wand for e in events if isinstance(e, Press)])
"""


def run(command: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=300, **kw)  # type: ignore[call-overload,no-any-return]


def git_status() -> str:
    return run(["git", "status", "--porcelain", "--ignored", "--untracked-files=all"], cwd=ROOT).stdout


def shared_site_packages() -> list[str]:
    """The running environment's site-packages (third-party packages only). It may sit inside the
    checkout (``.venv``); the ``.pth`` files in it, among them the editable install's finder, are not
    run when it is listed from another ``.pth`` file, so the checkout's own code stays out of reach."""
    return [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], Path]:
    """(the new venv's bin folder, the environment to run it in, an unrelated working folder)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout")
    tmp = tmp_path_factory.mktemp("install")
    tree = tmp / "source"
    files = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT).stdout
    for name in filter(None, files.split("\0")):
        if (ROOT / name).is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tree / name)
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp / "wheel"),
                 str(tree)], cwd=tmp)
    assert built.returncode == 0, built.stderr[-3000:]
    venv = tmp / "venv"
    assert run([sys.executable, "-m", "venv", "--without-pip", str(venv)]).returncode == 0
    python = venv / "bin" / "python"
    (wheel,) = (tmp / "wheel").glob("incanto-*.whl")
    done = run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)])
    assert done.returncode == 0, done.stderr[-3000:]
    purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    Path(purelib, "shared-environment.pth").write_text("".join(f"{p}\n" for p in shared_site_packages()))
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "INCANTO_FIRMWARE")}
    env |= {"HOME": str(tmp / "home"), "XDG_DATA_HOME": str(tmp / "home" / "data"), "PYTHONDONTWRITEBYTECODE": "1"}
    return venv / "bin", env, elsewhere


def test_the_installed_package_is_the_one_imported(installed: tuple[Path, dict[str, str], Path]) -> None:
    bin_, env, cwd = installed
    where = run([str(bin_ / "python"), "-c", "import companion, firmware; print(companion.__file__); print(firmware.__file__)"],
                env=env, cwd=cwd)
    assert where.returncode == 0, where.stderr
    for path in where.stdout.split():
        assert Path(path).is_relative_to(bin_.parent) and not Path(path).is_relative_to(ROOT), path


def test_games_the_terminal_demo_and_serves_help_run_from_elsewhere(installed: tuple[Path, dict[str, str], Path]) -> None:
    bin_, env, cwd = installed
    before = git_status()
    games = run([str(bin_ / "incanto"), "games"], env=env, cwd=cwd)
    assert games.returncode == 0 and "incantibus" in games.stdout, games.stderr
    demo = run([str(bin_ / "incanto"), "demo", "--terminal", "--seed", "3"], env=env, cwd=cwd)
    assert demo.returncode == 0 and "final scores:" in demo.stdout, demo.stderr[-2000:]
    helped = run([str(bin_ / "incanto"), "serve", "--help"], env=env, cwd=cwd)
    assert helped.returncode == 0 and "--data-dir" in helped.stdout, helped.stderr
    assert git_status() == before and list(cwd.iterdir()) == []


def test_the_demo_reads_the_rendered_table_from_elsewhere(installed: tuple[Path, dict[str, str], Path]) -> None:
    """The whole simulated night (rendered camera, vision's packaged settings, the hub on a pty when
    socat is there), started from an unrelated folder, writes nothing outside its temporary folder."""
    bin_, env, cwd = installed
    before = git_status()
    demo = run([str(bin_ / "incanto"), "demo", "--no-browser", "--seconds", "4", "--port", "0", "--host", "127.0.0.1",
                "--pace", "0.3", "--seed", "2"], env=env, cwd=cwd)
    assert demo.returncode == 0, demo.stderr[-3000:]
    assert "join code:" in demo.stdout and "castings read by the camera:" in demo.stdout
    assert git_status() == before and list(cwd.iterdir()) == []


def test_the_hub_simulation_runs_the_installed_firmware(installed: tuple[Path, dict[str, str], Path]) -> None:
    if shutil.which("socat") is None:
        pytest.skip("socat is not installed (Debian package 'socat')")
    bin_, env, cwd = installed
    sim = run([str(bin_ / "python"), "-c", HUB_SIMULATION], env=env, cwd=cwd)
    assert sim.returncode == 0, sim.stderr[-3000:]
    firmware = Path(sim.stdout.split("firmware ", 1)[1].split()[0])
    assert firmware.is_relative_to(bin_.parent) and firmware.name == "hub.py"
    assert "pressed [5]" in sim.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_keeps_its_night_in_the_default_data_directory(installed: tuple[Path, dict[str, str], Path]) -> None:
    bin_, env, cwd = installed
    before, port = git_status(), free_port()
    server = subprocess.Popen([str(bin_ / "incanto"), "serve", "--host", "127.0.0.1", "--port", str(port), "--hub", "none",
                               "--camera", "none", "--no-mic"], env=env, cwd=cwd,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        night = _get(f"http://127.0.0.1:{port}/api/night", server)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert night["games"] == []
    data = Path(env["XDG_DATA_HOME"]) / "incanto"
    assert (data / "incanto.sqlite").is_file()
    assert git_status() == before and list(cwd.iterdir()) == []


def _get(url: str, server: subprocess.Popen[str]) -> dict:  # type: ignore[type-arg]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        try:
            return httpx.get(url).json()  # type: ignore[no-any-return]
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError(f"nothing answered at {url}: {server.stderr.read() if server.stderr and server.poll() is not None else ''}")


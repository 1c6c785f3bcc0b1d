"""``python -m companion serve`` with its device flags, and ``demo`` on the simulated table."""
from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from companion.night_at_the_table import demo, serve

ROOT = Path(__file__).resolve().parents[2]


def test_serve_flags_become_the_table_side_settings(tmp_path: Path) -> None:
    args = serve.parse(["--hub", "/dev/ttyACM1", "--camera", "none", "--calibration", str(tmp_path / "c.json"),
                        "--no-mic"])
    config = serve.table_side_config(args)
    assert (config.hub, config.camera, config.calibration, config.mic) == ("/dev/ttyACM1", "none",
                                                                         tmp_path / "c.json", False)
    defaults = serve.table_side_config(serve.parse([]))
    assert defaults.hub == "auto" and defaults.mic is True and defaults.camera in ("picamera2", "camera:0")


def test_serve_refuses_a_table_layout_it_cannot_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "places.json"
    assert serve.main(["--store", str(tmp_path / "s.sqlite"), "--places", str(missing), "--hub", "none",
                       "--camera", "none", "--no-mic"]) == 2
    assert repr(str(missing)) in capsys.readouterr().err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_reports_every_device_on_one_status_board(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "companion", "serve", "--store", str(tmp_path / "s.sqlite"), "--host",
               "127.0.0.1", "--port", str(port), "--hub", "none", "--camera", "none", "--no-mic",
               "--calibration", str(tmp_path / "none.json")]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        devices = _status(f"http://127.0.0.1:{port}/api/status")
    finally:
        server.terminate()
        server.wait(timeout=10)
    by_name = {d["device"]: d for d in devices}
    assert {name: by_name[name]["level"] for name in ("camera", "hub", "cue", "calibration")} == \
        {"camera": "off", "hub": "off", "cue": "off", "calibration": "error"}
    assert all(by_name[name]["fix"] for name in by_name)


def _status(url: str) -> list[dict]:  # type: ignore[type-arg]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            return httpx.get(url).json()["devices"]  # type: ignore[no-any-return]
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError(f"nothing answered at {url}")


def test_the_demo_reads_castings_from_the_rendered_table(capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("socat") is None:
        pytest.skip("socat is not installed (Debian package 'socat')")
    assert demo.main(["--no-browser", "--seconds", "6", "--port", "0", "--host", "127.0.0.1", "--pace", "0.3",
                      "--seed", "2"]) == 0
    out = capsys.readouterr().out
    found = re.search(r"castings read by the camera: (.*); swaps", out)
    assert found, out
    assert re.search(r"\bcast [1-9]", found.group(1)), out

"""``serve`` keeps a night's state in its data directory and reads its settings file from there."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from companion.night_at_the_table import data_dir


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_data_directory_holds_the_store_and_names_the_calibration(tmp_path: Path) -> None:
    data, port = tmp_path / "incanto", free_port()
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"display": {"host": "127.0.0.1", "port": port, "join_code": "246810"},
                                                    "table": {"hub": "none", "camera": "none", "mic": False}}))
    env = {k: v for k, v in os.environ.items() if k != "INCANTO_CALIBRATION"}
    server = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--data-dir", str(data)], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert "join code: 246810" in (server.stdout.readline() if server.stdout else "")
        devices = _get(f"http://127.0.0.1:{port}/api/status")["devices"]
    finally:
        server.terminate()
        server.wait(timeout=10)
    calibration = next(d for d in devices if d["device"] == "calibration")
    assert calibration["level"] == "error" and calibration["details"]["file"] == str(data / "calibration.json")
    assert (data / "incanto.sqlite").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["incanto"]  # nothing beside it, in the working folder


def _get(url: str) -> dict:  # type: ignore[type-arg]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            return httpx.get(url).json()  # type: ignore[no-any-return]
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError(f"nothing answered at {url}")


def test_the_default_data_directory_follows_xdg(monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir.default() == tmp_path / "xdg" / "incanto"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_dir.default() == tmp_path / "home" / ".local" / "share" / "incanto"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert data_dir.prepare(None) == tmp_path / "home" / ".local" / "share" / "incanto" and data_dir.default().is_dir()

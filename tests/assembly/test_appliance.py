"""The Pi as an appliance: ``incanto install --root DIR`` writes the service and the kiosk under a
temporary root, as on the Pi; systemd and desktop-file-utils accept what it wrote; ``incanto status``
prints the join code and where to join; ``incanto kiosk`` waits for the display it shows."""
from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from companion.night import Night
from companion.night_at_the_table import CannotStart, install, screen
from companion.night_at_the_table.kiosk import browser_command, wait_for_display
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]


def incanto(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, **(env or {})})


@pytest.fixture
def stand_in(tmp_path: Path) -> Path:
    """An executable where the Pi's virtualenv would have ``incanto`` (verify checks ExecStart exists)."""
    command = tmp_path / "venv" / "bin" / "incanto"
    command.parent.mkdir(parents=True)
    command.write_text("#!/bin/sh\n")
    command.chmod(0o755)
    return command


def installed(tmp_path: Path, stand_in: Path, *extra: str) -> Path:
    root = tmp_path / "root"
    done = incanto("install", "--root", str(root), "--exec", str(stand_in), "--user", "pi", *extra)
    assert done.returncode == 0, done.stderr
    return root


def verify_unit(unit: Path) -> subprocess.CompletedProcess[str]:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is missing (Debian package 'systemd': make system-deps)")
    return subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60)


def validate_entry(entry: Path) -> subprocess.CompletedProcess[str]:
    if shutil.which("desktop-file-validate") is None:
        pytest.skip("desktop-file-validate is missing (Debian package 'desktop-file-utils': make system-deps)")
    return subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True, timeout=60)


def test_the_installed_service_verifies_and_restarts_on_failure(tmp_path: Path, stand_in: Path) -> None:
    root = installed(tmp_path, stand_in, "--kiosk", "no")
    unit = root / "etc/systemd/system/incanto.service"
    text = unit.read_text()
    assert f"ExecStart={stand_in} serve --data-dir /var/lib/incanto" in text
    assert "User=pi\n" in text and "Restart=on-failure" in text and "StateDirectory=incanto" in text
    checked = verify_unit(unit)
    assert checked.returncode == 0 and checked.stderr.strip() == "", checked.stderr
    wants = root / "etc/systemd/system/multi-user.target.wants/incanto.service"
    assert wants.is_symlink() and wants.resolve() == unit.resolve()  # as `systemctl enable` links it
    assert not (root / "etc/xdg/autostart").exists()


def test_with_a_screen_the_kiosk_shows_the_board(tmp_path: Path, stand_in: Path) -> None:
    root = installed(tmp_path, stand_in, "--kiosk", "yes")
    entry = root / "etc/xdg/autostart/incanto-kiosk.desktop"
    checked = validate_entry(entry)
    assert checked.returncode == 0 and checked.stdout.strip() == "", checked.stdout
    assert f"Exec={stand_in} kiosk --data-dir /var/lib/incanto" in entry.read_text()
    helped = incanto("kiosk", "--help")
    assert helped.returncode == 0 and "--data-dir" in helped.stdout


def test_the_checks_can_fail(tmp_path: Path, stand_in: Path) -> None:
    """A damaged unit or entry is caught by the same checks."""
    root = installed(tmp_path, stand_in, "--kiosk", "yes")
    unit = root / "etc/systemd/system/incanto.service"
    unit.write_text(unit.read_text().replace("Restart=on-failure", "Restart=sometimes"))
    assert "restart specifier" in verify_unit(unit).stderr
    entry = root / "etc/xdg/autostart/incanto-kiosk.desktop"
    entry.write_text(entry.read_text().replace("Type=Application\n", ""))
    assert validate_entry(entry).returncode != 0


def test_the_kiosk_comes_when_a_screen_is_attached(tmp_path: Path) -> None:
    drm = tmp_path / "drm"
    for name, state in (("card1-HDMI-A-1", "disconnected"), ("card1-HDMI-A-2", "connected"), ("card1-Writeback-1", "connected")):
        (drm / name).mkdir(parents=True)
        (drm / name / "status").write_text(f"{state}\n")
    assert screen.attached(drm) == ["card1-HDMI-A-2"]
    (drm / "card1-HDMI-A-2" / "status").write_text("disconnected\n")
    assert screen.attached(drm) == [] and screen.attached(tmp_path / "no-drm") == []


def test_bad_values_are_refused_whole(tmp_path: Path, stand_in: Path) -> None:
    root = tmp_path / "root"
    done = incanto("install", "--root", str(root), "--exec", str(stand_in), "--user", "Lera Smith")
    assert done.returncode == 2 and done.stderr.strip() == "incanto install: 'Lera Smith' is not a user name"
    done = incanto("install", "--root", str(root), "--exec", "venv/bin/incanto", "--user", "pi")
    assert done.returncode == 2 and "'venv/bin/incanto'" in done.stderr and "Traceback" not in done.stderr
    assert not root.exists()  # nothing half-written


def test_installing_on_the_pi_itself_needs_root(monkeypatch: pytest.MonkeyPatch, stand_in: Path) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(CannotStart, match="sudo make install"):
        install.install(install.parse(["--root", "/", "--exec", str(stand_in)]))


def test_make_install_destdir_writes_under_it() -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    planned = subprocess.run(["make", "-n", "install", "DESTDIR=/tmp/image"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert f"-m companion install --exec {ROOT}/.venv/bin/incanto --root /tmp/image" in planned.stdout, planned.stdout


def test_status_prints_the_join_code_and_where_to_join(tmp_path: Path) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    with Store(folder / "incanto.sqlite") as store:
        Night.resume_or_start(store, "Friday").start_game("incantibus", ["Lera", "Kirill", "Katya", "Rosa"], seed=1)
        store.set_meta("join_code", "246810")
    done = incanto("status", "--data-dir", str(folder))
    assert done.returncode == 0, done.stderr
    assert "join code  246810" in done.stdout and "'Friday' (night 1): 1 games" in done.stdout
    join_at = done.stdout.split("join at    ", 1)[1].split()[0]
    host = urlsplit(join_at).hostname
    if "on no network" not in done.stdout:
        assert host not in ("127.0.0.1", "localhost"), join_at
    assert join_at.endswith(":8000/join?code=246810")


def test_status_without_a_night_says_so(tmp_path: Path) -> None:
    done = incanto("status", "--data-dir", str(tmp_path))
    assert done.returncode == 2 and "no night has been kept" in done.stderr and "Traceback" not in done.stderr


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """Something answering over HTTP where the display would be."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
        httpd.shutdown()


def test_the_kiosk_waits_for_the_display(server: str) -> None:
    assert wait_for_display(f"{server}/", 5)
    assert not wait_for_display("http://127.0.0.1:9/", 0.3, step_s=0.1)
    command = browser_command("chromium", f"{server}/")
    assert command[0] == "chromium" and "--kiosk" in command and command[-1] == f"{server}/"

"""The systemd unit that ships with Incanto is one systemd accepts without a warning."""
from __future__ import annotations

import shutil
import subprocess
from importlib import resources
from pathlib import Path

import pytest

UNIT = resources.files("companion.night_at_the_table") / "data" / "incanto.service"
EXEC = "/opt/incanto/bin/incanto"


def verify(unit_text: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` of the unit, its ExecStart pointed at a real executable here (the
    unit names where Incanto is installed on the Pi, which this machine does not have)."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is missing (Debian package 'systemd': make system-deps)")
    stand_in = folder / "incanto"
    stand_in.write_text("#!/bin/sh\n")
    stand_in.chmod(0o755)
    unit = folder / "incanto.service"
    unit.write_text(unit_text.replace(EXEC, str(stand_in)))
    return subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60)


def test_the_unit_verifies_cleanly(tmp_path: Path) -> None:
    text = UNIT.read_text()
    assert f"ExecStart={EXEC} serve --data-dir /var/lib/incanto" in text
    assert "StateDirectory=incanto" in text
    checked = verify(text, tmp_path)
    assert checked.returncode == 0 and checked.stderr.strip() == "", checked.stderr


def test_a_damaged_unit_is_caught(tmp_path: Path) -> None:
    """The check can fail: systemd warns about a setting it would ignore."""
    checked = verify(UNIT.read_text().replace("StateDirectory=incanto", "StateDirectory=/var/lib/incanto"), tmp_path)
    assert "StateDirectory" in checked.stderr

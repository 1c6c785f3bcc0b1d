"""``python -m companion bench table --json`` runs a short simulated night and prints the figures the
issue names (the figures themselves are for the benchmark to print, not for a test to judge)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_table_bench_prints_its_figures() -> None:
    if shutil.which("socat") is None:
        pytest.skip("socat is not installed (the simulated hub's pty)")
    done = subprocess.run([sys.executable, "-m", "companion", "bench", "table", "--castings", "3", "--pace", "0.2", "--json"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["castings"] == 3 and figures["tablets"] == 4
    assert figures["timed"] >= 1, figures  # at least one result reached all four tablets and was timed
    for key in ("cue_to_display_ms_p95", "cpu_percent", "peak_rss_mb"):
        assert isinstance(figures[key], float) and figures[key] > 0, key
    assert "Raspberry Pi 4" in figures["pi4"]

"""Faults of the whole display: ``serve`` killed with SIGKILL while two tablets play, and the API fuzzed
from its own schema. The same code is ``python -m companion bench faults``, with more of each."""
from __future__ import annotations

from pathlib import Path


from companion.bench_faults import fuzz, kill_runs



def test_serve_killed_at_random_moments_loses_no_acknowledged_tap(tmp_path: Path) -> None:
    figures = kill_runs(tmp_path, kills=20, seed=11, play_s=(0.1, 0.8))
    assert figures["acknowledged"] > figures["kills"]  # the tablets really played between the kills
    assert figures["acknowledged_lost"] == 0, figures
    assert figures["restarts_failed"] == 0, (figures, (tmp_path / "serve.log").read_text()[-2000:])
    assert figures["rejoins"] == 0, figures  # every tablet kept its session through every restart


def test_the_api_fuzzed_from_its_schema_gives_no_5xx_and_nothing_undeclared() -> None:
    figures = fuzz(cases_per_operation=12, seed=5)
    assert figures["fuzz_cases"] >= 200
    assert figures["fuzz_5xx"] == 0, figures["fuzz_problems"]
    assert figures["fuzz_undeclared"] == 0, figures["fuzz_problems"]

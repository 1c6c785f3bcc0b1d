"""The engine benchmark keeps its keys and reports every game the registry knows."""
from __future__ import annotations

from companion import games
from companion.bench_engine import measure

KEYS = {"game", "games_per_s", "actions_per_game", "replay_events_per_s", "replay_log_entries", "undo_ms",
        "undo_ms_memory"}


def test_bench_engine_reports_games_per_s_for_every_registered_game(with_stones):
    figures = measure("incantibus", seconds=0.2, entries=120)
    assert KEYS <= set(figures)
    assert {f"games_per_s_{name}" for name in games.names()} == {k for k in figures if k.startswith("games_per_s_")}
    assert "games_per_s_stones" in figures and figures["games_per_s_stones"] > 0
    assert figures["games_per_s_incantibus"] == figures["games_per_s"] > 0

from __future__ import annotations

import re

from companion.__main__ import main


def test_the_terminal_demo_plays_a_game_to_the_end_and_names_the_winner(capsys):
    assert main(["demo", "--terminal", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    castings = re.findall(r"^casting (\d+):", out, flags=re.M)
    assert castings and [int(n) for n in castings] == list(range(1, len(castings) + 1))
    final = re.search(r"final scores: (.*) — (\w+) wins", out)
    assert final is not None
    scores = {name: int(points) for name, points in re.findall(r"(\w+) (\d+)", final.group(1))}
    assert final.group(2) in scores and scores[final.group(2)] == max(scores.values())

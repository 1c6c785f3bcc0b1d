"""Starting from a described position: validated like an action, every problem at once."""
from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from companion.errors import IllegalAction, MalformedAction
from companion.games.ravenskeep.turn import fresh as turn_fresh
from tests.game_helpers import refused_position_stores_nothing, script
from ravenskeep_helpers import GOLDEN, RULES, board


def test_all_nine_towers_and_ravenskeep_in_one_space() -> None:
    state = board({"7": ["Lera", "T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "Kirill", "R"]}, lera_keep=2,
                  kirill_keep=2)
    view = RULES.public_view(state)
    assert view["ravenskeep"] == 7 and [i.get("wizard") for i in view["spaces"][7]["stack"]][0] is None
    assert view["players"][1]["visible"] == [7] and view["players"][0]["visible"] == []


def test_a_bad_position_is_refused_with_every_problem_at_once() -> None:
    position = {"spaces": {"0": ["T1", "T1", "R", "Lera"], "15": ["Dragon"], "3": ["Lera"] * 7},
                "players": {"Lera": {"full": 4, "spent": 2}, "Nobody": {}}}
    with pytest.raises(IllegalAction) as refused:
        RULES.from_position(["Lera", "Kirill"], {}, position, Random(0))
    assert sorted({p.rule for p in refused.value.problems}) == [
        "position-bottles", "position-limit", "position-piece", "position-player", "position-ravenskeep",
        "position-space", "position-towers", "position-wizards"]


def test_a_position_of_the_wrong_shape_names_the_key() -> None:
    with pytest.raises(MalformedAction, match="'players.Lera.full'"):
        RULES.from_position(["Lera", "Kirill"], {}, {"spaces": {}, "players": {"Lera": {"full": "five"}}}, Random(0))


def test_the_position_in_the_replay_doc_is_valid() -> None:
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "replay.md").read_text()
    example = doc[doc.index("### Ravenskeep"):]
    position = json.loads(re.findall(r"```json\n(.*?)```", example, re.S)[0])
    state = RULES.from_position(["Lera", "Kirill"], {}, position, Random(0))
    assert state.where("R") == 0 and state.players[0].full == 2


def describe(state: object) -> dict[str, object]:
    """The position a person would describe for ``state``: every stack, every player's bottles."""
    spaces = {str(s): [i.lstrip("@") for i in stack] for s, stack in enumerate(state.spaces) if stack}  # type: ignore[attr-defined]
    players = {p.name: {"full": p.full, "spent": p.spent, "keep": p.keep} for p in state.players}  # type: ignore[attr-defined]
    return {"spaces": spaces, "players": players, "active": state.current.name}  # type: ignore[attr-defined]


def test_every_position_reached_in_play_can_be_described_and_started_from() -> None:
    from companion.engine.game import Game
    names = ["Lera", "Kirill", "Katya"]
    game = Game.start(RULES, names, {"first": "Lera"}, seed=3)
    rng = Random(3)
    while (action := RULES.random_action(game.state, rng)) is not None:
        game.propose(action)
        if RULES.public_view(game.state)["phase"] == "playing" and turn_fresh(game.state):
            again = RULES.from_position(names, {"first": "Lera"}, describe(game.state), Random(0))
            assert {**RULES.public_view(again), "notes": [], "turn": 0} == {**RULES.public_view(game.state), "notes": [], "turn": 0}


def test_a_refused_position_stores_nothing_and_replay_says_so_in_one_line(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    lines = script(GOLDEN, "last_round")
    bad = {**lines[0]["position"], "players": {"Lera": {"full": 4, "spent": 2, "keep": 2},  # six bottles
                                               "Kirill": {"full": 5, "keep": 2}}}
    refused_position_stores_nothing(tmp_path, lines, bad, "position-bottles", capsys)

"""Starting from a described position: validated like an action, every problem at once."""
from __future__ import annotations

from typing import Any

import pytest

from companion.engine.game import Game, rng_for
from companion.engine.log import MemoryLog
from companion.errors import IllegalAction, MalformedAction
from tests.game_helpers import Found, position_problems
from companion.games.via_magica.steps import AwaitDraw
from via_magica_helpers import ROW, RULES, act, position


def problems(described: dict[str, Any], players: tuple[str, ...] = ("Tom", "Paola")) -> Found:
    return position_problems(RULES, players, described)


def test_a_described_position_is_played_on_from() -> None:
    state = position({"Tom": {"stockpile": 5, "area": {"P36a": [0, 1]}}, "Paola": {"stockpile": 7}}, out=["Air"])
    assert len(state.bag) == 22 and len(state.deck) == 80 - 5 - 1 and state.pending == AwaitDraw()
    state = act(state, {"type": "draw", "animus": "Fire"},
                {"type": "crystal", "player": "Tom", "to": {"portal": "P36a", "space": 2}})
    assert RULES.legal_actions(state)["openers"] == ["Tom"]


def test_every_problem_of_a_position_is_named_at_once() -> None:
    described = {
        "catcher": "Rosa", "out": ["Shadow", "Shadow", "Wildcard"], "row": ["P20a", "P21a", "P99a"],
        "players": {
            "Tom": {"stockpile": 2, "area": {"P36a": [0, 1, 2], "P20a": [], "P01b": [7]}, "achieved": ["P01a"],
                    "rewards": ["three_blue", "two_portals", "three_portals"]},
            "Paola": {"stockpile": 7, "rewards": ["three_blue", "cake"]},
        }}
    found = problems(described)
    assert ("position", "Rosa", "catcher") in found
    assert ("bag", "Rosa", "Shadow") in found and ("bag", "Rosa", "Wildcard") in found
    assert ("portal", None, "P99a") in found and ("conservation", None, "P20a") in found
    assert ("row", None, "row") in found
    assert ("two-copies", "Tom", "P01") in found
    assert ("crystals", "Tom", "P36a") in found and ("crystals", "Tom", "P01b") in found
    assert ("conservation", "Tom", "stockpile") in found
    assert ("reward", None, "three_blue") in found and ("reward", "Paola", "cake") in found
    assert ("reward", "Tom", "three_blue") in found and ("reward", "Tom", "rewards") in found
    assert ("reward", "Tom", "two_portals") in found


def test_a_position_after_the_end_and_a_wrong_table_are_refused() -> None:
    seven = ["P06b", "P11b", "P13b", "P34b", "P36b", "P37b", "P38b"]
    found = problems({"catcher": "Tom", "row": ["P20a", "P21a", "P22a", "P23a", "P24a"],
                      "players": {"Tom": {"stockpile": 9, "achieved": seven}, "Lera": {"stockpile": 7}}})
    assert ("end", "Tom", "achieved") in found and ("position", None, "players") in found


def test_a_whole_deck_must_account_for_every_portal() -> None:
    found = problems({"catcher": "Tom", "row": ["P20a", "P21a", "P22a", "P23a", "P24a"], "deck": ["P25a"],
                      "players": {"Tom": {"stockpile": 7}, "Paola": {"stockpile": 7}}})
    assert found == [("conservation", None, "deck")]


def test_a_badly_shaped_position_names_the_key() -> None:
    with pytest.raises(MalformedAction, match="players.Tom.stockpile"):
        RULES.from_position(["Tom", "Paola"], {}, {"catcher": "Tom", "row": [], "players": {
            "Tom": {"stockpile": "seven"}, "Paola": {"stockpile": 7}}}, rng_for(1, 0))
    with pytest.raises(MalformedAction, match="colour"):
        RULES.from_position(["Tom", "Paola"], {}, {"catcher": "Tom", "row": [], "colour": 1, "players": {}},
                            rng_for(1, 0))


def test_the_engine_refuses_a_bad_position_before_anything_is_written() -> None:
    log = MemoryLog()
    with pytest.raises(IllegalAction):
        Game.start(RULES, ["Tom", "Paola"], {"draws": "table"}, 1, log=log, position={
            "catcher": "Tom", "row": ROW, "players": {"Tom": {"stockpile": 1}, "Paola": {"stockpile": 7}}})
    assert log.events() == []


def test_the_position_is_no_longer_an_option() -> None:
    described = {"catcher": "Tom", "row": ROW, "players": {"Tom": {"stockpile": 7}, "Paola": {"stockpile": 7}}}
    with pytest.raises(MalformedAction, match="unknown Via Magica option 'position'"):
        Game.start(RULES, ["Tom", "Paola"], {"position": described}, 1)
    with pytest.raises(MalformedAction, match="unknown Via Magica option 'position'"):
        RULES.from_position(["Tom", "Paola"], {"position": described}, described, rng_for(1, 0))
    game = Game.start(RULES, ["Tom", "Paola"], {"draws": "table"}, 1, position=described)
    assert game.state.stockpiles == {"Tom": 7, "Paola": 7} and game.log.events()[0].payload["options"] == {"draws": "table"}

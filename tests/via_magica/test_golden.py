"""The rulebook's worked examples, as game scripts played through the engine and the replay command."""
from __future__ import annotations

import json
from typing import Any

import pytest

from companion.errors import IllegalAction
from via_magica_helpers import GOLDEN, play, script


def player(view: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in view["players"] if p["name"] == name)


def test_paola_scores_45_points() -> None:
    view = play(script("paola_45_points")).view()
    paola = player(view, "Paola")
    assert view["scores"]["Paola"] == 45
    assert paola["breakdown"] == {"rewards": 8, "portals": 5 + 10 + 8, "green": 10 + 4}
    assert paola["rewards"] == ["one_of_each"] and paola["portals_open"] == 5
    assert [p["colour"] for p in paola["achieved"]] == ["yellow", "purple", "blue", "green", "green"]
    assert view["phase"] == "over" and player(view, "Tom")["portals_open"] == 7


def test_the_same_instant_goes_to_the_catcher_then_clockwise() -> None:
    view = play(script("paola_45_points")).view()
    incantatum = next(e for e in view["last_turn"]["events"] if e["event"] == "incantatum")
    assert incantatum == {"event": "incantatum", "order": ["Tom", "Paola"], "tie": ["Paola", "Tom"]}


def test_a_tie_that_does_not_start_at_the_catcher_is_refused() -> None:
    lines = script("paola_45_points")
    lines[9] = {"type": "incantatum", "first": "Paola", "tie": ["Paola", "Tom"]}
    with pytest.raises(IllegalAction) as refused:
        play(lines)
    assert refused.value.problems[0].rule == "incantatum-tie" and "Tom" in str(refused.value)


def test_paola_may_place_from_her_stockpile_move_a_crystal_or_do_nothing_when_fire_is_called() -> None:
    lines = script("paola_fire")
    game = play(lines[:-1])
    legal = game.view()["legal"]
    assert legal["token"] == "Fire" and legal["stockpile"]["Paola"] == 3
    assert legal["targets"]["Paola"] == [{"portal": "P02b", "space": 3}, {"portal": "P03b", "space": 3}]
    assert len(legal["moves"]["Paola"]) == 4
    for option in ({"type": "crystal", "player": "Paola", "to": {"portal": "P02b", "space": 3}}, lines[-1]):
        assert game.rules.check(game.state, game.rules.parse_action(option)) == []
    game.propose({"type": "draw", "animus": "Air"})  # doing nothing is allowed: the next draw comes
    after = play(lines).view()
    paola = player(after, "Paola")
    assert paola["stockpile"] == 3
    assert [s["crystal"] for s in paola["area"][1]["spaces"]] == [True, True, False, True]
    assert [s["crystal"] for s in paola["area"][0]["spaces"]] == [True, False, False, False, False]


def test_fire_cannot_go_on_another_animus_space() -> None:
    game = play(script("paola_fire")[:-1])
    with pytest.raises(IllegalAction) as refused:
        game.propose({"type": "crystal", "player": "Paola", "to": {"portal": "P34a", "space": 0}})
    problem = refused.value.problems[0]
    assert (problem.player, problem.target, problem.rule) == ("Paola", "P34a.0", "animus")


def test_the_blue_portal_treats_water_as_a_wildcard_for_its_owner_only() -> None:
    game = play(script("paola_water"))
    assert player(game.view(), "Paola")["area"][0]["spaces"][2] == {"space": 2, "animus": "Life", "crystal": True}
    lines = script("paola_water")
    lines[-1] = {"type": "crystal", "player": "Tom", "to": {"portal": "P36a", "space": 2}}  # Fire: not Water
    with pytest.raises(IllegalAction) as refused:
        play(lines)
    assert refused.value.problems[0].rule == "animus" and refused.value.problems[0].player == "Tom"


def test_green_portals_score_per_green_portal_and_per_life_space() -> None:
    from companion.games.via_magica.portals import PortalEffect
    from companion.games.via_magica.scoring import green_points
    game = play(script("paola_green_portals"))
    state, paola = game.state, player(game.view(), "Paola")
    assert [p["portal"] for p in paola["achieved"]] == ["P02a", "P06a", "P20a", "P24a"]
    assert green_points(state, "Paola", PortalEffect.read({"kind": "per_colour", "colour": "green", "points": 3})) == 6
    assert green_points(state, "Paola", PortalEffect.read({"kind": "per_animus", "animus": "Life", "points": 2})) == 10
    assert paola["breakdown"]["green"] == 6 + 10


def test_undo_of_the_whole_script_and_redo_give_the_same_view() -> None:
    game = play(script("paola_45_points"))
    end = game.view()
    game.undo_to(0)
    assert game.view()["scores"]["Paola"] == 23
    for _ in range(len(script("paola_45_points")) - 1):
        game.redo()
    keep = lambda v: {k: x for k, x in v.items() if k not in ("version", "can_undo", "can_redo")}  # noqa: E731
    assert keep(game.view()) == keep(end)


def test_the_replay_command_plays_paola_to_45(capsys: pytest.CaptureFixture[str]) -> None:
    from companion import replay
    assert replay.main([str(GOLDEN / "paola_45_points.jsonl"), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["scores"]["Paola"] == 45 and printed["over"] is True


def test_the_golden_files_are_what_make_golden_writes() -> None:
    import make_via_magica_golden
    for name, make in make_via_magica_golden.SCRIPTS.items():
        assert [json.loads(line) for line in (GOLDEN / f"{name}.jsonl").read_text().splitlines()] == make(), name

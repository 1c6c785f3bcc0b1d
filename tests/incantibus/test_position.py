"""Starting Incantibus from a described position: the rulebook's final battle, and positions refused
with every problem at once (and nothing stored)."""
from __future__ import annotations

import copy
import json
from random import Random
from pathlib import Path
from typing import Any

import pytest

from companion.__main__ import main
from companion.errors import IllegalAction, MalformedAction
from companion.night import Night
from companion.store import Store
from tests.game_helpers import refused_position_stores_nothing
from incantibus_helpers import RULES, bot_states, claim, play, satchel_kinds, script
from incantibus_invariants import check_invariants

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]
BATTLE: dict[str, Any] = script("final_battle")[0]["position"]


def test_the_final_battle_from_a_position_goes_as_the_rulebook_tells_it() -> None:
    game = play(script("final_battle"))
    view = game.view()
    indigo = claim(view, "s1")
    assert indigo["claimants"] == ["Katya", "Kirill"] and indigo["winner"] == "Katya"
    assert indigo["swap"] == ["Katya", "Kirill"] and view["wands"]["Katya"] == 1 and view["wands"]["Kirill"] == 4
    assert "witch_indigo" in satchel_kinds(view, "Katya") and "blue_1" not in satchel_kinds(view, "Katya")
    assert "white_lady" in satchel_kinds(view, "Lera") and "ghost" not in satchel_kinds(view, "Lera")
    assert "archmage" not in satchel_kinds(view, "Rosa") and satchel_kinds(view, "Rosa") == ["pumpkin", "spell"]
    assert view["moat"][-3:] == ["ghost", "blue_1", "archmage"]
    escaped = [e for e in view["last_cast"]["events"] if e["event"] == "escaped"]
    assert [(e["player"], e["kind"]) for e in escaped] == [("Rosa", "archmage")] and "2 spell" in escaped[0]["why"]
    assert view["scores"]["Lera"] == 9 + 2 and view["scores"]["Katya"] == 8 + 3 + 3 + 1
    assert view["phase"] == "dungeon" and view["sorcerers"][0] is None and view["legal"]["kind"] == "cast"


def test_a_position_is_stored_in_the_setup_entry_and_a_restart_rebuilds_it(tmp_path: Path) -> None:
    setup, *actions = script("final_battle")
    path = tmp_path / "night.sqlite"
    with Store(path) as store:
        game = Night.resume_or_start(store).start_game("incantibus", PLAYERS, setup["options"], 1, BATTLE)
        for action in actions:
            game.propose(action)
        live = game.view()
    with Store(path) as store:
        again = Night.resume_or_start(store).current
        assert again is not None and again.view() == live
        assert again.history()[0]["payload"]["position"] == BATTLE


def test_random_games_from_a_position_keep_every_token_in_one_place() -> None:
    for seed in range(3):
        start = RULES.from_position(PLAYERS, {}, BATTLE, Random(seed))
        check_invariants(start)
        for _, state in bot_states(start, seed):
            check_invariants(state)


def broken(**changes: Any) -> dict[str, Any]:
    position = copy.deepcopy(BATTLE)
    for key, value in changes.items():
        if value is None:
            del position[key]
        else:
            position[key] = value
    return position


def refused(position: dict[str, Any]) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        RULES.from_position(PLAYERS, {"draws": "table"}, position, Random(0))
    return caught.value


def test_a_token_twice_a_wand_missing_and_an_over_full_satchel_are_refused_all_at_once() -> None:
    satchels = {**BATTLE["satchels"], "Katya": ["blue_1", "witch_indigo"], "Lera": ["goblin"] * 5}
    sorcerers = ["white_lady", "witch_indigo", *["face_down"] * 10]
    error = refused(broken(satchels=satchels, sorcerers=sorcerers, wands={"Lera": 3, "Kirill": 1, "Katya": 4}))
    rules = [(p.rule, p.player or p.target) for p in error.problems]
    assert ("position-wands", "Rosa") in rules
    error = refused(broken(satchels=satchels, sorcerers=sorcerers))
    rules = [(p.rule, p.player or p.target) for p in error.problems]
    assert ("position-supply", "witch_indigo") in rules and ("position-satchel", "Lera") in rules
    assert "witch_indigo" in str(error) and "Lera" in str(error)


@pytest.mark.parametrize("changes, rule", [
    ({"wands": {"Lera": 3, "Kirill": 1, "Katya": 4, "Rosa": 4}}, "position-wands"),
    ({"satchels": {**BATTLE["satchels"], "Rosa": ["dragon"]}}, "position-kind"),
    ({"moat": ["vampire"] * 3}, "position-supply"),
    ({"sorcerers": ["white_lady", *["face_down"] * 5]}, "position-sorcerers"),
    ({"potions": ["ghost", None, None]}, "position-place"),
    ({"phase": "room"}, "position-room"),
    ({"room": {"name": "roof", "visible": ["trap"], "secret": 0}}, "position-room"),
    ({"satchels": {**BATTLE["satchels"], "Igor": []}}, "position-players"),
])
def test_a_position_that_cannot_be_is_refused_naming_the_rule(changes: dict[str, Any], rule: str) -> None:
    assert rule in [p.rule for p in refused(broken(**changes)).problems]


@pytest.mark.parametrize("changes, key", [({"sorcerers": "all of them"}, "sorcerers"), ({"dragons": 3}, "dragons"),
                                          ({"wands": {"Lera": "3"}}, "wands.Lera"), ({"phase": "attic"}, "phase")])
def test_a_position_of_the_wrong_shape_is_malformed_naming_the_key(changes: dict[str, Any], key: str) -> None:
    with pytest.raises(MalformedAction, match=key):
        RULES.from_position(PLAYERS, {}, broken(**changes), Random(0))


def test_a_refused_position_stores_nothing_and_replay_says_so_in_one_line(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    bad = broken(moat=["vampire"] * 3)  # the game has two vampires
    err = refused_position_stores_nothing(tmp_path, script("final_battle"), bad, "position-supply", capsys)
    assert "vampire" in err


ROOM_POSITION: dict[str, Any] = {
    "phase": "room", "wands": {"Lera": 1, "Rosa": 4}, "room": {"name": "bedroom", "visible": ["trap", "ghost"],
                                                              "secret": 2},
    "rooms_left": ["kitchen"], "satchels": {"Lera": ["crystal_ball", "gold_1"], "Rosa": ["mistletoe", "mushroom"]},
    "moat": ["pumpkin"], "potions": ["green_1", "red_2", "blue_1"], "cards": ["RETIRO", "LOCUS", "FORTUNA"],
    "sorcerers": ["lady_goblin", "face_down", "face_down", "face_down", "face_down", "face_down"],
}


@pytest.mark.parametrize("draws", ["companion", "table"])
def test_a_game_begun_in_a_room_plays_on_to_the_end(draws: str) -> None:
    start = RULES.from_position(["Lera", "Rosa"], {"draws": draws}, ROOM_POSITION, Random(5))
    view = RULES.public_view(start)
    assert [t["kind"] for t in view["room"]["tokens"]] == ["trap", "ghost", None, None]
    assert view["rooms_left"] == 1 and view["sorcerers"][0]["kind"] == "lady_goblin"
    assert RULES.legal_actions(start)["kind"] == "cast"
    for _, state in bot_states(start, 5):
        check_invariants(state)
    assert state.phase == "over"


def test_an_expert_position_with_magic_books_plays_to_the_end_and_replays_from_the_command(tmp_path: Path,
                                                                                          capsys) -> None:  # type: ignore[no-untyped-def]
    expert = broken(books=["book_any_2", None, "book_spell_1"],
                    satchels={**BATTLE["satchels"], "Lera": ["ghost", "book_gold_2"]})
    with pytest.raises(IllegalAction, match="expert"):
        RULES.from_position(PLAYERS, {}, expert, Random(0))
    start = RULES.from_position(PLAYERS, {"expert": True}, expert, Random(1))
    assert RULES.public_view(start)["books"][0]["kind"] == "book_any_2"
    for _, state in bot_states(start, 1):
        check_invariants(state)
    assert main(["replay", str(Path(__file__).with_name("golden") / "final_battle.jsonl"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {**play(script("final_battle")).view()}

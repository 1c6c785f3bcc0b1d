"""The rulebook's worked examples, as game scripts played through the engine."""
from __future__ import annotations

import json

from incantibus_helpers import GOLDEN, claim, play, satchel_kinds, script


def test_contest_goes_to_the_strongest_wand_who_swaps_with_the_weakest() -> None:
    view = play(script("lera_kirill_katya_rosa")).view()
    stake = claim(view, "r0")
    assert stake["claimants"] == ["Lera", "Kirill", "Katya"]
    assert stake["winner"] == "Lera" and stake["swap"] == ["Lera", "Katya"]
    assert satchel_kinds(view, "Lera") == ["flying_stake"]
    assert satchel_kinds(view, "Kirill") == [] and satchel_kinds(view, "Katya") == []
    assert satchel_kinds(view, "Rosa") == ["pumpkin"]
    assert view["wands"] == {"Lera": 1, "Kirill": 2, "Katya": 4, "Rosa": 3}
    assert [t["kind"] for t in view["room"]["tokens"]] == ["mistletoe", "mushroom", "trap", "wand_net", "crystal_ball"]


def test_kirill_catches_the_vampire_under_a_secret_token_with_his_flying_stake() -> None:
    game = play(script("kirill_vampire"))
    view = game.view()
    assert {"event": "caught", "player": "Kirill", "kind": "vampire", "by": "flying_stake"}.items() <= \
        view["last_cast"]["events"][0].items()
    assert "vampire" in satchel_kinds(view, "Kirill") and "flying_stake" in satchel_kinds(view, "Kirill")
    assert view["scores"]["Kirill"] == 5


def test_the_vampire_escapes_a_player_without_the_stake() -> None:
    lines = script("kirill_vampire")
    lines[-2] = {"type": "cast", "targets": {"Kirill": "r1", "Katya": "r4"}}  # Katya has no flying stake
    view = play(lines).view()
    assert "vampire" in view["moat"] and "vampire" not in satchel_kinds(view, "Katya")
    assert any(e["event"] == "escaped" and e["player"] == "Katya" for e in view["last_cast"]["events"])


def test_katya_brews_the_green_potion_and_its_ingredients_go_to_the_moat() -> None:
    view = play(script("katya_green_potion")).view()
    assert satchel_kinds(view, "Katya") == ["green_1"]
    assert view["moat"][-2:] == ["mistletoe", "mushroom"]
    assert view["scores"]["Katya"] == 5
    assert view["potions"][0] is None  # refilled only when the next room opens


def test_katya_scores_35_points_in_a_whole_game() -> None:
    game = play(script("katya_35_points"))
    view = game.view()
    katya = next(p for p in view["players"] if p["name"] == "Katya")
    assert katya["breakdown"] == {"potion": 5, "monster": 5 + 3 + 4 + 3, "gold": 3 + 2, "spell": 2, "sorcerer": 8}
    assert view["scores"] == {"Katya": 35, "Kirill": 5}
    assert view["phase"] == "over" and view["winner"] == "Katya"
    assert sorted(view["spell_cards_used"]) == ["FORTUNA", "LOCUS"]


def test_witch_indigo_goes_to_the_stronger_claimant_who_pays_a_blue_potion_and_swaps() -> None:
    view = play(script("witch_indigo")).view()
    fight = claim(view, "s5")
    assert fight["claimants"] == ["Katya", "Kirill"] and fight["winner"] == "Katya"
    assert fight["swap"] == ["Katya", "Kirill"] and view["wands"] == {"Katya": 1, "Kirill": 4}
    assert "witch_indigo" in satchel_kinds(view, "Katya") and "blue_1" not in satchel_kinds(view, "Katya")
    assert view["moat"][-1] == "blue_1"
    assert view["sorcerers"][5] is None


def test_lera_defeats_the_white_lady_with_a_ghost() -> None:
    view = play(script("white_lady")).view()
    assert "white_lady" in satchel_kinds(view, "Lera") and "ghost" not in satchel_kinds(view, "Lera")
    assert view["moat"][-1] == "ghost"


def test_the_archmage_escapes_rosa_who_has_no_spell_tokens() -> None:
    view = play(script("archmage_escapes")).view()
    assert view["moat"][-1] == "archmage" and "archmage" not in satchel_kinds(view, "Rosa")
    assert view["sorcerers"][5] is None
    event = view["last_cast"]["events"][-1]
    assert event["event"] == "escaped" and "2 spell tokens" in event["why"]


def test_undo_of_a_whole_script_and_redo_give_the_same_view() -> None:
    game = play(script("katya_35_points"))
    end = game.view()
    game.undo_to(0)
    assert game.view()["casting"] == 0
    for _ in range(len(script("katya_35_points")) - 1):
        game.redo()
    assert {k: v for k, v in game.view().items() if k not in ("version", "can_undo", "can_redo")} == \
        {k: v for k, v in end.items() if k not in ("version", "can_undo", "can_redo")}


def test_the_replay_command_plays_a_golden_script_to_the_same_end(capsys) -> None:  # type: ignore[no-untyped-def]
    from companion import replay
    assert replay.main([str(GOLDEN / "katya_35_points.jsonl"), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    direct = play(script("katya_35_points")).view()
    assert printed["scores"] == direct["scores"] == {"Katya": 35, "Kirill": 5}
    assert printed["players"] == direct["players"] and printed["winner"] == "Katya"


def test_the_golden_files_are_what_make_golden_writes() -> None:
    import make_golden
    for name, make in make_golden.SCRIPTS.items():
        assert [json.loads(line) for line in (GOLDEN / f"{name}.jsonl").read_text().splitlines()] == make(), name

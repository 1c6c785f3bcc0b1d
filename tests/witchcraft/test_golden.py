"""The rulebook's rules stated as examples, as game scripts played through the engine and the replay command."""
from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest

from witchcraft_helpers import GOLDEN, play, script


def player(view: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in view["players"] if p["name"] == name)


def test_a_buy_pays_one_crystal_per_card_without_crystals_and_takes_the_crystals_on_it() -> None:
    view = play(script("buy_three_in_a_row")).view()
    ann = player(view, "Ann")
    assert ann["crystals"] == 4 - 2 + 2
    assert [m["crystals"] for m in view["market"]] == [1, 0, 0, 0, 0, 0, 0, 0, 1]
    assert [m["card"]["card"] for m in view["market"][3:6]] == ["I11", "I12", "I13"]  # refilled from the deck
    assert [c["card"] for c in ann["cast"]] == ["W01"] and ann["breakdown"] == {"spells": 1, "hare": 0,
                                                                                 "familiars": 0, "witch": 1}
    assert [c["card"] for c in ann["spells"][0]["assigned"]] == ["J1"]  # the joker waits in the other spell


def test_two_witches_shift_the_market_after_every_round() -> None:
    before = play(script("two_player_round")[:-1]).view()
    assert [m["card"]["card"] for m in before["market"]][6:] == ["I51", "I52", "I53"]
    view = play(script("two_player_round")).view()
    cards = [m["card"]["card"] for m in view["market"]]
    assert cards == ["I11", "I12", "I13", "I41", "I42", "I43", "I71", "J1", "I01"]
    assert [m["crystals"] for m in view["market"]] == [0, 1, 0, 0, 2, 0, 0, 0, 0]
    assert view["discard"] == before["discard"] + 3  # the bottom row: I51, I52, I53


def test_the_owl_is_worth_3_and_20_magic_ends_the_game_at_once() -> None:
    game = play(script("owl_reaches_20"))
    view = game.view()
    assert view["scores"]["Ann"] == 20 and view["over"] and view["winner"] == "Ann"
    assert player(view, "Ann")["breakdown"] == {"spells": 15, "hare": 0, "familiars": 4, "witch": 1}
    assert game.rules.random_action(game.state, Random(1)) is None


def test_the_replay_command_plays_the_owl_to_20(capsys: pytest.CaptureFixture[str]) -> None:
    from companion import replay
    assert replay.main([str(GOLDEN / "owl_reaches_20.jsonl"), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["scores"] == {"Ann": 20, "Ben": 0} and printed["winner"] == "Ann"


def test_the_golden_files_are_what_make_golden_writes() -> None:
    import make_witchcraft_golden
    for name, make in make_witchcraft_golden.SCRIPTS.items():
        assert [json.loads(line) for line in (GOLDEN / f"{name}.jsonl").read_text().splitlines()] == make(), name

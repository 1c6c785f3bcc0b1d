"""Starting from a described position: validated like an action, every problem at once."""
from __future__ import annotations

from typing import Any

import pytest

from companion.engine.game import Game, rng_for
from companion.errors import MalformedAction
from tests.game_helpers import Found, position_problems
from witchcraft_helpers import MARKET, RULES, act, position


def problems(described: dict[str, Any]) -> Found:
    return position_problems(RULES, ["Ann", "Ben"], described)


def test_a_described_position_is_played_on_from() -> None:
    state = position(ann={"spells": {"W01": ["I72"], "W02": []}, "familiars": ["owl"]})
    assert state.supply == 28 - 12 and RULES.score(state)["Ann"] == 1 + 3
    state = act(state, {"type": "buy", "witch": "Ann", "cards": [5], "pay": [4]})  # the moonflower casts W01
    assert state.cast["Ann"] == ("W01",)


def test_every_problem_of_a_position_is_named_at_once() -> None:
    described = {"turn": "Ann", "market": MARKET, "on_market": [9, 9, 9, 0, 0, 0, 0, 0, 0], "players": {
        "Ann": {"witch": "brave", "crystals": 4, "spells": {"W01": [], "W02": [], "B01": [], "B02": []},
                "familiars": ["owl", "bat", "cat"], "snake": "bat_wing", "hare_casts": 1},
        "Ben": {"witch": "honest", "crystals": 8, "spells": {"W09": []}}}}
    found = problems(described)
    assert ("conservation", None, "crystals") in found
    assert ("spell-limit", "Ann", "spells") in found and ("familiars", "Ann", "familiars") in found
    assert ("snake", "Ann", "bat_wing") in found and ("hare", "Ann", "hare") in found


def test_unknown_cards_and_witches_and_cards_in_two_places() -> None:
    found = problems({"turn": "Cid", "market": MARKET, "players": {
        "Ann": {"witch": "wizard", "crystals": 4, "inventory": ["I41", "Z9"]},
        "Ben": {"witch": "honest", "crystals": 8, "familiars": ["dragon"]}}})
    assert ("position", "Cid", "turn") in found and ("witch", None, "wizard") in found
    assert ("card", None, "Z9") in found and ("conservation", None, "I41") in found
    assert ("familiar", None, "dragon") in found


def test_what_is_assigned_must_fit_and_a_winner_is_refused() -> None:
    found = problems({"turn": "Ann", "market": MARKET, "players": {
        "Ann": {"witch": "brave", "crystals": 4, "spells": {"W01": ["I11"]}, "cast": ["S03", "S07", "S08", "S01"]},
        "Ben": {"witch": "honest", "crystals": 8}}})
    assert ("assigned", "Ann", "I11") in found and ("goal", "Ann", "magic") in found


def test_a_badly_shaped_position_names_the_key() -> None:
    with pytest.raises(MalformedAction, match="market"):
        RULES.from_position(["Ann", "Ben"], {}, {"turn": "Ann", "market": [], "players": {}}, rng_for(1, 0))


def test_an_ingredient_left_in_the_inventory_that_fits_a_spell_is_refused() -> None:
    found = problems({"turn": "Ann", "market": MARKET, "players": {
        "Ann": {"witch": "brave", "crystals": 4, "spells": {"W01": []}, "inventory": ["I02"]},
        "Ben": {"witch": "honest", "crystals": 8}}})
    assert found == [("assigned", "Ann", "I02")]


@pytest.mark.parametrize("doc", ["replay.md", "via-magica.md", "witchcraft.md"])
def test_the_setup_lines_of_the_docs_start_from_their_position(doc: str) -> None:
    import json
    import re
    from pathlib import Path
    from companion import games as registry
    text = (Path(__file__).resolve().parents[2] / "docs" / doc).read_text()
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S) if '"type": "setup"' in b]
    lines = [line for line in blocks if line["game"] in ("via_magica", "witchcraft")]
    assert lines, doc
    for line in lines:
        assert "position" in line and "position" not in line.get("options", {}), line
        game = Game.start(registry.get(line["game"]), line["players"], line.get("options"), line["seed"],
                          position=line["position"])
        assert game.log.events()[0].payload["position"] == line["position"]


def test_the_position_is_no_longer_an_option() -> None:
    with pytest.raises(MalformedAction, match="unknown Witchcraft option 'position'"):
        Game.start(RULES, ["Ann", "Ben"], {"position": {"turn": "Ann", "market": MARKET, "players": {}}}, 1)
    with pytest.raises(MalformedAction, match="unknown Witchcraft option 'position'"):
        RULES.from_position(["Ann", "Ben"], {"position": {}}, {"turn": "Ann", "market": MARKET, "players": {
            "Ann": {"witch": "brave", "crystals": 4}, "Ben": {"witch": "honest", "crystals": 8}}}, rng_for(1, 0))

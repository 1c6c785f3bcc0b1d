"""The golden scripts, played by `python -m companion replay` as a person would."""
from __future__ import annotations

from pathlib import Path

from companion.games.ravenskeep.catalogue import load
from tests.game_helpers import replay
from ravenskeep_helpers import GOLDEN


def player(view: dict[str, object], name: str) -> dict[str, int]:
    return next(p for p in view["players"] if p["name"] == name)  # type: ignore[attr-defined, no-any-return]


def test_a_tower_on_wizards_fills_a_bottle_and_a_spell_spends_it() -> None:
    view = replay(GOLDEN / "fill_and_spend.jsonl")
    assert {k: player(view, "Lera")[k] for k in ("full", "empty", "spent")} == {"full": 0, "empty": 4, "spent": 1}
    assert [i.get("wizard", i.get("tower")) for i in view["spaces"][2]["stack"]] == [None, None, "T1"]
    assert view["active"] == "Kirill"


def test_a_wizard_drops_into_ravenskeep_which_moves_on_and_the_turn_ends() -> None:
    view = replay(GOLDEN / "into_ravenskeep.jsonl")
    assert player(view, "Lera")["keep"] == 1 and view["ravenskeep"] == 1
    assert view["spaces"][1]["stack"] == [{"tower": "T1", "shield": True}, {"ravenskeep": True}]
    assert view["active"] == "Kirill" and view["cards_played"] == 0


def test_the_last_of_three_rolls_counts() -> None:
    view = replay(GOLDEN / "die_rerolls.jsonl")
    rolls = [n["value"] for n in view["notes"] if n["event"] == "rolled"]
    moved = next(n for n in view["notes"] if n["event"] == "tower")
    assert len(rolls) == 3 and moved["steps"] == rolls[-1] and moved["to"] == (13 + rolls[-1]) % 15


def test_a_game_started_in_its_last_round_goes_to_the_most_full_bottles() -> None:
    view = replay(GOLDEN / "last_round.jsonl")
    assert view["over"] and view["winner"] == ["Kirill"] and view["places"] == [["Kirill"], ["Lera"]]
    assert {p["name"]: (p["done"], p["full"], p["spent"], p["keep"]) for p in view["players"]} == {
        "Lera": (True, 4, 1, 3), "Kirill": (True, 5, 0, 3)}
    assert view["ravenskeep"] == 2 and [n["event"] for n in view["notes"]][-1] == "game_over"


def test_a_whole_game_ends_after_the_round_and_tied_players_share_the_victory() -> None:
    view = replay(GOLDEN / "whole_game.jsonl")
    assert view["over"] and view["legal"]["kind"] == "over"
    done = {p["name"]: p["full"] for p in view["players"] if p["done"]}
    assert view["winner"] == ["Kirill", "Katya"] and done["Kirill"] == done["Katya"] == max(done.values())
    assert view["places"] == [["Kirill", "Katya"], ["Lera"]]
    assert view["active"] == "Katya"  # the last seat: the round was finished


def test_the_doc_names_every_gap_of_the_data_file() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "ravenskeep.md").read_text()
    assert [gap for gap in load().gaps if f"`{gap}`" not in doc] == []


def test_the_golden_files_are_what_the_writer_writes(tmp_path: Path) -> None:
    import make_ravenskeep_golden
    make_ravenskeep_golden.main(tmp_path)
    made = sorted(tmp_path.glob("*.jsonl"))
    assert [m.name for m in made] == sorted(p.name for p in GOLDEN.glob("*.jsonl"))
    for m in made:
        assert m.read_text() == (GOLDEN / m.name).read_text(), m.name

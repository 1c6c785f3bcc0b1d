"""The golden scripts, played by `python -m companion replay` as a person would."""
from __future__ import annotations

from pathlib import Path

from tests.game_helpers import replay
from grimoire_helpers import GOLDEN


def test_a_monster_escapes_when_curses_are_left_at_the_start_field() -> None:
    view = replay(GOLDEN / "monster_escapes.jsonl")
    assert view["escaped"] == ["a"] and view["banished"] == []
    assert view["ritual"]["marker"] == 1 and view["monster"]["page"] == 2 and view["round"]["field"] == 2
    assert [n["event"] for n in view["notes"]][:3] == ["turn", "marker", "escaped"]
    # Page A lays one 4-element curse and one fire curse, on fields 2 and 3: Kirill reaches field 2 and
    # Lera field 3 (one madness card each), then both take page A's damage (one each) at ↺.
    assert {p["name"]: p["madness_hand"] for p in view["players"]} == {"Lera": 2, "Kirill": 2}
    assert view["madness"]["pile"] == 14 - 4


def test_a_monster_is_banished_when_no_curse_is_left() -> None:
    view = replay(GOLDEN / "monster_banished.jsonl")
    assert view["banished"] == ["a"] and view["scores"] == {"Lera": 1, "Kirill": 1}
    assert view["curses_banished"] == 2 and view["supply"]["feuer"]["2"] == 6 - 2
    assert "won" not in [n["event"] for n in view["notes"]]


def test_the_whole_grimoire_is_leafed_through_and_the_last_monster_banished() -> None:
    view = replay(GOLDEN / "whole_grimoire.jsonl")
    assert view["outcome"] == "won" and view["over"] and view["legal"]["kind"] == "over"
    assert view["banished"] == ["a", "b", "c", "d", "e", "last"]
    assert [b["status"] for b in view["book"]] == ["banished"] * 6  # the last page decided too
    assert view["winner"] == ["Lera", "Kirill", "Katya", "Rosa"]


def test_a_game_started_on_the_last_page_is_won_when_its_curses_are_banished() -> None:
    view = replay(GOLDEN / "last_page.jsonl")
    assert view["outcome"] == "won" and view["over"] and view["legal"]["kind"] == "over"
    assert view["banished"] == ["a", "c", "e", "last"] and view["escaped"] == ["b", "d"]
    assert view["curses_banished"] == 2 and view["scores"] == {"Lera": 4, "Kirill": 4}
    assert [n["event"] for n in view["notes"]] == ["turn", "marker", "banished", "won"]


def test_the_table_enters_the_curses_it_drew() -> None:
    view = replay(GOLDEN / "table_draws.jsonl")
    assert view["draws"] == "table" and view["awaiting"] == []
    laid = [sorted(c["elements"]) for f in view["ritual"]["fields"] for c in f["curses"]]
    assert laid == [sorted(["feuer", "wasser", "erde", "luft"]), sorted(["feuer", "feuer", "wasser", "luft"])]
    assert view["ritual"]["marker"] == 2 and view["players"][1]["madness_hand"] == 1  # Kirill: the curse on field 2


def test_the_doc_names_every_gap_of_the_data_file() -> None:
    from companion.games.grimoire.catalogue import load
    doc = (Path(__file__).resolve().parents[2] / "docs" / "grimoire.md").read_text()
    missing = [gap for gap in load().gaps if f"`{gap.split('.')[-1]}`" not in doc and f"`{gap}`" not in doc]
    assert missing == []


def test_the_golden_files_are_what_the_writer_writes(tmp_path: Path) -> None:
    import make_grimoire_golden
    make_grimoire_golden.main(tmp_path)
    made = sorted(tmp_path.glob("*.jsonl"))
    assert [m.name for m in made] == sorted(p.name for p in GOLDEN.glob("*.jsonl"))
    for m in made:
        assert m.read_text() == (GOLDEN / m.name).read_text(), m.name

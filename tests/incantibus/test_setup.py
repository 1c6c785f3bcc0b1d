"""Setup by player count and mode, options, and the token catalogue file."""
from __future__ import annotations

import json
from random import Random

import pytest

from companion.errors import MalformedAction
from companion.games.incantibus import tokens
from incantibus_helpers import RULES

NAMES = ["Lera", "Kirill", "Katya", "Rosa"]


@pytest.mark.parametrize("n, wands, rooms, spaces", [(2, [1, 4], 3, 6), (3, [1, 2, 4], 5, 9), (4, [1, 2, 3, 4], 7, 12)])
def test_setup_sets_aside_wands_rooms_and_sorcerers_by_player_count(n: int, wands: list[int], rooms: int,
                                                                   spaces: int) -> None:
    state = RULES.setup(NAMES[:n], {}, Random(5))
    view = RULES.public_view(state)
    assert sorted(view["wands"].values()) == wands
    assert view["rooms_left"] == rooms and view["room"]["name"] == "roof"
    assert len(view["room"]["tokens"]) == 7 and all(t["visible"] for t in view["room"]["tokens"])
    assert len(view["sorcerers"]) == spaces and len(state.aside) == 12 - spaces
    assert [s["face_up"] for s in view["sorcerers"]] == [True] + [False] * (spaces - 1)
    assert view["sorcerers"][0]["kind"] is not None and all(s["kind"] is None for s in view["sorcerers"][1:])
    assert len(view["potions"]) == 3 and "books" not in view and len(view["spell_cards"]) == 3
    assert view["phase"] == "room" and view["pending"] == {"kind": "cast"}


def test_expert_mode_opens_three_magic_books() -> None:
    view = RULES.public_view(RULES.setup(NAMES, {"expert": True}, Random(5)))
    assert [b["id"] for b in view["books"]] == ["b0", "b1", "b2"] and all(b["condition"] for b in view["books"])


def test_the_wands_are_dealt_at_random_unless_the_table_says_how() -> None:
    deals = {tuple(RULES.setup(NAMES, {}, Random(seed)).wands.values()) for seed in range(20)}
    assert len(deals) > 1
    dealt = {"Lera": 4, "Kirill": 2, "Katya": 1, "Rosa": 3}
    assert RULES.setup(NAMES, {"deal": dealt}, Random(0)).wands == dealt


@pytest.mark.parametrize("options, bad", [({"colour": "red"}, "'colour'"), ({"expert": "yes"}, "'yes'"),
                                         ({"draws": "camera"}, "'camera'"),
                                         ({"deal": {"Lera": 4, "Kirill": 4, "Katya": 1, "Rosa": 3}}, "'Kirill': 4")])
def test_bad_options_are_refused_naming_the_bad_value(options: dict[str, object], bad: str) -> None:
    with pytest.raises(MalformedAction, match=bad) as caught:
        RULES.setup(NAMES, options, Random(0))
    assert isinstance(caught.value, ValueError)


def test_table_draws_wait_for_the_roof_and_the_faces() -> None:
    state = RULES.setup(NAMES[:2], {"draws": "table"}, Random(0))
    assert RULES.legal_actions(state)["kind"] == "room_entered"
    assert RULES.public_view(state)["potions"][0]["kind"] is None


def test_the_catalogue_matches_the_rulebook_totals_and_lists_its_gaps() -> None:
    cat = tokens.load()
    assert len(cat.pools[tokens.VISIBLE]) == 38 and len(cat.pools[tokens.SECRET]) == 26
    assert len(cat.pools[tokens.CARD]) == 12 and len(cat.pools[tokens.SORCERER]) == 12
    assert cat.kinds["vampire"].points == 5 and cat.kinds["flying_stake"].catches == "vampire"
    assert "kinds.mandrake.visible" in cat.gaps and "sorcerers.magister_ramus.points" in cat.gaps
    assert "kinds.vampire.points" not in cat.gaps


def test_a_catalogue_that_contradicts_the_rulebook_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    raw = json.loads(tokens.DATA.read_text())
    raw["kinds"]["goblin"]["visible"] += 1
    bad = tmp_path / "tokens.json"
    bad.write_text(json.dumps(raw))
    with pytest.raises(tokens.CatalogueError, match="39"):
        tokens.load(bad)
    raw["kinds"]["goblin"]["visible"] = -1
    bad.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match="-1"):
        tokens.load(bad)


def test_the_model_page_names_every_gap_of_the_data_file() -> None:
    page = (tokens.DATA.parents[4] / "docs" / "incantibus.md").read_text()
    missing = sorted({g.split(".")[1] for g in tokens.load().gaps if f"`{g.split('.')[1]}`" not in page})
    assert missing == []


def unsourced(node: object, path: str = "", source: object = None) -> list[str]:
    """Paths of the numbers (and lists) in the data file with no ``source``: an entry's ``source`` is
    either one word for all its fields or a word per field, and it holds for everything inside."""
    if isinstance(node, dict):
        own = node.get("source", source)
        found: list[str] = []
        for key, value in node.items():
            if key not in ("source", "note"):
                inner = own.get(key) if isinstance(own, dict) else own
                found += unsourced(value, f"{path}.{key}", inner)
        return found
    numeric = isinstance(node, (int, list)) and not isinstance(node, bool)
    return [path] if numeric and source not in ("rulebook", "gap") else []


def test_every_number_in_the_data_file_says_where_it_comes_from() -> None:
    raw = json.loads(tokens.DATA.read_text())
    assert unsourced(raw) == []
    del raw["kinds"]["mandrake"]["source"]["secret"]
    raw["rooms"]["roof"]["source"] = {}
    assert unsourced(raw) == [".kinds.mandrake.secret", ".rooms.roof.visible", ".rooms.roof.secret"]

"""The casting the table side hands the game: the camera's wands turned into the players' targets."""
from __future__ import annotations

import pytest

from companion.cue import Cue
from companion.tableside.asking import seen_targets, unsure_wands
from companion.tableside.proposal import CastProposal
from vision.decide import CastingResult, WandReading


def test_a_reading_by_wand_becomes_a_proposal_by_player() -> None:
    proposal = CastProposal.from_reading({4: "r2", 1: None, 2: "p0"}, {1: "Kirill", 2: "Lera", 4: "Rosa"}, 7,
                                         Cue("hub", 12.5))
    assert proposal.action() == {"type": "cast", "targets": {"Rosa": "r2", "Kirill": None, "Lera": "p0"}}
    assert (proposal.base, proposal.action_id) == (7, "camera-hub-12.500")
    assert proposal.said({"r2": "mandrake", "p0": "healing potion"}) == \
        "Rosa → mandrake, Kirill → nothing, Lera → healing potion"
    assert proposal.said({}) == "Rosa → a token, Kirill → nothing, Lera → a token"  # never a place id


def test_a_wand_nobody_holds_is_not_guessed_at() -> None:
    with pytest.raises(ValueError, match=r"\[3\]"):
        CastProposal.from_reading({3: "r0"}, {1: "Kirill"}, 0, Cue("tablet", 1.0))


def test_the_readings_give_the_wands_read_and_the_wands_to_ask() -> None:
    result = CastingResult({
        4: WandReading(4, "target", "room2", 0.97, "room1", {}),
        2: WandReading(2, "unsure", None, 0.5, "room3", {}, best="room1"),
        1: WandReading(1, "missing", None, 0.0, None, {}),
    }, decided_at=1.0, cue_at=0.0)
    assert seen_targets(result) == {1: None, 2: None, 4: "room2"}
    assert unsure_wands(result) == [1, 2]
    assert result.as_dicts()[1]["runner_up"] == "room3"


def test_places_are_named_as_the_board_names_them_never_by_id() -> None:
    from companion.tableside.asking import place_names

    view = {"legal": {"tokens": {
        "r0": {"place": "room", "slot": 0, "visible": False, "kind": None},
        "r1": {"place": "room", "slot": 1, "visible": True, "kind": "crystal_ball"},
        "r2": {"place": "room", "slot": 2, "visible": False, "kind": None},
        "s3": {"place": "sorcerer", "slot": 3, "visible": False, "kind": None},
        "p0": {"place": "potion", "slot": 0, "visible": True, "kind": "crystal_ball"}}}}
    assert place_names(view, ["r0", "r1", "s3"]) == {"r0": "secret token, room 1", "r1": "crystal ball, room 2",
                                                     "s3": "face-down sorcerer"}
    assert place_names(view, ["p0"]) == {"p0": "crystal ball, potion 1"}  # alike to one on the table, not asked

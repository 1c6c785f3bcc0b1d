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

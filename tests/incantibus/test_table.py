"""Table draws: what the table enters is checked against the box before anything changes."""
from __future__ import annotations

from random import Random

from companion.games.incantibus.state import State
from companion.games.incantibus.steps import AwaitReveal
from incantibus_helpers import RULES, act, bot_states, cast, table

TWO = {"Lera": 4, "Rosa": 1}
ROOF = ["flying_stake", "pumpkin", "mistletoe", "mushroom", "trap", "wand_net", "crystal_ball"]


def fresh() -> State:
    return RULES.setup(list(TWO), {"draws": "table", "deal": TWO}, Random(0))


def test_the_roof_must_show_its_seven_visible_tokens() -> None:
    problems = RULES.check(fresh(), {"type": "room_entered", "room": "roof", "visible": ["pumpkin"], "secret": 0})
    assert [p.rule for p in problems] == ["room-tile"] and "7 visible" in problems[0].message


def test_more_tokens_of_a_kind_than_the_box_holds_are_refused() -> None:
    problems = RULES.check(fresh(), {"type": "room_entered", "visible": ["vampire"] * 7, "secret": 0})
    assert [(p.rule, p.target) for p in problems] == [("visible-supply", "vampire")]
    assert "only 0 visible 'vampire'" in problems[0].message


def test_a_face_that_is_not_awaited_or_not_in_the_box_is_refused() -> None:
    state = act(fresh(), {"type": "room_entered", "room": "roof", "visible": ROOF, "secret": 0})
    assert isinstance(state.pending, AwaitReveal) and set(state.pending.refs) == {"p0", "p1", "p2", "s0", "c0", "c1", "c2"}
    problems = RULES.check(state, {"type": "reveal", "kinds": {"r0": "vampire", "p0": "purple_9", "c0": "FORTUNA"}})
    assert [(p.rule, p.target) for p in problems] == [("reveal-target", "r0"), ("reveal-kind", "p0")]
    problems = RULES.check(state, {"type": "reveal", "kinds": {"p0": "green_1", "p1": "green_1"}})
    assert [(p.rule, p.target) for p in problems] == [("reveal-kind", "p1")]


def test_faces_may_be_entered_a_few_at_a_time() -> None:
    state = act(fresh(), {"type": "room_entered", "room": "roof", "visible": ROOF, "secret": 0},
                {"type": "reveal", "kinds": {"p0": "green_1", "s0": "archmage"}})
    assert isinstance(state.pending, AwaitReveal) and set(state.pending.refs) == {"p1", "p2", "c0", "c1", "c2"}


def test_an_unnamed_room_takes_a_tile_with_those_counts() -> None:
    state = table(TWO, ROOF)
    state = act(state, cast(Lera="r0", Rosa="r1"), cast(Lera="r2", Rosa="r3"), cast(Lera="r4", Rosa="r5"))
    state = act(state, {"type": "room_entered", "visible": ["gold_1", "spell", "trap"], "secret": 4})
    assert state.room == "kitchen" and "kitchen" not in state.pools["R"]


def test_bots_can_play_a_whole_table_draws_game() -> None:
    *_, (action, last) = bot_states(fresh(), 11)
    assert last.phase == "over" and action["type"] in ("wand_down", "cast", "reveal", "satchel", "spell")

"""The shared ``parse_action``/``check``/``apply`` of the games, on a game of counters made here and
on every real game's refusal of an action type it does not know."""
from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import Literal

import pytest

from companion.engine.actions import ActionModel, actions_of
from companion.engine.dispatch import DispatchRules, on, without_rng
from companion.errors import MalformedAction, Problem
from companion.games import get


class Add(ActionModel):
    type: Literal["add"] = "add"
    amount: int


class Draw(ActionModel):
    type: Literal["draw"] = "draw"


@dataclass
class Counter:
    total: int = 0
    drawn: list[int] = field(default_factory=list)
    settled: int = 0

    def copy(self) -> Counter:
        return Counter(self.total, list(self.drawn), self.settled)


def _add(state: Counter, action: Add) -> None:
    state.total += action.amount


def _draw(state: Counter, action: Draw, rng: Random) -> None:
    state.drawn.append(rng.randint(1, 6))


def _check_add(state: Counter, action: Add) -> list[Problem]:
    return [] if action.amount > 0 else [Problem("amount", f"add at least 1, not {action.amount}")]


class Counting(DispatchRules[Counter, Add | Draw]):
    called = "Counting"
    actions = actions_of(Add, Draw)
    handlers = (on(Add, _check_add, without_rng(_add)), on(Draw, lambda state, action: [], _draw))

    def precondition(self, state: Counter, action: Add | Draw) -> list[Problem]:
        return [Problem("full", "the counter is full")] if state.total >= 10 else []

    def settle(self, state: Counter, action: Add | Draw, rng: Random) -> None:
        state.settled += 1


RULES = Counting()


def test_parse_action_validates_against_the_declared_actions() -> None:
    assert RULES.parse_action({"type": "add", "amount": 2}) == Add(amount=2)
    assert RULES.parse_action({"type": "add", "amount": 2}).payload() == {"type": "add", "amount": 2}
    with pytest.raises(MalformedAction, match="'amount'"):
        RULES.parse_action({"type": "add", "amount": "2"})


def test_an_unknown_type_is_named_with_the_types_the_game_knows() -> None:
    [problem] = RULES.check(Counter(), {"type": "fly"})
    assert (problem.rule, problem.message) == ("action-type", "Counting has no action 'fly'; it knows add, draw")
    assert RULES.check(Counter(), {"type": ["add"]})[0].rule == "action-type"  # not a string: still one problem


def test_the_precondition_comes_before_the_action_s_own_check() -> None:
    assert [p.rule for p in RULES.check(Counter(), {"type": "add", "amount": 0})] == ["amount"]
    assert [p.rule for p in RULES.check(Counter(total=10), {"type": "add", "amount": 0})] == ["full"]
    assert RULES.check(Counter(), {"type": "add", "amount": 3}) == []


def test_apply_changes_a_copy_then_settles_it() -> None:
    before = Counter(total=1)
    after = RULES.apply(before, {"type": "add", "amount": 3}, Random(1))
    assert (before.total, before.settled) == (1, 0)
    assert (after.total, after.settled) == (4, 1)


def test_the_generator_reaches_the_applies_that_draw() -> None:
    drawn = RULES.apply(Counter(), {"type": "draw"}, Random(7)).drawn
    assert drawn == [Random(7).randint(1, 6)]


@pytest.mark.parametrize(("game", "called"), [("incantibus", "Incantibus"), ("via_magica", "Via Magica"),
                                              ("witchcraft", "Witchcraft"), ("grimoire", "the Grimoire"),
                                              ("ravenskeep", "Ravenskeep")])
def test_every_game_names_itself_when_refusing_an_unknown_type(game: str, called: str) -> None:
    rules = get(game)
    state = rules.setup(["Ann", "Ben", "Cat", "Dan"][:rules.player_counts[0]], {}, Random(1))
    [problem] = rules.check(state, {"type": "fly"})
    assert problem.message.startswith(f"{called} has no action 'fly'; it knows ")

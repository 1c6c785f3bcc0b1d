"""Bots play random legal games to the end; the table's invariants hold after every action."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.via_magica.portals import load
from companion.games.via_magica.scoring import green_points
from companion.games.via_magica.state import State
from via_magica_helpers import RULES, bot_states, start

NAMES = ["Tom", "Paola", "Lera", "Rosa", "Kirill", "Katya"]
BAG = Counter({"Air": 6, "Water": 5, "Earth": 4, "Life": 3, "Fire": 2, "Shadow": 1, "Wildcard": 2})


def check_invariants(state: State) -> None:
    cat = load()
    # Every portal card is in exactly one place.
    where = [*state.deck, *state.row, *state.discard]
    for p in state.players:
        where += [*state.hands[p], *state.areas[p], *state.achieved[p], *state.opening[p]]
    assert Counter(where) == Counter(list(cat.portals))
    # The 23 Animus tokens are in the bag or out in front of the Catcher.
    assert Counter(state.bag) + Counter(state.out) == BAG
    for p in state.players:
        # Crystals: 7 each plus those yellow effects gave, in the stockpile or on a portal; none lost.
        placed = sum(len(state.crystals[x]) for x in state.areas[p])
        assert state.stockpiles[p] >= 0 and state.stockpiles[p] + placed == cat.stockpile + state.gained[p]
        # The 2-copies rule and the crystallization area's limit.
        mine = [cat.design(x) for x in (*state.areas[p], *state.achieved[p], *state.opening[p])]
        assert len(mine) == len(set(mine))
        # One number reward each, rewards held once.
        assert sum(cat.rewards[r].category == "number" for r, who in state.rewards.items() if who == p) <= 1
        # The score is its parts: rewards, printed points, green effects.
        cards = [cat.portals[x] for x in state.achieved[p]]
        parts = sum(cat.rewards[r].points for r, who in state.rewards.items() if who == p)
        parts += sum(c.points for c in cards if c.colour != "green")
        parts += sum(green_points(state, p, c.effect) for c in cards if c.colour == "green")
        assert RULES.score(state)[p] == parts
    assert set(state.crystals) == {x for p in state.players for x in state.areas[p]}


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 6), table=st.booleans(), choose=st.booleans(),
       cards=st.booleans())
def test_random_games_keep_every_invariant_and_end_with_seven_portals(seed: int, n: int, table: bool,
                                                                      choose: bool, cards: bool) -> None:
    state = start(NAMES[:n], draws="table" if table else "companion", deal="choose" if choose else "random",
                  portals="table" if cards else "companion")
    check_invariants(state)
    for _, after in bot_states(state, seed):
        state = after
        check_invariants(state)
        RULES.public_view(state)
        RULES.legal_actions(state)
    assert state.phase == "over"
    assert max(len(state.achieved[p]) for p in state.players) >= 7
    ranking = RULES.ranking(state)
    scores = RULES.score(state)
    assert [(-scores[p], -len(state.achieved[p])) for p in ranking] == sorted((-scores[p], -len(state.achieved[p]))
                                                                             for p in ranking)

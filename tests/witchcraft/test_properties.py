"""Bots play random legal games to the end; the table's invariants hold after every action."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.witchcraft.cards import load
from companion.games.witchcraft.magic import magic
from companion.games.witchcraft.state import State
from witchcraft_helpers import RULES, bot_states, start

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"]


def check_invariants(state: State) -> None:
    box = load()
    # Every card is in one place.
    where = [*state.deck, *state.discard, *state.aside, *(c for c in state.market if c), *state.basic]
    for p in state.players:
        where += [*state.spells[p], *state.inventory[p], *state.cast[p]]
    where += [c for cs in state.assigned.values() for c in cs]
    starting_unused = [c for w, spells in box.starting.items() if w not in state.witches.values() for c in spells]
    assert Counter(where) == Counter([*box.deck, *box.basic, *(c for cs in box.starting.values() for c in cs)]) - \
        Counter(starting_unused)
    familiars = [*state.familiar_stack, *state.familiar_discard, *(f for p in state.players for f in state.familiars[p])]
    assert Counter(familiars) == Counter(list(box.familiars))
    # 28 crystals, none negative.
    assert state.supply + sum(state.crystals.values()) + sum(state.on_market) == box.crystals
    assert min([state.supply, *state.crystals.values(), *state.on_market]) >= 0
    for p in state.players:
        # Limits: 3 spells (more only until the end of her turn), 2 familiars (a third until discarded).
        assert len(state.spells[p]) <= box.max_spells or (state.witch == p and state.winner is None)
        assert len(state.familiars[p]) <= box.max_familiars + (state.pending == ("discard_familiar", p))
        # Magic is its parts.
        parts = sum(box.cards[s].magic for s in state.cast[p]) + 3 * state.hare_casts[p]
        parts += sum(box.familiars[f].magic for f in state.familiars[p]) + box.witches[state.witches[p]].magic
        assert RULES.score(state)[p] == parts
    if state.winner is None and state.pending[0] != "discard_familiar":  # a third familiar is given up first
        assert max(magic(state, p) for p in state.players) < box.goal


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 6))
def test_random_games_keep_every_invariant_and_end_at_20_magic(seed: int, n: int) -> None:
    state = start(NAMES[:n])
    check_invariants(state)
    for _, after in bot_states(state, seed):
        state = after
        check_invariants(state)
        RULES.public_view(state)
        RULES.legal_actions(state)
    assert state.winner is not None
    reached = magic(state, state.winner) >= load().goal
    assert reached or state.notes[-1]["event"] == "stalled"
    assert RULES.ranking(state)[0] == state.winner

"""Bots play random legal games to the end; the table's invariants hold after every action."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.game import Game
from companion.games.grimoire import hands
from companion.games.grimoire.catalogue import load
from companion.games.grimoire.state import State
from grimoire_helpers import NAMES, RULES
from tests.game_helpers import read_back_is_live

CAT = load()


def check_invariants(state: State) -> None:
    # Every curse is in exactly one place: a pile or a field of the circle.
    where = [c for pile in state.piles.values() for c in pile] + list(state.curses_out)
    banished = state.curses_banished
    assert len(where) == len(set(where)) and len(where) + banished == len(CAT.curses)
    assert set(state.fields) == set(CAT.curse_fields)
    # Madness cards are conserved; the pile never goes below zero.
    held = sum(p.madness_hand + p.madness_support for p in state.players)
    assert state.madness_pile >= 0 and held + state.madness_pile == CAT.madness[len(state.players)]
    # Limits: at most five spells, each once; the supply never negative; the marker on the circle.
    for p in state.players:
        assert len(p.spells) <= CAT.max_spells and len(set(p.spells)) == len(p.spells) and p.exhausted <= set(p.spells)
    learned = [s for p in state.players for s in p.spells if s not in CAT.basic_spells]
    library = [s for pile in state.library.values() for s in pile]
    assert sorted(learned + list(state.spells_gone) + library) == sorted(s for pile in CAT.library.values() for s in pile)
    assert all(0 <= n <= CAT.supply[v] for piles in state.supply.values() for v, n in piles.items())
    assert 0 <= state.marker < 6 and (state.marker != 0 or state.outcome is not None)
    # The score is its parts: the monsters banished, the same for everyone.
    assert set(RULES.score(state).values()) == {len(state.banished)}
    assert len(state.banished) + len(state.escaped) in (state.page, state.page + 1)
    if state.outcome is None:
        assert not state.current.out


def element_cards(state: State) -> dict[str, int]:
    return {p.name: len(p.cards.hand) + len(p.cards.deck) + len(p.cards.discard) for p in state.players if p.cards}


def check_cards(state: State, action: dict[str, object], before: dict[str, int]) -> None:
    """Tracked hands: a player's element cards change only by a card gained (bought, a curse's reward) and
    the cards a purchase takes out of the game; a hand never holds more than six element cards."""
    if not state.tracked:
        return
    expected = dict(before)
    note = state.notes[-1] if state.notes else {}
    if action["type"] == "buy":
        expected[str(action["player"])] += 1 - len(note["cards"])  # type: ignore[arg-type]
    if action["type"] == "banish" and action.get("reward"):
        expected[str(action["player"])] += 1
    assert element_cards(state) == expected
    for p in state.players:
        assert p.cards is not None and all(hands.parse(c) for c in p.cards.hand + p.cards.deck + p.cards.discard)
        assert len(p.cards.hand) <= CAT.hand_size  # draws fill to six, madness cards counted; madness may come on top


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(1, 4), difficulty=st.sampled_from(sorted(CAT.difficulty)),
       draws=st.sampled_from(["companion", "table"]), held=st.sampled_from(["confirm", "tracked"]))
def test_random_games_keep_the_invariants_and_end(seed: int, players: int, difficulty: str, draws: str, held: str) -> None:
    game = Game.start(RULES, NAMES[:players], {"difficulty": difficulty, "draws": draws, "hands": held}, seed=seed)
    rng = Random(seed)
    while (action := RULES.random_action(game.state, rng)) is not None:
        before, cards = game.view(), element_cards(game.state)
        game.propose(action)
        check_invariants(game.state)
        check_cards(game.state, action, cards)
        if rng.random() < 0.05:  # undo then redo gives the same table
            after = game.view()
            game.undo()
            assert {**game.view(), "version": 0, "can_redo": 0} == {**before, "version": 0, "can_redo": 0}
            game.redo()
            assert {**game.view(), "version": 0, "can_undo": 0, "can_redo": 0} == {**after, "version": 0, "can_undo": 0, "can_redo": 0}
    assert RULES.is_over(game.state) and game.state.outcome in ("won", "lost")
    assert RULES.legal_actions(game.state)["kind"] == "over"


def test_a_game_read_back_from_a_real_store_is_the_live_game(tmp_path: Path) -> None:
    read_back_is_live(tmp_path, "grimoire", NAMES, seed=5)


def test_bots_both_win_and_lose() -> None:
    outcomes: Counter[str] = Counter()
    for seed in range(40):
        game = Game.start(RULES, NAMES[:3], seed=seed)
        rng = Random(seed)
        while (action := RULES.random_action(game.state, rng)) is not None:
            game.propose(action)
        outcomes[game.state.outcome or ""] += 1
    assert outcomes["won"] and outcomes["lost"]

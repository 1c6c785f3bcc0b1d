"""The table's own cards (option ``"draws": "table"``): a whole game whose every card was turned up by
Incanto is played again with each card entered as the table turned it, and both reach the same end and
replay to it from their stored logs; a card that cannot come up is refused with the rulebook's words
and nothing stored."""
from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

import pytest

from companion.engine.game import rng_for
from companion.errors import IllegalAction
from companion.games.witchcraft import table
from companion.games.witchcraft.cards import load
from companion.games.witchcraft.state import State
from companion.night import Night
from companion.store import Store
from tests.game_helpers import AtTable, bot_states, refused, stored_and_read_back
from witchcraft_helpers import RULES

PLAYERS = ["Ann", "Ben", "Cid"]
# The Curious turns cards over until a spell, the Kind takes the top familiar, the Brave starts.
WITCHES = {"Ann": "curious", "Ben": "kind", "Cid": "brave"}
MODE_ONLY = ("draws", "basic_top", "familiar_top", "last_turn")  # what the table's stacks do not show


def seen(state: State) -> dict[str, Any]:
    """The view both ways show alike. The game ends the moment a witch has 20 magic: Incanto refilled the
    market before that buy was counted, the table leaves the spaces empty, so only the cards laid out count."""
    view = RULES.public_view(state)
    out = {k: v for k, v in view.items() if k not in MODE_ONLY}
    if state.winner is not None:
        out["market"] = [space for space in view["market"] if space["card"] is not None]
        out["deck"] = len(state.deck) + sum(1 for c in state.market if c is None)
    return out


def ended_alike(incanto: State, at_table: State) -> bool:
    laid = {s["space"] for s in seen(at_table)["market"]}
    mine = seen(incanto)
    mine["market"] = [s for s in mine["market"] if s["space"] in laid]
    theirs = seen(at_table)
    mine["deck"] = theirs["deck"] = 0 if incanto.deck or at_table.deck else -1
    return mine == theirs


def entries_for(incanto: State, at_table: State) -> list[dict[str, Any]]:
    """What a table that turned up Incanto's cards enters where it waits for a card."""
    kind, who = at_table.pending[0], at_table.pending[-1]
    if kind == "turn_up":
        return [{"type": "turn_up", "witch": who, "cards": [c for s in table.gaps(at_table)
                                                             if (c := incanto.market[s]) is not None]}]
    if kind == "witch":
        return [{"type": "draw_witch", "witch": who, "drawn": incanto.witches[who]}]
    if kind == "benefit":
        if incanto.witches[who] == "kind":
            return [{"type": "turn_up", "witch": who, "cards": list(incanto.familiars[who])}]
        kept = [s for s in incanto.spells[who] if s not in load().starting[incanto.witches[who]]]
        return [{"type": "turn_up", "witch": who, "cards": [*incanto.discard, *kept]}]
    return []


def played_both_ways(seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]], State, State]:
    """(Incanto's log, the table's log, Incanto's end, the table's end) of one bot game."""
    incanto = RULES.setup(PLAYERS, {"witches": WITCHES}, rng_for(seed, 0))
    at_table = AtTable(RULES, RULES.setup(PLAYERS, {"draws": "table"}, rng_for(seed, 0)), seed)

    def follow() -> None:
        while entries := entries_for(incanto, at_table.state):
            at_table.enter(entries[0])

    follow()
    incanto_log = []
    for action, after in bot_states(RULES, incanto, seed):
        if action["type"] == "take_familiar":
            action = {**action, "revealed": incanto.familiar_stack[0]}
        elif action["type"] == "take_basic_spell":
            action = {**action, "revealed": incanto.basic[0]}
        incanto_log.append({k: v for k, v in action.items() if k != "revealed"})
        incanto = after
        at_table.enter(action)
        follow()
    return incanto_log, at_table.log, incanto, at_table.state


@pytest.mark.parametrize("seed", range(3))
def test_a_game_of_incantos_cards_entered_as_the_tables_ends_the_same(seed: int, tmp_path: Path) -> None:
    incanto_log, table_log, incanto, at_table = played_both_ways(seed)
    assert incanto.winner is not None and ended_alike(incanto, at_table)
    kinds = {a["type"] for a in table_log}
    assert {"turn_up", "draw_witch"} <= kinds and any("revealed" in a for a in table_log)
    # both stored in a night and read back from their logs: the same end as played
    live_incanto = stored_and_read_back(tmp_path / "a", "witchcraft", PLAYERS, {"witches": WITCHES}, seed, incanto_log)
    live_table = stored_and_read_back(tmp_path / "b", "witchcraft", PLAYERS, {"draws": "table"}, seed, table_log)
    assert seen(live_incanto.state) == seen(incanto) and seen(live_table.state) == seen(at_table)


def test_bots_play_whole_games_with_the_tables_cards() -> None:
    for seed in range(6):
        state = start = RULES.setup(["Ann", "Ben", "Cid", "Dee"][: 2 + seed % 3], {"draws": "table"}, rng_for(seed, 0))
        for _, after in bot_states(RULES, start, seed):
            state = after
        assert state.winner is not None and not state.dealing


def dealt(seed: int = 1) -> State:
    """The table's setup laid out: market, witches and benefits entered by the bots."""
    state = RULES.setup(PLAYERS, {"draws": "table", "witches": WITCHES}, rng_for(seed, 0))
    rng = Random(seed)
    while state.dealing:
        state = RULES.apply(state, RULES.parse_action(RULES.random_action(state, rng)), rng_for(seed, 1))
    return state


def test_the_setup_waits_for_the_market_then_each_witch_then_the_benefits() -> None:
    state = RULES.setup(PLAYERS, {"draws": "table"}, rng_for(1, 0))
    assert state.pending == ("turn_up", "Ann") and RULES.legal_actions(state)["spaces"] == list(range(9))
    state = RULES.apply(state, RULES.parse_action({"type": "turn_up", "witch": "Ann", "cards": ["I01", "I02"]}), Random(0))
    assert state.market[:3] == ("I01", "I02", None) and state.pending == ("turn_up", "Ann")
    assert refused(RULES, state, {"type": "turn_up", "witch": "Ann", "cards": ["I01"]}) == [("deck", "Ann", "I01")]
    state = RULES.apply(state, RULES.parse_action({"type": "turn_up", "witch": "Ann",
                                                   "cards": [f"I{n}" for n in range(11, 18)]}), Random(0))
    assert state.pending == ("witch", "Ann")
    state = RULES.apply(state, RULES.parse_action({"type": "draw_witch", "witch": "Ann", "drawn": "curious"}), Random(0))
    found = refused(RULES, state, {"type": "draw_witch", "witch": "Ben", "drawn": "curious"})
    assert found == [("witch", "Ben", "curious")]
    for who, witch in (("Ben", "kind"), ("Cid", "brave")):
        state = RULES.apply(state, RULES.parse_action({"type": "draw_witch", "witch": who, "drawn": witch}), Random(0))
    assert state.pending == ("benefit", "Ann") and state.crystals == {"Ann": 4, "Ben": 4, "Cid": 4}
    # "Draw cards from the deck until you draw a spell": the turning stops at the first spell
    assert refused(RULES, state, {"type": "turn_up", "witch": "Ann", "cards": ["I20", "S01", "I21"]}) == \
        [("benefit", "Ann", "I21")]
    state = RULES.apply(state, RULES.parse_action({"type": "turn_up", "witch": "Ann", "cards": ["I20", "S01"]}), Random(0))
    assert "S01" in state.spells["Ann"] and state.discard == ("I20",) and state.pending == ("benefit", "Ben")
    state = RULES.apply(state, RULES.parse_action({"type": "turn_up", "witch": "Ben", "cards": ["owl"]}), Random(0))
    assert state.familiars["Ben"] == ("owl",) and state.pending == ("turn", "Cid") and not state.dealing


def test_a_card_already_out_is_refused_with_the_rule_and_nothing_stored(tmp_path: Path) -> None:
    with Store(tmp_path / "night.sqlite") as store:
        game = Night.resume_or_start(store).start_game("witchcraft", PLAYERS, {"draws": "table", "witches": WITCHES}, 1)
        rng = Random(1)
        while game.state.dealing:
            game.propose(RULES.random_action(game.state, rng) or {})
        game.propose({"type": "buy", "witch": "Cid", "cards": [0], "pay": [1]})
        assert game.state.pending == ("turn_up", "Cid")
        state = game.state
        out = [(state.market[4], "it lies on market space 4"), (state.spells["Cid"][0], "it is in front of Cid"),
               (state.discard[0], "it is in the discard pile"), ("I99", "no such card in the box")]
        for bad, words in out:
            version, before = game.version, game.view()
            with pytest.raises(IllegalAction) as caught:
                game.propose({"type": "turn_up", "witch": "Cid", "cards": [bad]})
            said = str(caught.value)
            assert "The empty spaces in the market are immediately filled from the deck" in said and words in said
            assert game.version == version and game.view() == before
        game.propose({"type": "turn_up", "witch": "Cid", "cards": [table.possible(state)[0]]})
        assert game.state.pending == ("turn", "Ann")


def test_the_stacks_name_their_top_with_the_tables_cards_and_only_then() -> None:
    state = dealt()
    assert refused(RULES, state, {"type": "take_familiar", "witch": "Cid"}) == [("table-draws", "Cid", "take_familiar")]
    bens = state.familiars["Ben"][0]  # the Kind took it from the top of the stack
    assert refused(RULES, state, {"type": "take_familiar", "witch": "Cid", "revealed": bens}) == [("stack", "Cid", bens)]
    took = RULES.apply(state, RULES.parse_action({"type": "take_basic_spell", "witch": "Cid", "revealed": "B05"}), Random(0))
    assert "B05" in took.spells["Cid"] and "B05" not in took.basic
    incanto = RULES.setup(PLAYERS, {"witches": WITCHES}, rng_for(1, 0))
    who = incanto.witch
    assert refused(RULES, incanto, {"type": "take_familiar", "witch": who, "revealed": "cat"}) == \
        [("companion-draws", who, "cat")]


def test_the_ravens_row_lies_under_the_deck_until_the_rest_is_turned_up() -> None:
    state = dealt()
    state.familiars["Cid"] = ("raven",)
    row = [c for c in state.market[6:9] if c]
    state = RULES.apply(state, RULES.parse_action({"type": "familiar_action", "witch": "Cid", "familiar": "raven",
                                                   "row": 2}), Random(0))
    assert state.pending == ("turn_up", "Cid") and state.under == 3
    found = refused(RULES, state, {"type": "turn_up", "witch": "Cid", "cards": [row[0]]})
    assert found == [("deck", "Cid", row[0])]


def test_a_position_with_the_tables_cards_waits_for_the_card_turned_up() -> None:
    market = ["I41", "I42", "I43", "I71", None, "I01", "I51", "I52", "I53"]
    described = {"turn": "Ann", "market": market,
                 "players": {"Ann": {"witch": "brave", "crystals": 4}, "Ben": {"witch": "honest", "crystals": 8}}}
    state = RULES.from_position(["Ann", "Ben"], {"draws": "table"}, described, rng_for(1, 0))
    assert state.table_draws and state.pending == ("turn_up", "Ann") and state.market[4] is None
    assert refused(RULES, state, {"type": "turn_up", "witch": "Ann", "cards": ["I41"]}) == [("deck", "Ann", "I41")]
    incanto = RULES.from_position(["Ann", "Ben"], {}, described, rng_for(1, 0))
    assert incanto.market[4] is not None and incanto.pending == ("turn", "Ann")

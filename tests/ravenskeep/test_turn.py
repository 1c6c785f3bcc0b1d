"""Die cards rolled by Incanto, two cards a turn, forgoing, spells, the end of the game, bad input."""
from __future__ import annotations

from random import Random

import pytest

from companion.engine.game import Game
from companion.errors import IllegalAction, MalformedAction
from ravenskeep_helpers import RULES, board, play

LERA, KIRILL = {"player": "Lera"}, {"player": "Kirill"}


def new_game(seed: int = 4) -> Game:
    return Game.start(RULES, ["Lera", "Kirill"], {"first": "Lera"}, seed=seed)


def test_a_die_card_is_rolled_by_incanto_rerolled_as_its_dice_allow_and_the_last_roll_counts() -> None:
    game = new_game()
    game.propose({"type": "roll", **LERA, "moves": "tower", "dice": 2})
    first = game.state.roll.values[0]
    game.propose({"type": "reroll", **LERA})
    values = game.state.roll.values
    with pytest.raises(IllegalAction, match="rule: reroll"):
        game.propose({"type": "reroll", **LERA})  # two dice: one reroll
    assert values[0] == first and len(values) == 2 and 1 <= values[-1] <= 6
    tower = game.view()["legal"]["pieces"][0]["tower"]
    space = game.state.where(tower)
    game.propose({"type": "play", **LERA, "tower": tower})
    assert game.state.where(tower) == (space + values[-1]) % 15  # the last roll counts, the first is forfeited
    # The roll is in the log, so the store and a replay roll the same.
    again = Game(RULES, game.log)
    assert again.view() == game.view()


def test_the_same_seed_rolls_the_same_and_another_may_not() -> None:
    rolls = set()
    for seed in range(6):
        game = new_game(seed)
        game.propose({"type": "roll", **LERA, "moves": "wizard", "dice": 1})
        rolls.add(game.state.roll.values[0])
        twin = new_game(seed)
        twin.propose({"type": "roll", **LERA, "moves": "wizard", "dice": 1})
        assert twin.state.roll == game.state.roll
    assert len(rolls) > 1


def test_two_cards_then_the_turn_ends_or_the_hand_is_forgone_for_one_tower_step() -> None:
    game = new_game()
    with pytest.raises(IllegalAction, match="must play 2 cards"):
        game.propose({"type": "end_turn", **LERA})
    for _ in range(2):
        game.propose({"type": "play", **LERA, "card": {"moves": "tower", "steps": 1}, "tower": "T2"})
    with pytest.raises(IllegalAction, match="rule: cards"):
        game.propose({"type": "play", **LERA, "card": {"moves": "tower", "steps": 1}, "tower": "T2"})
    game.propose({"type": "end_turn", **LERA})
    game.propose({"type": "forgo", **KIRILL, "tower": "T5"})
    assert game.state.where("T5") == 8 and game.view()["legal"]["can_end"]
    with pytest.raises(IllegalAction, match="forwent"):
        game.propose({"type": "roll", **KIRILL, "moves": "wizard", "dice": 1})


def test_a_spell_spends_full_bottles_once_a_turn_and_they_go_back_to_the_box() -> None:
    state = board({"0": ["R"], "4": ["Lera"], "6": ["T1"]}, lera={"full": 3})
    problems = RULES.check(state, {"type": "spell", **LERA, "spell": "heave", "steps": 5, "tower": "T9"})
    assert {p.rule for p in problems} == {"spell-steps"}
    state = play(state, {"type": "spell", **LERA, "spell": "leap", "steps": 2, "wizard": 4})
    lera = state.players[0]
    assert (lera.full, lera.empty, lera.spent) == (1, 2, 2) and state.where("@Lera") == 6
    problems = RULES.check(state, {"type": "spell", **LERA, "spell": "heave", "steps": 1, "tower": "T1"})
    assert {p.rule for p in problems} == {"spell-once", "spell-bottles"}


def test_the_goal_reached_finishes_the_round_and_the_most_unspent_bottles_win() -> None:
    # Lera (the starting player) drops her last wizard in with every bottle full: Kirill still has his turn.
    state = board({"1": ["R"], "0": ["Lera"], "9": ["Kirill"], "5": ["T2"]}, lera={"full": 4, "spent": 1}, lera_keep=2,
                  kirill={"full": 5}, kirill_keep=2)
    state = play(state, {"type": "play", **LERA, "card": {"moves": "wizard", "steps": 1}, "wizard": 0})
    assert state.ending and not state.over and state.current.name == "Kirill"
    ravenskeep = state.where("R")
    state = play(state, {"type": "play", **KIRILL, "card": {"moves": "wizard", "steps": (ravenskeep - 9) % 15},
                         "wizard": 9})
    assert state.over and RULES.is_over(state)
    assert RULES.places(state)[0] == ["Kirill"] and RULES.score(state) == {"Lera": 4, "Kirill": 5}
    assert RULES.public_view(state)["winner"] == ["Kirill"]


def test_tied_players_share_the_victory() -> None:
    state = board({"1": ["R"], "0": ["Lera"], "5": ["T2"]}, lera={"full": 5}, lera_keep=2, kirill={"full": 5}, kirill_keep=3,
                  players=["Lera", "Kirill", "Katya"])
    state = play(state, {"type": "play", **LERA, "card": {"moves": "wizard", "steps": 1}, "wizard": 0})
    for who in ("Kirill", "Katya"):
        state = play(state, {"type": "forgo", "player": who, "tower": "T2"})
        state = play(state, {"type": "end_turn", "player": who})
    assert state.over and RULES.places(state)[0] == ["Lera", "Kirill"]
    assert RULES.public_view(state)["winner"] == ["Lera", "Kirill"] and RULES.ranking(state)[2] == "Katya"


def test_an_impossible_action_names_the_player_the_target_and_the_rule_and_changes_nothing() -> None:
    game = new_game()
    before = game.view()
    with pytest.raises(IllegalAction) as refused:
        game.propose({"type": "play", **LERA, "card": {"moves": "tower", "steps": 2}, "tower": "T1", "wizard": 2})
    assert [(p.rule, p.player, p.target) for p in refused.value.problems] == [("piece", "Lera", "T1")]
    with pytest.raises(IllegalAction, match="it is Lera's turn"):
        game.propose({"type": "end_turn", **KIRILL})
    for raw, word in [({"type": "roll", **LERA, "moves": "tower", "dice": 4}, "'dice'"),
                      ({"type": "play", **LERA, "card": {"moves": "dragon", "steps": 1}}, "'card.moves'"),
                      ({"type": "play", **LERA, "card": {"moves": "tower", "steps": 1, "colour": 2}}, "'card.colour' is unknown"),
                      ({"type": "spell", **LERA, "spell": "hop", "steps": "1"}, "'steps'")]:
        with pytest.raises(MalformedAction, match=word):
            game.propose(raw)
    assert game.view() == before and game.version == 0


def test_the_tables_own_die_is_entered_face_by_face_and_the_reroll_rule_holds() -> None:
    # "If the card depicts a die, roll the die ... For each additional die depicted on the card, you may reroll
    # the die once; however, if you do, you forfeit the previous roll."
    state = RULES.setup(["Lera", "Kirill"], {"first": "Lera", "dice": "table"}, Random(0))
    assert RULES.legal_actions(state)["die"] == [1, 2, 3, 4, 5, 6]
    roll = {"type": "roll", "player": "Lera", "moves": "wizard", "dice": 2}
    assert [(p.rule, p.target) for p in RULES.check(state, roll)] == [("table-die", "die")]
    assert [(p.rule, p.target) for p in RULES.check(state, {**roll, "value": 7})] == [("die", "7")]
    state = RULES.apply(state, {**roll, "value": 1}, Random(0))
    state = RULES.apply(state, {"type": "reroll", "player": "Lera", "value": 4}, Random(0))
    assert state.roll is not None and state.roll.values == (1, 4) and state.roll.last == 4
    again = {"type": "reroll", "player": "Lera", "value": 6}
    assert [(p.rule, p.target) for p in RULES.check(state, again)] == [("reroll", "die")]
    incanto = RULES.setup(["Lera", "Kirill"], {"first": "Lera"}, Random(0))
    assert [(p.rule, p.target) for p in RULES.check(incanto, {**roll, "value": 3})] == [("companion-die", "3")]
    assert "die" not in RULES.legal_actions(incanto)

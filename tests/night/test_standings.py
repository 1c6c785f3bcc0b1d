"""The night's standings: ranked by each game's placings (the night's points per place), never by the
games' own points, which count on different scales; and an unfinished game taken up again."""
from __future__ import annotations

from random import Random

import pytest

from companion.errors import MalformedAction
from companion.night import POINTS_PER_PLACE, CannotResume, Night, placings
from companion.store import Store

PLAYERS = ["Lera", "Kirill", "Katya"]


def play_out(night: Night, game: str, seed: int) -> None:
    played = night.start_game(game, PLAYERS, seed=seed)
    rng = Random(seed)
    while (action := played.rules.random_action(played.state, rng)) is not None:
        played.propose(action)


def test_places_shared_by_a_tie_and_none_behind_a_game_that_beat_the_group() -> None:
    assert placings([["Lera"], ["Kirill"], ["Katya"]]) == [("Lera", 1, 2), ("Kirill", 2, 1), ("Katya", 3, 0)]
    assert placings([["Lera", "Kirill"], ["Katya"], ["Rosa"]]) == [
        ("Lera", 1, 2), ("Kirill", 1, 2), ("Katya", 3, 1), ("Rosa", 4, 0)]
    assert placings([["Lera", "Kirill"]]) == [("Lera", 1, 0), ("Kirill", 1, 0)]  # a co-operative win
    assert placings([[], ["Lera", "Kirill"]]) == [("Lera", 0, 0), ("Kirill", 0, 0)]  # the grimoire won


def test_a_big_win_on_a_big_scale_is_worth_one_first_place(store: Store) -> None:
    """Via Magica counts in tens, Ravenskeep in single bottles: the night counts only the places."""
    night = Night.resume_or_start(store, "Games night")
    play_out(night, "via_magica", 1)
    play_out(night, "ravenskeep", 2)
    play_out(night, "witchcraft", 1)
    expected: dict[str, int] = dict.fromkeys(PLAYERS, 0)
    raw: dict[str, int] = dict.fromkeys(PLAYERS, 0)
    for _, game in night.played():
        for player, place, _below in placings(game.rules.places(game.state) if hasattr(game.rules, "places")
                                              else [[p] for p in game.rules.ranking(game.state)]):
            expected[player] += POINTS_PER_PLACE[place - 1]
        for player, points in game.rules.score(game.state).items():
            raw[player] += points
    standings = night.standings()
    assert [r["night_points"] for r in standings] == sorted(expected.values(), reverse=True)
    assert {r["player"]: r["night_points"] for r in standings} == expected
    assert all(len(r["places"]) == 3 and r["games"] == 3 for r in standings)
    assert "points" not in standings[0]  # the games' own points are not added up across games
    assert max(raw, key=lambda p: raw[p]) != standings[0]["player"]  # these seeds: raw points would rank otherwise


def test_an_unfinished_game_is_resumed_and_stays_resumed_through_a_restart(store: Store) -> None:
    night = Night.resume_or_start(store, "Games night")
    first = night.start_game("witchcraft", PLAYERS, seed=4)
    rng = Random(4)
    for _ in range(5):
        first.propose(first.rules.random_action(first.state, rng))  # type: ignore[arg-type]
    night.start_game("ravenskeep", PLAYERS, seed=5)
    (first_id, _), (second_id, second) = night.played()
    assert night.resume(first_id) is first and night.current is first
    again = Night(store, night.id)
    assert again.current is not None and again.current.rules.name == "witchcraft" and again.current.version == 5
    assert again.current_id() == first_id
    again.start_game("grimoire", PLAYERS, seed=6)  # a newer game: the night follows it after a restart
    assert Night(store, night.id).current.rules.name == "grimoire"  # type: ignore[union-attr]
    store.set_meta(f"night {night.id} resumed", "not two numbers")  # damaged by hand: the latest game, as before
    assert Night(store, night.id).current.rules.name == "grimoire"  # type: ignore[union-attr]
    with pytest.raises(CannotResume, match="99"):
        again.resume(99)
    assert isinstance(CannotResume("x"), MalformedAction)


def test_a_finished_game_is_not_resumed(store: Store) -> None:
    night = Night.resume_or_start(store, "Games night")
    play_out(night, "ravenskeep", 2)
    night.start_game("witchcraft", PLAYERS, seed=3)
    finished_id = night.played()[0][0]
    with pytest.raises(CannotResume, match="is over"):
        night.resume(finished_id)
    assert night.current is not None and night.current.rules.name == "witchcraft"

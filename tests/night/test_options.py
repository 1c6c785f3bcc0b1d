"""The night page's controls cover every option each game's setup accepts, and each control's values are
ones the setup takes: a host can never build a start the game refuses."""
from __future__ import annotations

from random import Random

import pytest

from companion import games, night_options
from companion.engine.game import prepare

PLAYERS = ["Lera", "Kirill", "Katya"]


@pytest.mark.parametrize("game", games.names())
def test_every_option_a_setup_accepts_is_offered_or_said_why_not(game: str) -> None:
    offered = {o["key"] for o in night_options.options(game)}
    assert offered | set(night_options.NOT_OFFERED.get(game, {})) == night_options.accepted(game)
    assert not offered & set(night_options.NOT_OFFERED.get(game, {}))


@pytest.mark.parametrize("game", games.names())
def test_every_value_of_every_control_starts_the_game(game: str) -> None:
    rules = games.get(game)
    for option in night_options.options(game):
        for value in values(option):
            prepare(rules, PLAYERS, {option["key"]: value}, 1, None)  # refused: MalformedAction
        if option["default"] is not None:  # leaving it alone on the page is the same start as choosing the default
            a = prepare(rules, PLAYERS, night_options.started_with(game, {option["key"]: option["default"]}), 1, None)[1]
            b = prepare(rules, PLAYERS, night_options.started_with(game, {}), 1, None)[1]
            assert rules.public_view(a) == rules.public_view(b)


@pytest.mark.parametrize("game", games.names())
def test_every_draw_defaults_to_the_tables_on_the_page_and_to_incantos_in_a_setup_without_it(game: str) -> None:
    # the group owns the box; a game stored before the option (none in its setup) replays as Incanto drew it
    sent = [o for o in night_options.options(game) if o.get("sent")]
    assert all(o["default"] == "table" for o in sent)
    if game in ("witchcraft", "ravenskeep", "incantibus", "via_magica"):
        assert sent
    rules = games.get(game)
    for o in sent:
        table = prepare(rules, PLAYERS, night_options.started_with(game, {}), 1, None)[1]
        left_out = prepare(rules, PLAYERS, {}, 1, None)[1]
        assert rules.public_view(table).get(o["key"], "table") == "table"
        assert (rules.public_view(left_out), rules.legal_actions(left_out)) != \
            (rules.public_view(table), rules.legal_actions(table))


def values(option: dict) -> list:  # type: ignore[type-arg]
    kind = option["kind"]
    if kind == "choice":
        return [c["value"] for c in option["choices"]]
    if kind == "bool":
        return [True, False]
    if kind == "player":
        return PLAYERS
    pool = option.get("values_by_count", {}).get(str(len(PLAYERS))) or [v["value"] for v in option["values"]]
    shuffled = list(pool)
    Random(2).shuffle(shuffled)
    return [dict(zip(PLAYERS, shuffled))]

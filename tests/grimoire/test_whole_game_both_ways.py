"""A whole bot game with hands tracked and every random part drawn by Incanto (the book's pages, the
first player, the curses, every element card), then the same game with each of them entered as the
table's at the moment the rulebook turns it; both logs replayed from a real store to the same end."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from random import Random
from typing import Any

import pytest

from companion.engine.game import Game
from companion.games.grimoire.catalogue import load
from companion.games.grimoire.state import State
from companion.replay import play
from companion.store import Store
from grimoire_helpers import RULES

PLAYERS = ["Lera", "Kirill", "Katya"]


def by_incanto(seed: int, held: str = "tracked") -> tuple[Game, list[dict[str, Any]]]:
    game = Game.start(RULES, PLAYERS, {"hands": held, "difficulty": "leicht"}, seed=seed)
    rng, actions = Random(seed), []
    while (action := RULES.random_action(game.state, rng)) is not None:
        game.propose(action)
        actions.append(dict(action))
        assert len(actions) < 5000
    return game, actions


def drawn(notes: tuple[Any, ...] | list[Any]) -> list[dict[str, Any]]:
    """What Incanto turned up, as the table would enter it, in the order the table is asked."""
    pages = [{"type": "page_opened", "page": n["page"]} for n in notes if n.get("event") == "page" and n["page"] != "last"]
    curses = [list(load().curses[n["curse"]]) for n in notes if n.get("event") == "curse"]
    cards = [{"type": "cards_drawn", "player": n["player"], "cards": n["cards"]} for n in notes if n.get("event") == "drew"]
    return pages + ([{"type": "curses_drawn", "curses": curses}] if curses else []) + cards


def at_the_table(incanto: Game, actions: list[dict[str, Any]]) -> Game:
    """The same game with the table's draws: Incanto's game replayed action by action, and after each
    what it drew entered into the table's game, the starting player given at the setup."""
    replayed = Game.start(RULES, PLAYERS, incanto.options, seed=incanto.seed)
    starter = next(n["player"] for n in replayed.state.notes if n.get("event") == "turn")
    options = {**incanto.options, "draws": "table", "first": starter}
    game = Game.start(RULES, PLAYERS, options, seed=99)
    ids: dict[str, str] = {}  # Incanto's curse -> the table's curse showing the same elements
    _enter(game, list(replayed.state.notes), ids)
    for action in actions:
        before = 0 if action["type"] == "end_turn" else len(replayed.state.notes)  # notes restart each turn
        replayed.propose(action)
        game.propose({**action, "curse": ids[action["curse"]]} if "curse" in action else action)
        _enter(game, list(replayed.state.notes[before:]), ids)
    return game


def _enter(game: Game, notes: list[Any], ids: dict[str, str]) -> None:
    for entry in drawn(notes):
        game.propose(entry)
    laid = [n["curse"] for n in notes if n.get("event") == "curse"]
    theirs = [n["curse"] for n in game.state.notes if n.get("event") == "curse"]
    ids.update(zip(laid, theirs[len(theirs) - len(laid):]))


def face(curse: str) -> tuple[str, ...]:
    return tuple(sorted(load().curses[curse]))


def ending(state: State) -> dict[str, Any]:
    """The final state, each curse by the elements it shows (two cards of a pile alike are the same to the game)."""
    return {
        "outcome": state.outcome, "why": state.why, "opened": state.book[:state.page + 1], "banished": state.banished,
        "escaped": state.escaped, "marker": state.marker, "round": state.round, "turn": state.turn,
        "fields": {f: sorted(map(face, cs)) for f, cs in state.fields.items()},
        "piles": {p: sorted(map(face, cs)) for p, cs in state.piles.items()}, "madness_pile": state.madness_pile,
        "supply": state.supply, "library": state.library, "curses_banished": state.curses_banished,
        "players": [(p.name, p.madness_hand, p.out, p.spells, sorted(p.exhausted), p.cards and p.cards.hand,
                     p.cards and Counter(p.cards.deck), p.cards and Counter(p.cards.discard)) for p in state.players],
    }


def script(game: Game, path: Path) -> Path:
    setup = {"type": "setup", "game": "grimoire", "players": game.players, "options": game.options, "seed": game.seed}
    lines = [setup] + [e["payload"] for e in game.history() if e["kind"] == "action"]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


# Tracked hands: 3 and 11 reach the last page; 17 ends with a draw pending. Hands kept secret: no cards entered.
@pytest.mark.parametrize(("seed", "held"), [(3, "tracked"), (11, "tracked"), (17, "tracked"), (4, "confirm")])
def test_the_same_game_by_incanto_and_by_the_table_ends_alike_and_both_replay(seed: int, held: str, tmp_path: Path) -> None:
    incanto, actions = by_incanto(seed, held)
    table = at_the_table(incanto, actions)
    assert incanto.state.outcome is not None
    assert ending(table.state) == ending(incanto.state)
    kinds = Counter(e["payload"]["type"] for e in table.history() if e["kind"] == "action")
    assert kinds["page_opened"] == min(table.state.page + 1, 5) and kinds["curses_drawn"] > 0
    assert kinds["cards_drawn"] > len(PLAYERS) if held == "tracked" else kinds["cards_drawn"] == 0
    for game, name in ((incanto, "incanto"), (table, "table")):
        with Store(tmp_path / f"{name}.sqlite") as store:
            replayed, refusal = play(script(game, tmp_path / f"{name}.jsonl"), store)
            assert refusal is None
            assert replayed.view() == game.view()

"""What the game test folders share, each helper given the game's ``RULES``: golden scripts read and
played through the engine, actions played on a state, bots walking a game to its end, bad input
that must be refused with nothing changed, a position's problems, a game entered as a table that makes
its own draws, a game stored in a night and read back, and the replay command.

Imported as ``tests.game_helpers`` (pytest's importlib mode makes ``tests`` a package); each game's
own helpers module binds the ones its tests use often to its ``RULES``.
"""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from random import Random
from typing import Any

import pytest

from companion.__main__ import main
from companion.engine.game import Game, rng_for
from companion.engine.rules import Rules
from companion.errors import IllegalAction, MalformedAction
from companion.night import Night
from companion.store import Store

Action = dict[str, Any]
Found = list[tuple[str, str | None, str | None]]  # (rule, player, target) of each problem
MAX_BOT_ACTIONS = 5000  # far more than any game lasts: a bot game that does not end is a bug


def script(golden: Path, name: str) -> list[Action]:
    """The lines of a golden script; ``//`` lines are comments quoting the rulebook."""
    text = (golden / f"{name}.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip() and not line.startswith("//")]


def play(rules: Rules, lines: list[Action]) -> Game:
    """Every line through ``Game.start`` and ``propose``, as the replay command and the tablets do."""
    setup, *actions = lines
    game = Game.start(rules, setup["players"], setup.get("options", {}), setup["seed"], position=setup.get("position"))
    for action in actions:
        game.propose(action)
    return game


def act(rules: Rules, state: Any, actions: Iterable[Action], rng_at: Callable[[Any, int], Random]) -> Any:
    """Each action parsed, checked (it must be legal) and applied, as the engine does; ``rng_at(state, n)``
    gives the generator of the n-th action, as each game's tests have always drawn."""
    for n, raw in enumerate(actions):
        action = rules.parse_action(raw)
        problems = rules.check(state, action)
        assert problems == [], (action, problems, getattr(state, "pending", None))
        state = rules.apply(state, action, rng_at(state, n))
    return state


def refused(rules: Rules, state: Any, raw: Action) -> Found:
    """The problems of an illegal action, and a check that nothing changed."""
    before = rules.public_view(state)
    problems = rules.check(state, rules.parse_action(raw))
    assert problems and rules.public_view(state) == before
    return [(p.rule, p.player, p.target) for p in problems]


def position_problems(rules: Rules, players: Sequence[str], described: Mapping[str, Any],
                      options: Mapping[str, Any] | None = None) -> Found:
    """Every problem of a described position, all raised at once."""
    with pytest.raises(IllegalAction) as caught:
        rules.from_position(list(players), options or {}, described, rng_for(1, 0))
    return [(p.rule, p.player, p.target) for p in caught.value.problems]


def bot_states(rules: Rules, state: Any, seed: int) -> Iterator[tuple[Action, Any]]:
    """(action, state after it) for a random legal game played to the end from ``state``."""
    rng = Random(seed)
    for seq in range(1, MAX_BOT_ACTIONS):
        action = rules.random_action(state, rng)
        if action is None:
            return
        model = rules.parse_action(action)
        assert rules.check(state, model) == [], (action, getattr(state, "pending", None))
        state = rules.apply(state, model, rng_for(seed, seq))
        yield model.payload(), state  # the action as the log keeps it
    raise AssertionError(f"a random game did not end in {MAX_BOT_ACTIONS} actions")


def refused_cleanly_or_applied(rules: Rules, first: Any, seed: int, proposal: Callable[[Any, Random], Action],
                               per_state: int = 4) -> tuple[int, int]:
    """(refused, applied) of ``per_state`` random proposals at every moment of a bot game: a refusal
    names its rule and a player or target and changes nothing; what passes the check applies."""
    refused = applied = 0
    rng = Random(seed)
    for n, (_, state) in enumerate(bot_states(rules, first, seed)):
        for _ in range(per_state):
            try:
                action = rules.parse_action(proposal(state, rng))
            except MalformedAction:
                continue
            if _applies(rules, state, action, rng_for(seed, n)):
                applied += 1
            else:
                refused += 1
    return refused, applied


def _applies(rules: Rules, state: Any, action: Action, rng: Random) -> bool:
    """Whether ``action`` applies; if not, it was refused cleanly."""
    before = rules.public_view(state)
    problems = rules.check(state, action)
    if problems:
        assert all(p.rule and (p.player or p.target) for p in problems), problems
        assert rules.public_view(state) == before
        return False
    rules.public_view(rules.apply(state, action, rng))  # the view of what follows can be drawn
    return True


def bad_actions_change_nothing(game: Game, mutate: Callable[[Action, Random], Action], rng: Random,
                               per_action: int = 1) -> None:
    """Along a bot game: ``per_action`` mutations of each bot action proposed, each either refused with
    ``IllegalAction`` or ``MalformedAction`` and nothing changed, or taken; never any other error."""
    rules = game.rules
    while (action := rules.random_action(game.state, rng)) is not None:
        for _ in range(per_action):
            before, version = game.view(), game.version
            try:
                game.propose(mutate(action, rng))
            except (IllegalAction, MalformedAction):
                assert game.view() == before and game.version == version
        if not rules.is_over(game.state):
            legal = rules.random_action(game.state, rng)
            assert legal is not None
            game.propose(legal)


def refused_position_stores_nothing(folder: Path, lines: list[Action], bad: dict[str, Any], rule: str,
                                    capsys: pytest.CaptureFixture[str]) -> str:
    """A script started from ``bad``, a position that breaks ``rule``: refused by a night on a real
    store, which keeps no game and no event, and by the replay command in one line naming the rule (the
    line is returned)."""
    setup = {**lines[0], "position": bad}
    with Store(folder / "night.sqlite") as store:
        night = Night.resume_or_start(store)
        with pytest.raises(IllegalAction) as refused:
            night.start_game(setup["game"], setup["players"], setup.get("options", {}), 1, bad)
        assert rule in {p.rule for p in refused.value.problems} and night.current is None
    with sqlite3.connect(folder / "night.sqlite") as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM events").fetchone() == (0,)
    (folder / "bad.jsonl").write_text("\n".join(json.dumps(line) for line in [setup, *lines[1:]]))
    assert main(["replay", str(folder / "bad.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl:1" in err and rule in err and err.count("\n") == 1
    return err


def read_back_is_live(folder: Path, name: str, players: list[str], seed: int, undo_rate: float = 0.0) -> None:
    """A bot game of ``name`` played in a night on a real store (each action undone and redone at
    ``undo_rate``), then read back from the store's log: the same view as the live game."""
    with Store(folder / "night.sqlite") as store:
        game = Night.resume_or_start(store).start_game(name, players, seed=seed)
        rng = Random(seed)
        while (action := game.rules.random_action(game.state, rng)) is not None:
            game.propose(action)
            if undo_rate and rng.random() < undo_rate:
                game.undo()
                game.redo()
        assert Game(game.rules, store.log(1)).view() == game.view()


class AtTable:
    """The same game at a table that makes its own draws: each action entered is checked, applied and
    logged; its random source is only there to show that nothing is drawn from it."""

    def __init__(self, rules: Rules, state: Any, seed: int) -> None:
        self.rules, self.state, self.seed = rules, state, seed
        self.log: list[Action] = []

    def enter(self, action: Action) -> None:
        model = self.rules.parse_action(action)
        assert self.rules.check(self.state, model) == [], (action, getattr(self.state, "pending", None))
        self.state = self.rules.apply(self.state, model, rng_for(self.seed + 1000, len(self.log)))
        self.log.append(action)


def stored_and_read_back(folder: Path, name: str, players: list[str], options: dict[str, Any], seed: int,
                         log: list[Action]) -> Game:
    """A game of ``name`` played from ``log`` in a night on a real store, and read back from the night's
    log to the same view as the live game."""
    folder.mkdir()
    with Store(folder / "night.sqlite") as store:
        game = Night.resume_or_start(store).start_game(name, players, options, seed)
        for action in log:
            game.propose(action)
        assert Game(game.rules, store.log(1)).view() == game.view()  # the night's first game, read back
        return game


def replay(script_path: Path) -> dict[str, Any]:
    """The view at the end of a script, from the replay command a user runs."""
    out = subprocess.run([sys.executable, "-m", "companion", "replay", str(script_path), "--json"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]

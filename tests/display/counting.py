"""A tiny real game for the display's tests: "Counting", a casting game in the shape of Incantibus.

Each room holds numbered tokens worth their number. Every player points a wand at one token (or at
none); a token pointed at by several goes to the strongest wand, whose holder then swaps wands with
the weakest claimant. When fewer than two tokens remain the next room opens; after the last room the
game is over. It fills every hook of ``companion.engine.rules.Rules`` in a few lines.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from random import Random
from typing import Any, Literal
from collections.abc import Mapping, Sequence

from companion.engine.actions import ActionModel, actions_of, parse_action
from companion.errors import MalformedAction, Problem


class Cast(ActionModel):
    type: Literal["cast"] = "cast"
    targets: dict[str, str | None]


ACTIONS = actions_of(Cast)

ROOMS = ((3, 1, 2, 4), (2, 5, 1), (4, 3, 2, 1))


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    wands: tuple[int, ...]  # by seat
    points: tuple[int, ...]  # by seat
    room: int
    tokens: tuple[tuple[str, int], ...]  # (id, value) still in the room
    last_cast: dict[str, Any] | None = None


class Counting:
    name = "counting"
    title = "Counting"
    player_counts = (2, 3, 4)

    def setup(self, players: Sequence[str], options: Mapping[str, Any], rng: Random) -> State:
        if options:
            raise MalformedAction(f"Counting has no options, not {dict(options)!r}")
        wands = list(range(1, len(players) + 1))
        rng.shuffle(wands)
        return State(tuple(players), tuple(wands), (0,) * len(players), 0, _room(0))

    def legal_actions(self, state: State) -> dict[str, Any]:
        if self.is_over(state):
            return {"kind": "over"}
        ids = [t for t, _ in state.tokens]
        return {"kind": "cast", "players": list(state.players), "targets": {p: ids for p in state.players},
                "tokens": {t: {"place": "room", "slot": i, "visible": True, "kind": f"{v} points"}
                           for i, (t, v) in enumerate(state.tokens)}}

    def parse_action(self, raw: Mapping[str, Any]) -> Cast:
        return parse_action(ACTIONS, raw)

    def check(self, state: State, action: Cast) -> list[Problem]:
        if self.is_over(state):
            return [Problem("game-over", "the game is over")]
        targets = action.targets
        if set(targets) != set(state.players):
            return [Problem("cast-players", f"a cast names every player once, not {targets!r}")]
        ids = {t for t, _ in state.tokens}
        return [Problem("cast-target", "no such token in the room", p, str(t))
                for p, t in targets.items() if t is not None and t not in ids]

    def apply(self, state: State, action: Cast, rng: Random) -> State:
        wands, points = list(state.wands), list(state.points)
        value = dict(state.tokens)
        claims: dict[str, list[int]] = {}
        for seat, player in enumerate(state.players):
            if (t := action.targets[player]) is not None:
                claims.setdefault(t, []).append(seat)
        got, swaps = {}, []
        for token, seats in claims.items():
            winner = max(seats, key=lambda s: wands[s])
            points[winner] += value[token]
            got[state.players[winner]] = token
            if len(seats) > 1:
                weakest = min(seats, key=lambda s: wands[s])
                wands[winner], wands[weakest] = wands[weakest], wands[winner]
                swaps.append([state.players[winner], state.players[weakest]])
        tokens = tuple(t for t in state.tokens if t[0] not in claims)
        last = {"targets": dict(action.targets), "got": got, "swaps": swaps}
        room = state.room
        if len(tokens) < 2:
            room, tokens = room + 1, _room(room + 1)
        return replace(state, wands=tuple(wands), points=tuple(points), room=room, tokens=tokens, last_cast=last)

    def random_action(self, state: State, rng: Random) -> dict[str, Any] | None:
        if self.is_over(state):
            return None
        ids = [t for t, _ in state.tokens] + [None]
        return {"type": "cast", "targets": {p: rng.choice(ids) for p in state.players}}

    def is_over(self, state: State) -> bool:
        return state.room >= len(ROOMS)

    def score(self, state: State) -> dict[str, int]:
        return dict(zip(state.players, state.points))

    def ranking(self, state: State) -> list[str]:
        seats = sorted(range(len(state.players)), key=lambda s: (-state.points[s], -state.wands[s]))
        return [state.players[s] for s in seats]

    def public_view(self, state: State) -> dict[str, Any]:
        return {"players": [{"name": p, "wand": w, "points": n}
                            for p, w, n in zip(state.players, state.wands, state.points)],
                "wands": dict(zip(state.players, state.wands)),
                "room": {"index": state.room, "tokens": [{"id": t, "slot": i, "visible": True, "kind": f"{v} points"}
                                                         for i, (t, v) in enumerate(state.tokens)]},
                "phase": "over" if self.is_over(state) else "room", "last_cast": state.last_cast}


def _room(index: int) -> tuple[tuple[str, int], ...]:
    if index >= len(ROOMS):
        return ()
    return tuple((f"r{index}t{i}", v) for i, v in enumerate(ROOMS[index]))


RULES = Counting()

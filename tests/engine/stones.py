"""A small but complete game for testing the engine on its own: players take 1 to 3 stones in turn
from a heap; whoever takes the last stone wins. Each take also draws a random bonus (0-2 points)
from the seeded generator, so replays must draw the same. States are immutable tuples."""
from __future__ import annotations

from dataclasses import dataclass, replace
from random import Random
from typing import Any, Literal
from collections.abc import Mapping, Sequence

from companion.engine.actions import ActionModel, actions_of, parse_action
from companion.errors import IllegalAction, MalformedAction, Problem


class Take(ActionModel):
    type: Literal["take"] = "take"
    player: str
    count: int


ACTIONS = actions_of(Take)


@dataclass(frozen=True)
class StonesState:
    players: tuple[str, ...]
    heap: int
    turn: int = 0
    points: tuple[int, ...] = ()
    winner: str | None = None


class Stones:
    name = "stones"
    title = "Stones"
    player_counts = (2, 3, 4)

    def setup(self, players: Sequence[str], options: Mapping[str, Any], rng: Random) -> StonesState:
        unknown = set(options) - {"heap"}
        if unknown:
            raise ValueError(f"unknown option {sorted(unknown)[0]!r}")
        heap = options.get("heap") or rng.randint(10, 20)
        return StonesState(tuple(players), heap, 0, (0,) * len(players))

    def from_position(self, players: Sequence[str], options: Mapping[str, Any], position: Mapping[str, Any],
                      rng: Random) -> StonesState:
        """``{"heap": n, "turn": player}``: a heap of n stones, and whose turn it is."""
        unknown = sorted(set(position) - {"heap", "turn"})
        if unknown:
            raise MalformedAction(f"position key {unknown[0]!r} is unknown")
        heap, turn = position.get("heap"), position.get("turn", players[0])
        problems = []
        if not isinstance(heap, int) or isinstance(heap, bool) or heap < 1:
            problems.append(Problem("position-heap", f"a heap holds at least 1 stone, not {heap!r}"))
        if turn not in players:
            problems.append(Problem("position-turn", f"{turn!r} is not playing", str(turn)))
        if problems:
            raise IllegalAction(problems)
        return StonesState(tuple(players), heap, list(players).index(turn), (0,) * len(players))

    def parse_action(self, raw: Mapping[str, Any]) -> Take:
        return parse_action(ACTIONS, raw)

    def legal_actions(self, state: StonesState) -> dict[str, Any]:
        if state.winner:
            return {"kind": "over"}
        return {"kind": "take", "player": state.players[state.turn], "counts": list(range(1, min(3, state.heap) + 1))}

    def check(self, state: StonesState, action: Take) -> list[Problem]:
        problems = []
        player, count = action.player, action.count
        if state.winner:
            problems.append(Problem("game-over", "the game is over", player))
        elif player != state.players[state.turn]:
            problems.append(Problem("turn-order", f"it is {state.players[state.turn]}'s turn", player))
        if not 1 <= count <= min(3, state.heap):
            problems.append(Problem("take-count", f"cannot take {count!r} stones from {state.heap}", player))
        return problems

    def apply(self, state: StonesState, action: Take, rng: Random) -> StonesState:
        heap = state.heap - action.count
        points = list(state.points)
        points[state.turn] += action.count + rng.randint(0, 2)
        winner = state.players[state.turn] if heap == 0 else None
        return replace(state, heap=heap, turn=(state.turn + 1) % len(state.players), points=tuple(points),
                       winner=winner)

    def random_action(self, state: StonesState, rng: Random) -> dict[str, Any] | None:
        if state.winner:
            return None
        return {"type": "take", "player": state.players[state.turn], "count": rng.randint(1, min(3, state.heap))}

    def is_over(self, state: StonesState) -> bool:
        return state.winner is not None

    def score(self, state: StonesState) -> dict[str, int]:
        return {p: pts + (5 if p == state.winner else 0) for p, pts in zip(state.players, state.points)}

    def ranking(self, state: StonesState) -> list[str]:
        scores = self.score(state)
        return sorted(state.players, key=lambda p: -scores[p])

    def public_view(self, state: StonesState) -> dict[str, Any]:
        return {"players": [{"name": p} for p in state.players], "heap": state.heap,
                "phase": "over" if state.winner else "play", "winner": state.winner}


RULES = Stones()

"""Bonus rewards: colour rewards go automatically to the first to open three portals of a colour or
one of each colour; a number-of-portals reward may be claimed only at the instant its owner opens
exactly that many portals, and each player claims at most one of them."""
from __future__ import annotations

from companion.games.via_magica.portals import COLOURS, Reward, load
from companion.games.via_magica.state import State


def colours(state: State, player: str) -> list[str]:
    portals = load().portals
    return [portals[p].colour for p in state.achieved[player]]


def earned(reward: Reward, opened: list[str]) -> bool:
    if reward.colour is None:
        return all(c in opened for c in COLOURS)
    return opened.count(reward.colour) >= reward.count_needed


def award_colours(state: State, player: str) -> None:
    opened = colours(state, player)
    for reward in load().rewards.values():
        if reward.category == "colour" and reward.name not in state.rewards and earned(reward, opened):
            state.rewards[reward.name] = player
            state.note(event="reward", player=player, reward=reward.name, points=reward.points)


def claimable(state: State, player: str) -> str | None:
    """The number reward ``player`` may claim right now, if any."""
    if any(load().rewards[r].category == "number" for r, who in state.rewards.items() if who == player):
        return None
    count = len(state.achieved[player])
    return next((r.name for r in load().rewards.values()
                 if r.category == "number" and r.stars == count and r.name not in state.rewards), None)


def held(state: State, player: str) -> list[str]:
    return [r for r, who in state.rewards.items() if who == player]

"""Bots: a random legal action for whatever the table is waiting for (demo, property tests, bench).

They choose straight from the state. A bot places a crystal when it can, favouring the portal
closest to opening, and moves a crystal only towards a fuller portal, so every game reaches the end.
"""
from __future__ import annotations

from typing import assert_never

from random import Random

from companion.engine.actions import Proposal
from companion.games.via_magica.bag import drawing_from
from companion.games.via_magica.crystallize import openers
from companion.games.via_magica.effects import effect_of
from companion.games.via_magica.incantatum import clockwise_from
from companion.games.via_magica.opening import selectable
from companion.games.via_magica.portals import load
from companion.games.via_magica.state import State
from companion.games.via_magica.steps import AwaitCrystals, AwaitDeal, AwaitDraw, AwaitKeep, ChooseEffect, ClaimReward, GameOver, SelectPortal
from companion.games.via_magica.view import empty_spaces, targets

Action = Proposal


def random_action(state: State, rng: Random) -> Action | None:
    match state.pending:
        case AwaitDeal():
            return _dealt(state, rng)
        case AwaitKeep(players=players):
            return _keep(state, players[0], rng)
        case AwaitDraw():
            return _draw(state, rng)
        case AwaitCrystals():
            return _crystallize(state, rng)
        case ChooseEffect(player=player):
            return _effect(state, player, rng)
        case SelectPortal(player=player):
            return _select(state, player, rng)
        case ClaimReward(player=player):
            return {"type": "reward", "player": player, "claim": rng.random() < 0.7}
        case GameOver():
            return None
        case _:
            assert_never(state.pending)


def _keep(state: State, player: str, rng: Random) -> Action:
    hand = list(state.hands[player])
    rng.shuffle(hand)
    kept: dict[str, str] = {}
    for p in hand:
        kept.setdefault(load().design(p), p)
    return {"type": "keep", "player": player, "portals": list(kept.values())[:load().kept]}


def _draw(state: State, rng: Random) -> Action:
    if state.table_draws:
        return {"type": "draw", "animus": rng.choice(drawing_from(state)[0])}
    return {"type": "draw"}


def _fill(state: State, portal: str) -> float:
    return len(state.crystals[portal]) / len(load().portals[portal].spaces)


def _crystal(state: State, player: str, rng: Random) -> Action | None:
    options = targets(state, player)
    if not options:
        return None
    best = max(options, key=lambda s: (_fill(state, s[0]), rng.random()))
    (portal, space) = best if rng.random() < 0.8 else rng.choice(options)
    to = {"portal": portal, "space": space}
    if state.stockpiles[player] > 0:
        return {"type": "crystal", "player": player, "to": to}
    sources = [p for p in state.areas[player] if state.crystals[p] and _fill(state, p) < _fill(state, portal)]
    if not sources:
        return None
    source = min(sources, key=lambda p: _fill(state, p))
    return {"type": "crystal", "player": player, "to": to,
            "moved_from": {"portal": source, "space": min(state.crystals[source])}}


def _crystallize(state: State, rng: Random) -> Action:
    for player in state.players:
        if player not in state.placed and (action := _crystal(state, player, rng)):
            return action
    opened = openers(state)
    if not opened:
        return _draw(state, rng)
    if len(opened) > 1 and rng.random() < 0.3:  # everyone called in the same instant
        first = clockwise_from(state, state.catcher_name, opened)[0]
        return {"type": "incantatum", "first": first, "tie": opened}
    return {"type": "incantatum", "first": rng.choice(opened)}


def _effect(state: State, player: str, rng: Random) -> Action:
    effect = effect_of(state)
    if effect.kind == "open_another":
        return {"type": "effect", "player": player, "open": rng.choice(list(state.areas[player]))}
    if effect.kind == "rearrange":
        return {"type": "effect", "player": player, "layout": _layout(state, player, rng)}
    wanted = list(effect.animus)
    most = min(len(wanted) or effect.count, state.stockpiles[player])
    spaces: list[Proposal] = []
    for p, i, animus in sorted(empty_spaces(state, player), key=lambda _: rng.random()):
        if len(spaces) < most and (not wanted or animus in wanted):
            spaces.append({"portal": p, "space": i})
            if wanted:
                wanted.remove(animus)
    return {"type": "effect", "player": player, "spaces": spaces}


def _layout(state: State, player: str, rng: Random) -> dict[str, list[int]]:
    """Every crystal placed, packed onto portals in a random order (fullest first makes openings)."""
    left = sum(len(state.crystals[p]) for p in state.areas[player])
    layout: dict[str, list[int]] = {}
    for p in sorted(state.areas[player], key=lambda _: rng.random()):
        n = min(left, len(load().portals[p].spaces))
        layout[p], left = list(range(n)), left - n
    return layout


def _select(state: State, player: str, rng: Random) -> Action:
    take = rng.choice(selectable(state, player))
    if state.table_portals:  # as if the table turned up the next card of its pile
        revealed = load().design(rng.choice(state.deck)) if state.deck else None
        return {"type": "portal", "player": player, "take": take, "revealed": revealed}
    return {"type": "portal", "player": player, "take": take}


def _dealt(state: State, rng: Random) -> Action:
    """As if the table dealt its cards: the row, and three different portals kept by each player."""
    pile = list(state.deck)
    rng.shuffle(pile)
    design = load().design
    row, pile = [design(p) for p in pile[:load().row_size]], pile[load().row_size:]
    kept: dict[str, list[str]] = {}
    for player in state.players:
        mine = list(dict.fromkeys(design(p) for p in pile))[:load().kept]
        for d in mine:
            pile.remove(next(p for p in pile if design(p) == d))
        kept[player] = mine
    return {"type": "dealt", "row": row, "kept": kept}

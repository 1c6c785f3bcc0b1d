"""What the table sees (everything but the order of the face-down draw pile) and what it must do next."""
from __future__ import annotations

from typing import assert_never

from companion.engine.views import JsonObject

from companion.games.via_magica import rewards, scoring
from companion.games.via_magica.bag import drawing_from, fits
from companion.games.via_magica.crystallize import full_portals, openers
from companion.games.via_magica.incantatum import clockwise_from
from companion.games.via_magica.opening import selectable
from companion.games.via_magica.portals import ANIMUS, WILDCARD, PortalEffect, load
from companion.games.via_magica.state import State
from companion.games.via_magica.steps import (CHOICES, AwaitCrystals, AwaitDeal, AwaitDraw, AwaitKeep, ChooseEffect, ClaimReward,
                                              GameOver, SelectPortal)

SpaceRef = tuple[str, int]  # a portal's copy id and the index of one of its Animus spaces


def portal(state: State, pid: str) -> JsonObject:
    card = load().portals[pid]
    filled = state.crystals.get(pid, frozenset())
    return {"portal": pid, "design": card.design, "colour": card.colour, "points": card.points, "effect": _printed(card.effect),
            "spaces": [{"space": i, "animus": a, "crystal": i in filled} for i, a in enumerate(card.spaces)]}


def _player(state: State, p: str) -> JsonObject:
    return {"name": p, "seat": state.seat(p), "catcher": state.catcher_name == p, "stockpile": state.stockpiles[p],
            "area": [portal(state, x) for x in state.areas[p]], "achieved": [portal(state, x) for x in state.achieved[p]],
            "hand": [portal(state, x) for x in state.hands[p]], "portals_open": len(state.achieved[p]),
            "rewards": rewards.held(state, p), "placed": p in state.placed, "points": scoring.points(state, p),
            "breakdown": scoring.breakdown(state, p)}


def public_view(state: State) -> JsonObject:
    cat = load()
    view: JsonObject = {
        "players": [_player(state, p) for p in state.players], "catcher": state.catcher_name, "token": state.token,
        "bag": {k: state.bag.count(k) for k in (*ANIMUS, WILDCARD)}, "out": list(state.out),
        "row": [portal(state, x) for x in state.row], "deck": len(state.deck), "discard": len(state.discard),
        "rewards": {r.name: {"category": r.category, "points": r.points, "colour": r.colour, "stars": r.stars,
                             "holder": state.rewards.get(r.name)} for r in cat.rewards.values()},
        "order": list(state.order), "phase": state.phase, "turn": state.turn,
        "draws": "table" if state.table_draws else "companion", "pending": pending(state),
        "portals": "table" if state.table_portals else "companion",
        "last_turn": {"events": list(state.notes)},
    }
    if state.phase == "over":
        ranking = scoring.ranking(state)
        view["winner"], view["ranking"] = ranking[0], ranking
    return view


def pending(state: State) -> JsonObject:
    pending = state.pending
    out: JsonObject = {"kind": "reward" if pending.kind == "rewards" else pending.kind}
    if isinstance(pending, CHOICES):
        out["player"] = pending.player
    return out


# -- what the table must do next ---------------------------------------------------------------

def legal_actions(state: State) -> JsonObject:
    legal = _prompt(state)
    if state.order and isinstance(state.pending, CHOICES):
        legal["late"] = _placing(state)  # slower players may still place for this token meanwhile
    return legal


def _placing(state: State) -> JsonObject:
    waiting = [p for p in state.players if p not in state.placed]
    return {"token": state.token, "waiting": waiting, "targets": {p: [_space(s) for s in targets(state, p)] for p in waiting},
            "stockpile": {p: state.stockpiles[p] for p in waiting},
            "moves": {p: placed_crystals(state, p) for p in waiting}}


def _prompt(state: State) -> JsonObject:
    match state.pending:
        case AwaitDeal():
            return _dealt(state)
        case AwaitKeep(players=players):
            return _keep(state, players)
        case AwaitDraw():
            return _draw(state)
        case AwaitCrystals():
            return _crystallize(state)
        case ChooseEffect(player=player, portal=portal):
            return effect_prompt(state, player, portal)
        case SelectPortal(player=player, picks=picks):
            return _select(state, player, picks)
        case ClaimReward(player=player):
            return _reward(state, player)
        case GameOver():
            return _over(state)
        case _:
            assert_never(state.pending)


def _keep(state: State, players: tuple[str, ...]) -> JsonObject:
    return {"kind": "keep", "keep": load().kept, "players": list(players),
            "hands": {p: list(state.hands[p]) for p in players}, "row": list(state.row)}


def _draw(state: State) -> JsonObject:
    return {"kind": "draw", **_next_draw(state)}


def _next_draw(state: State) -> JsonObject:
    """Who draws next and what the bag holds then (after a Wildcard: the new Catcher, the refilled bag)."""
    tokens, catcher = drawing_from(state)
    return {"catcher": catcher, "draws": "table" if state.table_draws else "companion",
            "bag": sorted(set(tokens), key=(*ANIMUS, WILDCARD).index)}


def targets(state: State, player: str) -> list[SpaceRef]:
    """The empty spaces of ``player``'s portals that this turn's token fits, as (portal, space)."""
    cards = load().portals
    return [(p, i) for p in state.areas[player] for i, a in enumerate(cards[p].spaces)
            if i not in state.crystals[p] and fits(state, player, a)]


def _space(ref: SpaceRef) -> JsonObject:
    return {"portal": ref[0], "space": ref[1]}  # as a crystal action names it (actions.Space)


def empty_spaces(state: State, player: str) -> list[tuple[str, int, str]]:
    """Every empty space of ``player``'s portals, as (portal, space, Animus)."""
    cards = load().portals
    return [(p, i, a) for p in state.areas[player] for i, a in enumerate(cards[p].spaces) if i not in state.crystals[p]]


def placed_crystals(state: State, player: str) -> list[JsonObject]:
    return [{"portal": p, "space": i} for p in state.areas[player] for i in sorted(state.crystals[p])]


def _crystallize(state: State) -> JsonObject:
    race_order = list(clockwise_from(state, state.catcher_name, list(state.players)))
    legal = {"kind": "crystallize", "catcher": state.catcher_name, **_placing(state), "openers": openers(state),
             "full": {p: full_portals(state, p) for p in openers(state)}, "race_order": race_order,
             "can_draw": not openers(state)}
    if state.token == WILDCARD:  # the next draw is the new Catcher's, from the refilled bag
        legal["bag_passed"] = _next_draw(state)
    if openers(state):  # a portal is full: INCANTATUM! is called on the button wands
        legal["race"] = {"action": "incantatum", "order": race_order}
    return legal


def effect_prompt(state: State, player: str, pid: str) -> JsonObject:
    cards = load().portals
    empty = [{"portal": p, "space": i, "animus": a} for p, i, a in empty_spaces(state, player)]
    return {"kind": "effect", "player": player, "portal": pid, "effect": _printed(cards[pid].effect),
            "stockpile": state.stockpiles[player], "empty": empty, "area": list(state.areas[player]),
            "placed": placed_crystals(state, player)}


def _printed(effect: PortalEffect | None) -> JsonObject | None:
    return None if effect is None else effect.printed


def unseen_designs(state: State) -> list[str]:
    return sorted({load().design(p) for p in state.deck})


def _select(state: State, player: str, picks: int) -> JsonObject:
    out = {"kind": "select", "player": player, "picks": picks, "selectable": selectable(state, player),
           "row": list(state.row)}
    if state.table_portals:  # the portal turned up to refill the row is entered with the take
        out["revealed"] = unseen_designs(state)
    return out


def _dealt(state: State) -> JsonObject:
    cat = load()
    return {"kind": "dealt", "players": list(state.players), "row_size": cat.row_size, "keep": cat.kept,
            "designs": unseen_designs(state)}


def _reward(state: State, player: str) -> JsonObject:
    reward = rewards.claimable(state, player) or ""
    return {"kind": "reward", "player": player, "reward": reward, "points": load().rewards[reward].points,
            "portals_open": len(state.achieved[player])}


def _over(state: State) -> JsonObject:
    ranking = scoring.ranking(state)
    return {"kind": "over", "winner": ranking[0], "ranking": ranking}

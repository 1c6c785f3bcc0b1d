"""What the table may see (no unseen face ever), and what it must do next, as JSON."""
from __future__ import annotations


from typing import assert_never

from companion.engine.views import JsonObject

from companion.games.incantibus import scoring, spells
from companion.games.incantibus.casting import targets_for
from companion.games.incantibus.satchel import arrange, discards_that_make_room
from companion.games.incantibus.state import State
from companion.games.incantibus.steps import (AwaitCast, AwaitReveal, AwaitRoom, AwaitSatchel, AwaitSpell, AwaitWandDown,
                                              GameOver)
from companion.games.incantibus.table import pool_of
from companion.games.incantibus.tokens import CARD, ROOM, VISIBLE, load


def seen(state: State, token: str) -> str | None:
    return None if token in state.secret else state.kinds[token]


def public_view(state: State) -> JsonObject:
    view: JsonObject = {
        "players": [_player(state, p) for p in state.players],
        "wands": dict(state.wands),
        "room": _room(state),
        "potions": [_space(state, "p", i, t) for i, t in enumerate(state.potions)],
        "sorcerers": [_sorcerer(state, i, t) for i, t in enumerate(state.sorcerers)],
        "moat": [seen(state, t) for t in state.moat],
        "moat_tokens": [{"token": t, "kind": seen(state, t)} for t in state.moat],
        "phase": state.phase, "rooms_left": rooms_left(state), "expert": state.expert,
        "draws": "table" if state.table_draws else "companion",
        "spell_cards": list(state.cards), "spell_deck": len(state.pools[CARD]) - state.cards.count(None),
        "spell_cards_used": list(state.cards_used),
        "specials": [state.kinds[t] for t in state.specials],
        "last_cast": {**(state.last_cast.as_json() if state.last_cast else {}), "events": list(state.notes)},
        "pending": pending(state), "casting": state.casting,
    }
    if state.expert:
        view["books"] = [_space(state, "b", i, t) for i, t in enumerate(state.books)]
    if state.phase == "over":
        ranking = scoring.ranking(state)
        view["winner"], view["ranking"] = ranking[0], ranking
    return view


def rooms_left(state: State) -> int:
    turning = state.table_draws and state.phase == "room" and state.room is None
    return len(state.pools[ROOM]) - (1 if turning else 0)


def _player(state: State, player: str) -> JsonObject:
    cells = arrange(state, player)
    return {"name": player, "wand": state.wands[player], "wand_down": player in state.wands_down,
            "satchel": {cell: [{"token": t, "kind": state.kinds[t]} for t in ids] for cell, ids in cells.items()},
            "points": scoring.points(state, player), "breakdown": scoring.breakdown(state, player)}


def _room(state: State) -> JsonObject:
    tokens = [{"id": f"r{i}", "slot": i, "token": t, "visible": t not in state.secret, "kind": seen(state, t)}
              for i, t in enumerate(state.slots) if t is not None]
    return {"name": state.room, "tokens": tokens}


def _space(state: State, place: str, i: int, token: str | None) -> JsonObject | None:
    if token is None:
        return None
    kind = seen(state, token)
    out: JsonObject = {"id": f"{place}{i}", "slot": i, "token": token, "kind": kind}
    if kind is not None:
        k = load().kinds[kind]
        out.update(points=k.points, colour=k.colour, recipe=list(k.recipe), condition=dict(k.condition) or None)
    return out


def _sorcerer(state: State, i: int, token: str | None) -> JsonObject | None:
    if token is None:
        return None
    kind = seen(state, token)
    return {"id": f"s{i}", "slot": i, "token": token, "face_up": i in state.face_up, "kind": kind,
            "points": load().kinds[kind].points if kind else None}


# -- what the table must do next ------------------------------------------------------------

def pending(state: State) -> JsonObject:
    """The short form of ``legal_actions``: what is awaited, and from whom."""
    pending = state.pending
    out: JsonObject = {"kind": pending.kind}
    if isinstance(pending, (AwaitSpell, AwaitSatchel)):
        out["player"] = pending.player
    if isinstance(pending, AwaitSatchel):
        out["token"] = pending.token
    if isinstance(pending, AwaitReveal):
        out["tokens"] = list(pending.refs)
    if isinstance(pending, AwaitWandDown):
        out["players"] = list(pending.players)
    return out


def legal_actions(state: State) -> JsonObject:
    match state.pending:
        case AwaitCast():
            return _cast(state)
        case AwaitSpell(player=player):
            return _spell(state, player)
        case AwaitSatchel(player=player, token=token):
            return _satchel(state, player, token)
        case AwaitReveal(refs=refs):
            return _reveal(state, refs)
        case AwaitRoom():
            return _room_entered(state)
        case AwaitWandDown(players=players):
            return {"kind": "wand_down", "players": list(players)}
        case GameOver():
            return _over(state)
        case _:
            assert_never(state.pending)


def _cast(state: State) -> JsonObject:
    tokens: dict[str, JsonObject] = {}
    for place, field, label in (("r", "slots", "room"), ("p", "potions", "potion"), ("b", "books", "book"),
                                ("s", "sorcerers", "sorcerer")):
        for i, t in enumerate(getattr(state, field)):
            if t is not None and (label != "room" or state.phase == "room"):
                tokens[f"{place}{i}"] = {"place": label, "slot": i, "visible": t not in state.secret,
                                         "kind": seen(state, t)}
    return {"kind": "cast", "players": list(state.players),
            "targets": {p: targets_for(state, p) for p in state.players}, "tokens": tokens}


def _spell(state: State, player: str) -> JsonObject:
    cards = [{"card": c, "works": spells.why_not(state, player, c) is None, "why": spells.why_not(state, player, c),
              "choices": spells.choices(state, player, c) if c in spells.PICKS else []} for c in state.cards if c is not None]
    return {"kind": "spell", "player": player, "cards": cards}


def _satchel(state: State, player: str, token: str) -> JsonObject:
    options: list[object] = ["discard_new"]
    options += [{"discard": t} for t in discards_that_make_room(state, player, token)]
    return {"kind": "satchel", "player": player, "token": token, "token_kind": state.kinds[token], "options": options}


def _reveal(state: State, waiting: tuple[str, ...]) -> JsonObject:
    refs = list(waiting)
    return {"kind": "reveal", "tokens": refs,
            "options": {r: sorted(set(state.pools[pool_of(state, r)])) for r in refs}}


def _room_entered(state: State) -> JsonObject:
    rooms = [state.room] if state.room else list(state.pools[ROOM])
    tiles = load().rooms
    return {"kind": "room_entered", "room": state.room,
            "rooms": [{"room": r, "visible": tiles[r].visible, "secret": tiles[r].secret} for r in rooms],
            "visible_kinds": sorted(set(state.pools[VISIBLE]))}


def _over(state: State) -> JsonObject:
    ranking = scoring.ranking(state)
    return {"kind": "over", "winner": ranking[0], "ranking": ranking}

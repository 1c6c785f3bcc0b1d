"""What the table sees (everything: Witchcraft has no secret information, except the deck's order)
and what it must do next."""
from __future__ import annotations


from companion.engine.views import JsonObject

from companion.games.witchcraft import magic, table
from companion.games.witchcraft.cards import SPELL, card, load
from companion.games.witchcraft.cauldron import hare_cards, still_needed
from companion.games.witchcraft.familiars import discardable
from companion.games.witchcraft.state import State


def card_view(cid: str | None) -> JsonObject | None:
    if cid is None:
        return None
    c = card(cid)
    return {"card": cid, "category": c.category, "kind": c.kind, "recipe": list(c.recipe), "magic": c.magic}


def _spell(state: State, witch: str, spell: str) -> JsonObject:
    return {**(card_view(spell) or {}), "assigned": [card_view(c) for c in state.assigned[spell]],
            "needs": still_needed(state, witch, spell)}


def _player(state: State, p: str) -> JsonObject:
    box = load()
    drawn = state.witches.get(p)  # the table's cards: none until the player has drawn one
    return {"name": p, "seat": state.players.index(p), "witch": drawn,
            "witch_title": box.witches[drawn].title if drawn else None, "crystals": state.crystals[p],
            "spells": [_spell(state, p, s) for s in state.spells[p]],
            "inventory": [card_view(c) for c in state.inventory[p]],
            "familiars": [{"familiar": f, "text": box.familiars[f].text, "used": f == "goat" and p in state.goat_used}
                          for f in state.familiars[p]],
            "cast": [card_view(s) for s in state.cast[p]], "snake": state.snake.get(p), "hare_casts": state.hare_casts[p],
            "magic": magic.magic(state, p), "breakdown": magic.breakdown(state, p), "turn": state.witch == p}


def public_view(state: State) -> JsonObject:
    view: JsonObject = {
        "players": [_player(state, p) for p in state.players], "turn": state.witch, "actions_left": state.actions_left,
        "market": [{"space": i, "card": card_view(c), "crystals": n} for i, (c, n) in enumerate(zip(state.market, state.on_market))],
        "deck": len(state.deck), "discard": len(state.discard), "supply": state.supply,
        "basic_top": card_view(state.basic[0] if state.basic else None), "basic_left": len(state.basic),
        "familiar_top": state.familiar_stack[0] if state.familiar_stack else None,
        "familiars_left": len(state.familiar_stack), "goal": load().goal,
        "phase": "over" if state.winner else "play", "pending": {"kind": state.pending[0]},
        "last_turn": {"events": list(state.notes)},
    }
    if state.table_draws:  # the stacks are the table's: what lies on top is seen there, not known here
        view.update(draws="table", basic_top=None, familiar_top=None)
    if state.winner:
        view["winner"], view["ranking"] = state.winner, magic.ranking(state)
    return view


def designs(cards: tuple[str, ...]) -> list[JsonObject]:
    """What a picker offers: one entry per design a card can show (an ingredient kind, a joker, each
    spell), with one card of it and how many could come up."""
    first: dict[str, str] = {}
    counts: dict[str, int] = {}
    for cid in cards:
        c = card(cid)
        key = cid if c.category == SPELL else c.kind or c.category
        first.setdefault(key, cid)
        counts[key] = counts.get(key, 0) + 1
    return [{**(card_view(cid) or {}), "count": counts[key]} for key, cid in first.items()]


def _table(state: State, kind: str, witch: str) -> JsonObject:
    """The table's cards: the picker of what can come up where the table waits for a card."""
    if kind == "turn_up":
        return {"spaces": table.gaps(state), "possible": designs(table.possible(state)), "dealing": state.dealing}
    if kind == "witch":
        return {"witches": [{"witch": n, "title": w.title} for n, w in load().witches.items()
                            if n not in state.witches.values()]}
    player = state.benefits[0]
    benefit = load().witches[state.witches[player]].benefit
    if benefit == "familiar":
        return {"player": player, "wants": "familiar", "familiars": list(state.familiar_stack)}
    return {"player": player, "wants": "spell" if benefit == "spell" else "ingredient",
            "possible": designs(state.deck)}


def legal_actions(state: State) -> JsonObject:
    kind = state.pending[0]
    if kind == "over":
        return {"kind": "over", "winner": state.winner, "ranking": magic.ranking(state)}
    witch = state.pending[1]
    out: JsonObject = {"kind": kind, "witch": witch}
    if kind in ("turn", "raven_buy"):
        out.update(_turn(state, witch))
    elif kind == "discard_spell":
        out["spells"] = list(state.spells[witch])
    elif kind == "discard_familiar":
        out["familiars"] = list(discardable(state, witch))  # never the one just taken
    elif kind == "snake":
        out["ingredients"] = list(load().ingredients)
    elif kind in ("turn_up", "witch", "benefit"):
        out.update(_table(state, kind, witch))
    if state.table_draws and kind == "turn":  # what the table's stacks can show on top when one is taken
        out.update(familiars=list(state.familiar_stack), basic=designs(state.basic))
    return out


def _turn(state: State, witch: str) -> JsonObject:
    mine = state.familiars[witch]
    return {"crystals": state.crystals[witch], "actions_left": state.actions_left,
            "can": {"take_familiar": bool(state.familiar_stack), "take_basic_spell": bool(state.basic),
                    "take_crystals": True, "magpie": "magpie" in mine, "raven": "raven" in mine,
                    "goat": "goat" in mine and witch not in state.goat_used, "squirrel": "squirrel" in mine,
                    "raccoon": "raccoon" in mine, "bat": "bat" in mine, "cat": "cat" in mine},
            "hare": {p: hare_cards(state, p) is not None for p in state.players if "hare" in state.familiars[p]},
            "max_buy": 4 if "squirrel" in mine else load().max_buy}

"""What the table may see, and what it may do next, as JSON. Pages not yet opened stay closed."""
from __future__ import annotations


from companion.engine.views import JsonObject

from companion.games.grimoire import curses, spells, table
from companion.games.grimoire.catalogue import FIELDS, START, effect_json, load
from companion.games.grimoire.moves import Zone
from companion.games.grimoire.state import State


def public_view(state: State) -> JsonObject:
    cat = load()
    view: JsonObject = {
        "phase": "over" if state.outcome else "playing", "outcome": state.outcome, "why": state.why,
        "active": state.current.name, "turn": state.turn,
        "ritual": ritual(state), "monster": monster(state), "book": book(state),
        "round": {"difficulty": state.difficulty, "row": list(cat.difficulty[state.difficulty]), "field": state.round + 1},
        "madness": {"pile": state.madness_pile, "total": cat.madness[len(state.players)], "out_at": cat.madness_out},
        "players": [_player(state, i) for i in range(len(state.players))],
        "library": {e: {"top": pile[0] if pile else None, "left": len(pile)} for e, pile in state.library.items()},
        "supply": {e: {str(v): n for v, n in piles.items()} for e, piles in state.supply.items()},
        "elements": dict(cat.elements), "curses_banished": state.curses_banished,
        "banished": list(state.banished), "escaped": list(state.escaped), "notes": list(state.notes),
        "draws": "table" if state.table_draws else "companion", "awaiting": list(state.awaiting),
    }
    if state.outcome:
        view["ranking"] = [p.name for p in state.players]
        view["winner"] = view["ranking"] if state.outcome == "won" else []
    return view


def ritual(state: State) -> JsonObject:
    cat = load()
    fields = [{"field": f, "name": "↺" if f == START else str(f),
               "curses": [curse(c) for c in state.fields.get(f, ())]} for f in range(FIELDS)]
    return {"marker": state.marker, "fields": fields, "curse_fields": list(cat.curse_fields)}


def curse(curse_id: str) -> JsonObject:
    cat = load()
    return {"id": curse_id, "pile": cat.pile_of(curse_id), "elements": list(cat.curses[curse_id])}


def monster(state: State) -> JsonObject | None:
    if state.page < 0:
        return None
    page = load().pages[state.book[state.page]]
    return {"page": state.page + 1, "id": page.id, "de": page.de, "en": page.en, "last": page.last,
            "damage": effect_json(page.damage), "reward": effect_json(page.reward), "arrival": effect_json(page.arrival),
            "curses": page.curses}


def book(state: State) -> list[JsonObject]:
    out: list[JsonObject] = []
    for i, pid in enumerate(state.book):
        shown = i <= state.page
        # A decided page says how it went, the last one too once the game is over.
        status = ("banished" if pid in state.banished else "escaped" if pid in state.escaped
                  else "open" if i == state.page else "closed")
        out.append({"number": i + 1, "id": pid if shown else None, "status": status})
    return out


def _player(state: State, seat: int) -> JsonObject:
    p = state.players[seat]
    cat = load()
    return {"name": p.name, "madness_hand": p.madness_hand, "madness_support": p.madness_support, "out": p.out,
            "active": seat == state.active and not state.outcome,
            "spells": [{"id": s, "de": cat.spells[s].de, "element": cat.spells[s].element, "level": cat.spells[s].level,
                        "exhausted": s in p.exhausted} for s in p.spells]}


def legal_actions(state: State) -> JsonObject:
    if state.outcome:
        return {"kind": "over", "outcome": state.outcome, "why": state.why}
    if state.awaiting:
        return {"kind": "curses", "piles": list(state.awaiting),
                "faces": {pile: table.faces(state, pile) for pile in set(state.awaiting)}}
    me = state.current
    cat = load()
    return {
        "kind": "turn", "player": me.name,
        "banish": list(state.curses_out), "rewards": curses.rewards_left(state),
        "cast": castable(state),
        "learn": spells.learnable(state), "must_drop": len(me.spells) >= cat.max_spells, "spells": list(me.spells),
        "buy": [{"element": e, "value": v} for e, v in buyable(state)],
        "cure": [{"owner": owner, "zone": zone} for owner, zone in cures(state)],
        "options": [{"type": "end_turn", "player": me.name}],
    }


def castable(state: State) -> list[str]:
    """The active player's spells not exhausted this turn."""
    return [s for s in state.current.spells if s not in state.current.exhausted]


def buyable(state: State) -> list[tuple[str, int]]:
    """Each element card left in the supply, as (element, value)."""
    return [(e, v) for e, piles in state.supply.items() for v, n in piles.items() if n > 0]


def cures(state: State) -> list[tuple[str, Zone]]:
    """Each madness card the active player may cure, as (whose, zone)."""
    me = state.current
    out: list[tuple[str, Zone]] = [(me.name, "hand")] if me.madness_hand else []
    return out + [(p.name, "support") for p in state.players if p.madness_support]

"""What the table may see, and what it may do next, as JSON. Pages not yet opened stay closed."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from companion.engine.views import JsonObject

from companion.games.grimoire import curses, hands, spells, table
from companion.games.grimoire.catalogue import FIELDS, START, effect_json, load
from companion.games.grimoire.moves import Zone
from companion.games.grimoire.state import Player, State


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
    if state.tracked:  # only then: a game that does not track hands shows what it always showed
        view["hands"] = "tracked"
        view["drawing"] = [{"player": p, "n": n} for p, n in state.drawing]
    if state.page_wanted:
        view["page_wanted"] = state.page + 1
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
    if state.page < 0 or not state.book[state.page]:  # none yet, or the table has yet to enter it
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
        out.append({"number": i + 1, "id": pid if shown and pid else None, "status": status})
    return out


def _player(state: State, seat: int) -> JsonObject:
    p = state.players[seat]
    cat = load()
    return {"name": p.name, "madness_hand": p.madness_hand, "madness_support": p.madness_support, "out": p.out,
            "active": seat == state.active and not state.outcome,
            "spells": [{"id": s, "de": cat.spells[s].de, "element": cat.spells[s].element, "level": cat.spells[s].level,
                        "exhausted": s in p.exhausted} for s in p.spells], **_cards(p)}


def _cards(p: Player) -> JsonObject:
    """Tracked hands: the cards in hand (shown: the table plays with open hands then), the deck and discard pile."""
    if p.cards is None:
        return {}
    return {"hand": list(p.cards.hand), "deck": len(p.cards.deck), "discard": len(p.cards.discard), "sheet": p.cards.sheet,
            "hand_cards": hands.hand_count(p)}


def legal_actions(state: State) -> JsonObject:
    if state.outcome:
        return {"kind": "over", "outcome": state.outcome, "why": state.why}
    if state.page_wanted:
        return {"kind": "page", "page": state.page + 1, "pages": table.pages_left(state), "rule": table.BOOK_RULE}
    if state.awaiting:
        return {"kind": "curses", "piles": list(state.awaiting),
                "faces": {pile: table.faces(state, pile) for pile in set(state.awaiting)}}
    if state.drawing:
        player, n = state.drawing[0]
        return {"kind": "cards", "player": player, "n": n, "possible": hands.possible(state.player(player), n),
                "left": hands.left(state.player(player), n), "rule": hands.RULEBOOK["regenerate"]}
    me = state.current
    cat = load()
    legal: JsonObject = {
        "kind": "turn", "player": me.name,
        "banish": affordable_curses(state), "rewards": curses.rewards_left(state),
        "cast": castable(state),
        "learn": learnable(state), "must_drop": len(me.spells) >= cat.max_spells, "spells": list(me.spells),
        "buy": [{"element": e, "value": v} for e, v in buyable(state)],
        "cure": [{"owner": owner, "zone": zone} for owner, zone in cures(state)],
        "options": [{"type": "end_turn", "player": me.name}],
    }
    if me.cards is not None:
        legal["hand"], legal["discard"] = list(me.cards.hand), hands.to_reduce(me)
    return legal


def affordable_curses(state: State) -> list[str]:
    """The curses on the circle; with tracked hands, those the active player's hand can pay."""
    if state.current.cards is None:
        return list(state.curses_out)
    return [c for c in state.curses_out if _can_pay(state, Counter(load().curses[c]))]


def learnable(state: State) -> list[str]:
    faces = spells.learnable(state)
    return faces if state.current.cards is None else [s for s in faces if _can_pay(state, spells.learn_cost(s))]


def _can_pay(state: State, cost: Mapping[str, int]) -> bool:
    cards = state.current.cards
    return cards is None or hands.cheapest(cards.hand, cost) is not None


def castable(state: State) -> list[str]:
    """The active player's spells not exhausted this turn (tracked hands: whose cost the hand pays once)."""
    me = state.current
    ready = [s for s in me.spells if s not in me.exhausted]
    return ready if me.cards is None else [s for s in ready if _can_pay(state, load().spells[s].cost)]


def buyable(state: State) -> list[tuple[str, int]]:
    """Each element card left in the supply (tracked hands: that the hand pays), as (element, value)."""
    left = [(e, v) for e, piles in state.supply.items() for v, n in piles.items() if n > 0]
    return left if state.current.cards is None else [(e, v) for e, v in left if _can_pay(state, {e: v})]


def cures(state: State) -> list[tuple[str, Zone]]:
    """Each madness card the active player may cure, as (whose, zone)."""
    me = state.current
    if me.cards is not None and len(me.cards.hand) < load().cure_cost:
        return []
    out: list[tuple[str, Zone]] = [(me.name, "hand")] if me.madness_hand else []
    return out + [(p.name, "support") for p in state.players if p.madness_support]

"""What the table may see (never whose wizards are imprisoned), and what it may do next, as JSON."""
from __future__ import annotations


from companion.engine.views import JsonObject

from companion.games.ravenskeep import board, scoring
from companion.games.ravenskeep.catalogue import load
from companion.games.ravenskeep.state import RAVENSKEEP, State, is_tower, owner


def public_view(state: State) -> JsonObject:
    cat = load()
    view: JsonObject = {
        "spaces": [_space(state, s) for s in range(len(state.spaces))],
        "ravenskeep": state.where(RAVENSKEEP),
        "players": [{"name": p.name, "full": p.full, "empty": p.empty, "spent": p.spent, "keep": p.keep,
                     "wizards": cat.wizards, "visible": board.wizard_spaces(state, p.name), "active": i == state.active,
                     "done": p.empty == 0 and p.keep == cat.wizards} for i, p in enumerate(state.players)],
        "active": state.current.name, "turn": state.turn, "first": state.players[state.first].name,
        "cards_played": state.cards_played, "forwent": state.forwent, "spell_cast": state.spell_cast,
        "roll": None if state.roll is None else state.roll.as_json(), "ending": state.ending, "phase": "over" if state.over else "playing",
        "spells": [{"id": s.id, "name": s.name, "cost": s.cost, "moves": s.moves, "steps": list(s.steps), "note": s.note}
                   for s in cat.spells.values()],
        "notes": list(state.notes),
    }
    if state.over:
        view["ranking"], view["places"], view["winner"] = scoring.ranking(state), scoring.places(state), scoring.winners(state)
    return view


def _space(state: State, space: int) -> JsonObject:
    cat = load()
    stack = state.spaces[space]
    top = max((i for i, it in enumerate(stack) if is_tower(it)), default=-1)  # wizards below it are imprisoned
    items: list[JsonObject] = []
    for i, item in enumerate(stack):
        if item == RAVENSKEEP:
            items.append({"ravenskeep": True})
        elif is_tower(item):
            items.append({"tower": item, "shield": item in cat.shield_towers})
        else:
            items.append({"wizard": owner(item) if i > top else None})
    return {"space": space, "shield": space in cat.shield_spaces, "stack": items}


STEPS = range(1, 7)  # the steps the tablet offers for a numbered card or a spell


def legal_actions(state: State) -> JsonObject:
    if state.over:
        return {"kind": "over", "winner": scoring.winners(state), "ranking": scoring.ranking(state)}
    me = state.current.name
    out: JsonObject = {"kind": "turn", "player": me, "cards_left": load().cards_per_turn - state.cards_played,
                           "can_forgo": not state.cards_played and not state.forwent and state.roll is None,
                           "spell_cast": state.spell_cast, "full": state.current.full}
    if state.roll is not None:
        out.update(kind="rolled", roll=state.roll.as_json(), pieces=board.pieces(state, me, state.roll.moves, state.roll.last))
    else:  # for a numbered card and for a spell
        out["pieces_for"] = {moves: {str(n): board.pieces(state, me, moves, n) for n in STEPS} for moves in ("wizard", "tower")}
    if state.table_dice:  # the tablet asks for the face the real die shows, on a roll and on each reroll
        out["die"] = list(load().die)
    out["can_end"] = state.roll is None and (state.forwent or state.cards_played >= load().cards_per_turn)
    out["wizards"] = board.wizard_spaces(state, me)
    out["towers"] = [t for t in load().towers]
    return out
